" Lazy start: a plugin whose directory holds lazy.json is not built or
" started at startup. Vigor defines stubs for the commands, mappings,
" events and functions that the file declares; the first use of one starts
" the plugin, waits for it, and replays what triggered it. :help vigor-lazy
"
" lazy.json:
"   {"commands": [{"name": "Hello", "nargs": "*", "range": true,
"                  "bang": true, "count": false, "complete": "file"}],
"    "mappings": [{"mode": "n", "lhs": "<Plug>(hello)"}],
"    "events":   [{"event": "FileType", "pattern": "markdown"}],
"    "functions": ["Hello"]}
" The plugin's setup must define each of them for real (command!, map,
" autocmd, function!).

" name -> the declaration read from its lazy.json.
let s:declared = {}
" name -> the declaration of a lazy plugin that was started (for
" lazy#missing()).
let s:started = {}

" The declaration in {dir}/lazy.json, {} when there is none; throws a
" [vigor] error when it cannot be read.
function! vigor#_internal#lazy#read(name, dir) abort
  let l:file = a:dir . '/lazy.json'
  if !filereadable(l:file)
    return {}
  endif
  try
    let l:d = json_decode(join(readfile(l:file), "\n"))
  catch
    throw printf('[vigor] %s: %s is not valid JSON: %s', a:name, l:file, v:exception)
  endtry
  if type(l:d) != v:t_dict
    throw printf('[vigor] %s: %s must hold a JSON object', a:name, l:file)
  endif
  for [l:key, l:type] in [['commands', v:t_list], ['mappings', v:t_list], ['events', v:t_list], ['functions', v:t_list]]
    if type(get(l:d, l:key, [])) != l:type
      throw printf('[vigor] %s: "%s" in %s must be a list', a:name, l:key, l:file)
    endif
  endfor
  return l:d
endfunction

" Defines the stubs of name's declaration d.
function! vigor#_internal#lazy#declare(name, d) abort
  let s:declared[a:name] = a:d
  let l:q = string(a:name)
  for l:c in get(a:d, 'commands', [])
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
    execute printf('command! %s %s call vigor#_internal#lazy#command(%s, %s, %s, <q-args>, <line1>, <line2>, <range>, <count>, <q-bang>, <q-mods>)',
          \ l:attrs, l:c.name, l:q, string(l:c.name), string(l:kind))
  endfor
  for l:m in get(a:d, 'mappings', [])
    for l:mode in split(get(l:m, 'mode', 'n'), '\zs')
      " <lt>: the {lhs} in the call stays in <> notation.
      execute printf('%snoremap <silent> %s <Cmd>call vigor#_internal#lazy#map(%s, %s, %s)<CR>',
            \ l:mode, l:m.lhs, l:q, string(l:mode), substitute(string(l:m.lhs), '<', '<lt>', 'g'))
    endfor
  endfor
  execute 'augroup vigor_lazy_' . a:name
    autocmd!
    for l:e in get(a:d, 'events', [])
      execute printf('autocmd %s %s ++once call vigor#_internal#lazy#event(%s, %s)',
            \ l:e.event, get(l:e, 'pattern', '*'), l:q, string(l:e.event))
    endfor
    for l:f in get(a:d, 'functions', [])
      execute printf('autocmd FuncUndefined %s call vigor#_internal#lazy#start(%s)', l:f, l:q)
    endfor
  augroup END
endfunction

" Removes name's stubs (the plugin is being loaded): its setup defines the
" real commands, mappings and so on.
function! vigor#_internal#lazy#unstub(name) abort
  let l:d = remove(s:declared, a:name)
  let s:started[a:name] = l:d
  for l:c in get(l:d, 'commands', [])
    if exists(':' . l:c.name) == 2
      execute 'delcommand' l:c.name
    endif
  endfor
  for l:m in get(l:d, 'mappings', [])
    for l:mode in split(get(l:m, 'mode', 'n'), '\zs')
      if maparg(l:m.lhs, l:mode) =~# 'vigor#_internal#lazy#map('
        execute l:mode . 'unmap' l:m.lhs
      endif
    endfor
  endfor
  " The group stays: this may run inside one of its autocommands.
  execute 'autocmd! vigor_lazy_' . a:name
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
  if empty(maparg(a:lhs, a:mode))
    call vigor#_internal#echo#error(printf('%s: it did not map %s when it loaded (see :help vigor-lazy)', a:name, a:lhs))
    return
  endif
  " 'i': before what the user typed after it.
  call feedkeys(s:keys(a:lhs), 'mi')
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
      if empty(maparg(l:m.lhs, l:mode))
        call add(l:missing, l:mode . ' ' . l:m.lhs)
      endif
    endfor
  endfor
  return l:missing
endfunction

" The keys that a mapping's {lhs} in <> notation stands for.
function! s:keys(lhs) abort
  return eval('"' . substitute(escape(a:lhs, '"\'), '<\([^>]\+\)>', '\\<\1>', 'g') . '"')
endfunction
