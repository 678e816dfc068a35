" The editor side of std/autocmd: each Go function is one call of one of
" these functions, which do the same on Vim (autocmd_add(), autocmd_delete(),
" autocmd_get()) and Neovim (nvim_create_autocmd(), nvim_clear_autocmds(),
" nvim_get_autocmds()).
"
" Names arrive checked by the Go side: events are letters, groups are
" letters, digits and "_-.", patterns have no newline. Events and groups
" are checked here against the editor, and an error is thrown as one line
" without the "vigor#_internal#..." prefix (the Go side names its function).

" s:check_events throws for the first name in events that is no event of
" this editor.
function! s:check_events(events) abort
  for l:e in a:events
    if !exists('##' . l:e)
      throw printf('no event %s in this editor (:help autocmd-events)', string(l:e))
    endif
  endfor
endfunction

" s:group_exists says whether the group name exists. A group named as an
" event cannot be told apart from the event by exists(), so it is refused.
function! s:group_exists(name) abort
  if exists('##' . a:name)
    throw printf('%s is the name of an event, not of a group', string(a:name))
  endif
  return exists('#' . a:name)
endfunction

" vigor#_internal#autocmd#run runs ops, a List of Dicts, in order:
"   {'op': 'clear', 'group': G}: creates the group G, or removes its
"       autocommands if it exists;
"   {'op': 'define', 'group', 'events', 'patterns', 'bufnr', 'once',
"       'nested', 'cmd'}: defines the autocommands ('bufnr' > 0 for
"       buffer-local ones instead of 'patterns');
"   {'op': 'remove', 'group', 'events', 'patterns', 'bufnr'}: removes the
"       matching autocommands (empty 'events': all events; empty 'patterns'
"       and 'bufnr' 0: all patterns); a group or a buffer that does not
"       exist has none.
" 'group' '' is no group.
function! vigor#_internal#autocmd#run(ops) abort
  for l:op in a:ops
    call s:check_events(get(l:op, 'events', []))
    if get(l:op, 'bufnr', 0) > 0 && !bufexists(l:op.bufnr)
      if l:op.op is# 'remove'
        continue
      endif
      throw printf('there is no buffer %d', l:op.bufnr)
    endif
    if l:op.group isnot# '' && s:group_exists(l:op.group) == 0
      if l:op.op is# 'remove'
        continue
      endif
      call s:create_group(l:op.group)
    elseif l:op.op is# 'clear'
      call s:remove({'group': l:op.group, 'events': [], 'patterns': [], 'bufnr': 0})
    endif
    if l:op.op is# 'define'
      call s:define(l:op)
    elseif l:op.op is# 'remove'
      call s:remove(l:op)
    endif
  endfor
endfunction

function! s:create_group(name) abort
  if has('nvim')
    call nvim_create_augroup(a:name, {'clear': v:false})
  else
    " The name is letters, digits and "_-." (checked by the Go side).
    execute 'augroup' a:name
    augroup END
  endif
endfunction

function! s:define(op) abort
  if has('nvim')
    let l:opts = {'once': a:op.once, 'nested': a:op.nested, 'command': a:op.cmd}
    if a:op.group isnot# ''
      let l:opts.group = a:op.group
    endif
    if a:op.bufnr > 0
      let l:opts.buffer = a:op.bufnr
    else
      let l:opts.pattern = a:op.patterns
    endif
    call nvim_create_autocmd(a:op.events, l:opts)
    return
  endif
  " One Dict for each event and pattern: autocmd_delete() of Vim 9.0.1378
  " crashes on a List of events, so neither function is given one.
  let l:acs = []
  for l:e in a:op.events
    for l:p in a:op.bufnr > 0 ? [''] : a:op.patterns
      let l:ac = {'event': l:e, 'once': a:op.once, 'nested': a:op.nested,
            \ 'cmd': a:op.cmd, 'group': a:op.group}
      if a:op.bufnr > 0
        let l:ac.bufnr = a:op.bufnr
      else
        let l:ac.pattern = l:p
      endif
      call add(l:acs, l:ac)
    endfor
  endfor
  if !autocmd_add(l:acs)
    throw 'the editor refused the autocommand'
  endif
endfunction

function! s:remove(op) abort
  if has('nvim')
    let l:opts = {}
    if a:op.group isnot# ''
      let l:opts.group = a:op.group
    endif
    if !empty(a:op.events)
      let l:opts.event = a:op.events
    endif
    if a:op.bufnr > 0
      let l:opts.buffer = a:op.bufnr
    elseif !empty(a:op.patterns)
      let l:opts.pattern = a:op.patterns
    endif
    call nvim_clear_autocmds(l:opts)
    return
  endif
  let l:acs = []
  for l:e in empty(a:op.events) ? ['*'] : a:op.events
    for l:p in a:op.bufnr > 0 || empty(a:op.patterns) ? [''] : a:op.patterns
      let l:ac = {'group': a:op.group, 'event': l:e}
      if a:op.bufnr > 0
        let l:ac.bufnr = a:op.bufnr
      elseif l:p isnot# ''
        let l:ac.pattern = l:p
      endif
      call add(l:acs, l:ac)
    endfor
  endfor
  if !autocmd_delete(l:acs)
    throw 'the editor refused to remove the autocommands'
  endif
endfunction

" vigor#_internal#autocmd#list returns the autocommands that f matches
" (the keys of a 'remove' op; 'group' v:null is every group), as Dicts
" with the keys group, event, pattern, buffer, once, nested and cmd.
" Neovim does not report ++nested: 'nested' is v:false there.
function! vigor#_internal#autocmd#list(f) abort
  call s:check_events(a:f.events)
  if a:f.group isnot v:null && a:f.group isnot# '' && !s:group_exists(a:f.group)
        \ || a:f.bufnr > 0 && !bufexists(a:f.bufnr)
    return []
  endif
  let l:pats = a:f.bufnr > 0 ? [printf('<buffer=%d>', a:f.bufnr)] : a:f.patterns
  let l:out = []
  if has('nvim')
    let l:opts = {}
    if a:f.group isnot v:null && a:f.group isnot# ''
      let l:opts.group = a:f.group
    endif
    if !empty(a:f.events)
      let l:opts.event = a:f.events
    endif
    if a:f.bufnr > 0
      let l:opts.buffer = a:f.bufnr
    elseif !empty(l:pats)
      let l:opts.pattern = l:pats
    endif
    for l:a in nvim_get_autocmds(l:opts)
      let l:group = get(l:a, 'group_name', '')
      if a:f.group is# '' && l:group isnot# ''
        continue
      endif
      call add(l:out, {'group': l:group, 'event': l:a.event,
            \ 'pattern': l:a.pattern, 'buffer': get(l:a, 'buffer', 0),
            \ 'once': l:a.once, 'nested': v:false,
            \ 'cmd': get(l:a, 'command', '')})
    endfor
    return l:out
  endif
  for l:e in empty(a:f.events) ? ['*'] : a:f.events
    for l:p in empty(l:pats) ? [''] : l:pats
      let l:opts = {'event': l:e}
      if a:f.group isnot v:null
        let l:opts.group = a:f.group
      endif
      if l:p isnot# ''
        let l:opts.pattern = l:p
      endif
      for l:a in autocmd_get(l:opts)
        if a:f.group is# '' && get(l:a, 'group', '') isnot# ''
          continue
        endif
        call add(l:out, {'group': get(l:a, 'group', ''), 'event': l:a.event,
              \ 'pattern': l:a.pattern, 'buffer': get(l:a, 'bufnr', 0),
              \ 'once': l:a.once, 'nested': l:a.nested, 'cmd': l:a.cmd})
      endfor
    endfor
  endfor
  return l:out
endfunction

" vigor#_internal#autocmd#emit runs :doautocmd (:doautoall if all) for
" event with the file name fname ('' for the current buffer's), without
" modelines and without the "No matching autocommands" message: while it
" runs, a do-nothing autocommand of a group of its own matches every file
" name.
function! vigor#_internal#autocmd#emit(event, fname, all) abort
  call s:check_events([a:event])
  " The event is letters (checked by the Go side and above); a '|' or '"'
  " in fname would end the command, and a backslash makes them part of it.
  let l:args = a:event . ' ' . escape(a:fname, '|"')
  if a:all
    execute 'doautoall <nomodeline>' l:args
    return
  endif
  augroup vigor_internal_autocmd_emit
    autocmd!
    execute 'autocmd' a:event '* :'
  augroup END
  try
    execute 'doautocmd <nomodeline>' l:args
  finally
    autocmd! vigor_internal_autocmd_emit
    augroup! vigor_internal_autocmd_emit
  endtry
endfunction
