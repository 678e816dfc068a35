" Lazy start: a plugin whose directory holds lazy.json is not built or
" started at startup. Vigor defines stubs for the commands, mappings,
" events and functions that the file declares; the first use of one starts
" the plugin, waits for it, and replays what triggered it. :help vigor-lazy
"
" lazyjson.vim reads and checks lazy.json; this file defines and removes
" the stubs, and runs them.

" name -> the declaration read from its lazy.json.
let s:declared = {}
" Command name -> the plugin whose stub it is.
let s:commands = {}
" name -> the declaration of a lazy plugin that was started (for
" lazy#missing()).
let s:started = {}

" Declares name lazy if dir holds lazy.json. Returns 0 when it does not,
" 1 when it does: name is then lazy, or failed if the file is wrong (one
" message names the file, the field and what it must be). Nothing in the
" file reaches an Ex command before it is checked.
function! vigor#_internal#lazy#setup(name, dir) abort
  let l:file = a:dir . '/lazy.json'
  if empty(getftype(l:file))
    return 0
  endif
  let l:detail = []
  try
    let l:d = vigor#_internal#lazyjson#read(l:file, l:detail)
    call s:register(a:name, a:dir, l:d)
  catch /^\[vigor\] /
    call s:fail(a:name, a:dir, printf('%s: %s', l:file, v:exception[8:]), l:detail)
  endtry
  return 1
endfunction

" Registers name, found in dir with the lazy declaration d, as lazy:
" nothing is built or started until it is used. A plugin on its way or
" loaded is left as it is. Throws a [vigor] error if a stub cannot be
" defined.
function! s:register(name, dir, d) abort
  let l:p = vigor#_internal#plugin#entry(a:name, a:dir)
  if index(['stopped', 'failed'], l:p.state) < 0
    return
  endif
  call vigor#_internal#lazy#declare(a:name, a:d)
  call vigor#_internal#plugin#to_lazy(a:name, a:dir)
endfunction

" name, found in dir, fails without being built: its lazy.json is wrong
" (msg). detail goes to its log. 'bad_lazy' (this file's field of the
" entry) makes a load or reload read the file again (plugin#load()).
function! s:fail(name, dir, msg, detail) abort
  let l:p = vigor#_internal#plugin#entry(a:name, a:dir)
  let l:p.dir = a:dir
  let l:p.bad_lazy = 1
  if !empty(a:detail)
    call vigor#_internal#stderr#log(l:p, a:detail)
  endif
  call vigor#_internal#plugin#fail(l:p, a:msg)
endfunction

" What Vim says in an error, without where and its number.
function! s:reason(exception) abort
  return substitute(a:exception, '^Vim\%((\a\+)\)\=:E\d\+:\s*', '', '')
endfunction

" Calls Fn with args under Vim's default 'cpoptions', whatever the
" user's: a backslash or <> in a {lhs} means in :map and maparg() what it
" means in lazy.json (cpo-B would make \ escape the next key, cpo+=< would
" leave <C-\> as five keys).
function! vigor#_internal#lazy#vim_cpo(Fn, args) abort
  let l:cpo = &cpo
  set cpo&vim
  try
    return call(a:Fn, a:args)
  finally
    let &cpo = l:cpo
  endtry
endfunction

" Defines the stubs of name's declaration d, checked by lazyjson#read(). Throws
" a [vigor] error, with no stub left, if the editor refuses one.
function! vigor#_internal#lazy#declare(name, d) abort
  call vigor#_internal#lazy#vim_cpo(function('s:declare'), [a:name, a:d])
endfunction

function! s:declare(name, d) abort
  let s:declared[a:name] = a:d
  let l:group = 'vigor_lazy_' . a:name
  execute 'augroup' l:group
    autocmd!
  augroup END
  let l:q = string(a:name)
  let l:at = ''
  try
    let l:i = 0
    for l:c in get(a:d, 'commands', [])
      let l:at = printf('commands[%d]: cannot define :%s', l:i, l:c.name)
      let l:attrs = '-nargs=' . get(l:c, 'nargs', '*')
      let l:kind = ''
      if get(l:c, 'range', 0)
        let [l:attrs, l:kind] = [l:attrs . ' -range', 'range']
      elseif get(l:c, 'count', 0)
        let [l:attrs, l:kind] = [l:attrs . ' -count', 'count']
      endif
      if get(l:c, 'bang', 0)
        let l:attrs .= ' -bang'
      endif
      if has_key(l:c, 'complete')
        let l:attrs .= ' -complete=' . l:c.complete
      endif
      try
        execute printf('command! %s %s call vigor#_internal#lazy#command(%s, %s, %s, <q-args>, <line1>, <line2>, <range>, <count>, <q-bang>, <q-mods>)',
              \ l:attrs, l:c.name, l:q, string(l:c.name), string(l:kind))
      catch /^Vim\%((\a\+)\)\=:E180:/
        " Vim's message holds the rest of the command.
        throw printf('[vigor] commands[%d].complete must be a completion type (:help :command-complete), not %s',
              \ l:i, vigor#_internal#lazyjson#show(l:c.complete))
      endtry
      let s:commands[l:c.name] = a:name
      let l:i += 1
    endfor
    let l:i = 0
    for l:m in get(a:d, 'mappings', [])
      let l:at = printf('mappings[%d]: cannot map %s', l:i, l:m.lhs)
      for l:mode in split(get(l:m, 'mode', 'n'), '\zs')
        " <lt>: the {lhs} in the call stays in <> notation.
        execute printf('%snoremap <silent> %s <Cmd>call vigor#_internal#lazy#map(%s, %s, %s)<CR>',
              \ l:mode, l:m.lhs, l:q, string(l:mode), substitute(string(l:m.lhs), '<', '<lt>', 'g'))
      endfor
      let l:i += 1
    endfor
    let l:i = 0
    for l:e in get(a:d, 'events', [])
      let l:at = printf('events[%d]: cannot define the autocommand', l:i)
      execute printf('autocmd %s %s %s ++once call vigor#_internal#lazy#event(%s, %s)',
            \ l:group, l:e.event, get(l:e, 'pattern', '*'), l:q, string(l:e.event))
      let l:i += 1
    endfor
    let l:i = 0
    for l:f in get(a:d, 'functions', [])
      let l:at = printf('functions[%d]: cannot define the autocommand', l:i)
      execute printf('autocmd %s FuncUndefined %s call vigor#_internal#lazy#start(%s)', l:group, l:f, l:q)
      let l:i += 1
    endfor
  catch
    call s:remove_stubs(a:name)
    throw v:exception =~# '^\[vigor\] ' ? v:exception : printf('[vigor] %s: %s', l:at, s:reason(v:exception))
  endtry
endfunction

" Removes name's stubs (the plugin is being loaded): its setup defines the
" real commands, mappings and so on.
function! vigor#_internal#lazy#unstub(name) abort
  call vigor#_internal#lazy#vim_cpo(function('s:unstub'), [a:name])
endfunction

function! s:unstub(name) abort
  let s:started[a:name] = s:remove_stubs(a:name)
endfunction

" Removes name's stubs, and its declaration, which it returns (the plugin
" starts, or the editor refused one of them).
function! s:remove_stubs(name) abort
  let l:d = remove(s:declared, a:name)
  for l:c in get(l:d, 'commands', [])
    if get(s:commands, l:c.name, '') ==# a:name
      unlet s:commands[l:c.name]
      if exists(':' . l:c.name) == 2
        execute 'delcommand' l:c.name
      endif
    endif
  endfor
  let l:stub = 'vigor#_internal#lazy#map(' . string(a:name) . ','
  for l:m in get(l:d, 'mappings', [])
    for l:mode in split(get(l:m, 'mode', 'n'), '\zs')
      if stridx(maparg(l:m.lhs, l:mode), l:stub) >= 0
        execute l:mode . 'unmap' l:m.lhs
      endif
    endfor
  endfor
  " The group stays: this may run inside one of its autocommands.
  execute 'autocmd! vigor_lazy_' . a:name
  return l:d
endfunction

" The lazy plugin whose stub the command cmd is, or ''.
function! vigor#_internal#lazy#command_owner(cmd) abort
  return get(s:commands, a:cmd, '')
endfunction

" 1 if name is declared lazy and not started yet.
function! vigor#_internal#lazy#pending(name) abort
  return has_key(s:declared, a:name)
endfunction

" Starts name and waits until it has loaded. Returns 1 when it is loaded.
function! vigor#_internal#lazy#start(name) abort
  let l:p = vigor#_internal#plugin#get(a:name)
  if empty(l:p)
    return 0
  endif
  if l:p.state ==# 'lazy'
    call vigor#_internal#plugin#load(a:name, l:p.dir)
  endif
  let l:coming = vigor#_internal#plugin#is_coming(l:p)
  let l:r = vigor#_internal#request#wait_coming(l:p, vigor#_internal#conf#get('request_timeout'))
  if l:p.state ==# 'loaded'
    return 1
  elseif l:coming && l:r == 0 && l:p.state ==# 'failed'
    " Its failure has been shown as it happened.
    return 0
  endif
  call vigor#_internal#echo#error(printf('%s: %s', a:name, l:r == -2 ? 'interrupted while it was starting'
        \ : l:r == -1 ? 'it did not start in time (g:vigor#request_timeout)' : 'it failed to load: ' . l:p.error))
  return 0
endfunction

function! vigor#_internal#lazy#command(name, cmd, kind, args, line1, line2, range, count, bang, mods) abort
  if !vigor#_internal#lazy#start(a:name)
    return
  endif
  if exists(':' . a:cmd) != 2
    call vigor#_internal#echo#error(printf('%s: it did not define :%s when it loaded (see :help vigor-lazy)', a:name, a:cmd))
    return
  endif
  let l:range = ''
  if a:kind ==# 'range'
    let l:range = a:range == 2 ? a:line1 . ',' . a:line2 : a:range == 1 ? string(a:line1) : ''
  elseif a:kind ==# 'count' && a:range > 0
    let l:range = string(a:count)
  endif
  execute a:mods l:range . a:cmd . a:bang a:args
endfunction

function! vigor#_internal#lazy#map(name, mode, lhs) abort
  if !vigor#_internal#lazy#start(a:name)
    return
  endif
  let l:map = vigor#_internal#lazy#vim_cpo(function('maparg'), [a:lhs, a:mode, 0, 1])
  if empty(l:map)
    call vigor#_internal#echo#error(printf('%s: it did not map %s when it loaded (see :help vigor-lazy)', a:name, a:lhs))
    return
  endif
  " The keys the mapping is on, as the editor has them; 'i': before what
  " the user typed after it.
  call feedkeys(l:map.lhsraw, 'mi')
endfunction

function! vigor#_internal#lazy#event(name, event) abort
  let l:file = expand('<amatch>')
  if !vigor#_internal#lazy#start(a:name)
    return
  endif
  execute 'doautocmd <nomodeline>' a:event fnameescape(l:file)
endfunction

" What name's lazy.json declares that its setup did not define, once it
" has loaded: a list such as [':Hello', 'Hello()', 'n <Plug>(hello)'].
function! vigor#_internal#lazy#missing(name) abort
  let l:d = get(s:started, a:name, {})
  if empty(l:d) || vigor#_internal#plugin#state(a:name) !=# 'loaded'
    return []
  endif
  let l:missing = []
  for l:c in get(l:d, 'commands', [])
    if exists(':' . l:c.name) != 2
      call add(l:missing, ':' . l:c.name)
    endif
  endfor
  for l:f in get(l:d, 'functions', [])
    if !exists('*' . l:f)
      call add(l:missing, l:f . '()')
    endif
  endfor
  for l:m in get(l:d, 'mappings', [])
    for l:mode in split(get(l:m, 'mode', 'n'), '\zs')
      if empty(vigor#_internal#lazy#vim_cpo(function('maparg'), [l:m.lhs, l:mode]))
        call add(l:missing, l:mode . ' ' . l:m.lhs)
      endif
    endfor
  endfor
  return l:missing
endfunction
