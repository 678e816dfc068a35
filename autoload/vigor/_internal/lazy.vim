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
" autocmd, function!). Every field is checked before a stub is defined: a
" wrong file fails its plugin alone, and no value reaches an Ex command
" unchecked.

" name -> the declaration read from its lazy.json.
let s:declared = {}
" Command name -> the plugin whose stub it is.
let s:commands = {}
" name -> the declaration of a lazy plugin that was started (for
" lazy#missing()).
let s:started = {}

" The fields that lazy.json and each of its items may hold.
let s:FIELDS = {
      \ '': ['commands', 'mappings', 'events', 'functions'],
      \ 'commands': ['name', 'nargs', 'range', 'count', 'bang', 'complete'],
      \ 'mappings': ['mode', 'lhs'],
      \ 'events': ['event', 'pattern'],
      \}
let s:WHAT = {'': 'lazy.json', 'commands': 'a command', 'mappings': 'a mapping', 'events': 'an event'}
let s:NARGS = ['0', '1', '*', '?', '+']
let s:MODES = 'nvxsoilct'
let s:COMMAND = '^\u[A-Za-z0-9]*$'
let s:FUNCTION = '^\u[A-Za-z0-9_]*$'
let s:COMPLETE = '^\%(\l\+\|custom\%(list\)\=,\%(v:lua\.\)\=\h[A-Za-z0-9_#.]*\)$'
" A :map argument at the start of a {lhs} would be taken for one.
let s:MAP_ARG = '^\c<\%(buffer\|nowait\|silent\|special\|script\|expr\|unique\)>'

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
    let l:d = s:read(l:file, l:detail)
    call s:vim_cpo(function('s:check'), [l:d])
    call vigor#_internal#plugin#declare_lazy(a:name, a:dir, l:d)
  catch /^\[vigor\] /
    call vigor#_internal#plugin#fail_lazy(a:name, a:dir, printf('%s: %s', l:file, v:exception[8:]), l:detail)
  endtry
  return 1
endfunction

" The value that file holds; throws a [vigor] error when it is not JSON
" (the parser's own words are added to detail, for the log).
function! s:read(file, detail) abort
  try
    let l:text = join(readfile(a:file), "\n")
  catch
    call add(a:detail, 'lazy.json: ' . v:exception)
    throw '[vigor] cannot be read (make it a readable file; the plugin''s log says why)'
  endtry
  if l:text =~# '^\_s*$'
    throw '[vigor] is empty, which is not valid JSON ({} declares nothing)'
  endif
  try
    return json_decode(l:text)
  catch /^Vim\%((\a\+)\)\=:E938:/
    throw printf('[vigor] holds the field %s twice', s:show(matchstr(v:exception, '"\zs.*\ze"$'), '"'))
  catch
    call add(a:detail, 'lazy.json: ' . v:exception)
    throw '[vigor] is not valid JSON (the plugin''s log has the parser''s error)'
  endtry
endfunction

" Throws if d is how Neovim's json_decode() gives an object that holds a
" key twice.
function! s:twice(d) abort
  if has('nvim') && type(a:d) == v:t_dict && has_key(a:d, '_TYPE') && has_key(a:d, '_VAL')
        \ && a:d._TYPE is v:msgpack_types.map
    let l:seen = {}
    for [l:key, l:_] in a:d._VAL
      if type(l:key) == v:t_string && has_key(l:seen, l:key)
        throw printf('[vigor] holds the field %s twice', s:show(l:key, '"'))
      endif
      let l:seen[l:key] = 1
    endfor
  endif
endfunction

" Throws a [vigor] error naming the first field of d that is wrong, and
" what it must be.
function! s:check(d) abort
  call s:twice(a:d)
  if type(a:d) != v:t_dict
    throw '[vigor] must hold a Dict (a JSON object), not ' . vigor#_internal#value#article(a:d)
  endif
  call s:known(a:d, '', '')
  for l:key in s:FIELDS['']
    if has_key(a:d, l:key) && type(a:d[l:key]) != v:t_list
      throw printf('[vigor] "%s" must be a List, not %s', l:key, vigor#_internal#value#article(a:d[l:key]))
    endif
  endfor
  let l:names = {}
  let l:i = 0
  for l:c in get(a:d, 'commands', [])
    let l:at = printf('commands[%d]', l:i)
    call s:item(l:c, 'commands', l:at, 'name')
    let l:name = s:string(l:c.name, l:at . '.name', s:COMMAND, 'a command name (an uppercase letter, then letters and digits)')
    if has_key(l:names, l:name)
      throw printf('[vigor] %s.name: :%s is declared twice', l:at, l:name)
    elseif has_key(s:commands, l:name)
      throw printf('[vigor] %s.name: :%s is already declared by the lazy plugin %s', l:at, l:name, s:commands[l:name])
    elseif exists(':' . l:name) == 2
      throw printf('[vigor] %s.name: :%s is already a command (:verbose command %s says where it is from)', l:at, l:name, l:name)
    endif
    let l:names[l:name] = 1
    let l:nargs = get(l:c, 'nargs', '*')
    if !(type(l:nargs) == v:t_string && index(s:NARGS, l:nargs) >= 0 || type(l:nargs) == v:t_number && (l:nargs == 0 || l:nargs == 1))
      throw printf('[vigor] %s.nargs must be one of "0", "1", "*", "?", "+" (or the Number 0 or 1), not %s', l:at, s:show(l:nargs))
    endif
    for l:key in ['range', 'count', 'bang']
      if has_key(l:c, l:key) && type(l:c[l:key]) != v:t_bool
        throw printf('[vigor] %s.%s must be true or false, not %s', l:at, l:key, vigor#_internal#value#article(l:c[l:key]))
      endif
    endfor
    if get(l:c, 'range', v:false) && get(l:c, 'count', v:false)
      throw printf('[vigor] %s cannot have both "range" and "count"', l:at)
    endif
    if has_key(l:c, 'complete')
      call s:string(l:c.complete, l:at . '.complete', s:COMPLETE, 'a completion type (:help :command-complete)')
      if l:nargs ==# '0' || l:nargs is 0
        throw printf('[vigor] %s cannot have "complete" with "nargs" 0 (a command without arguments completes nothing)', l:at)
      endif
    endif
    let l:i += 1
  endfor
  let l:i = 0
  for l:m in get(a:d, 'mappings', [])
    let l:at = printf('mappings[%d]', l:i)
    call s:item(l:m, 'mappings', l:at, 'lhs')
    if has_key(l:m, 'mode')
      call s:string(l:m.mode, l:at . '.mode', '^[' . s:MODES . ']\+$', printf('mode letters from "%s"', s:MODES))
    endif
    let l:lhs = s:string(l:m.lhs, l:at . '.lhs', '^[^[:space:][:cntrl:]|]\+$',
          \ 'keys in <> notation, without white space (<Space>), | (<Bar>) or control characters (<C-V>)')
    if l:lhs =~# s:MAP_ARG
      throw printf('[vigor] %s.lhs must be keys in <> notation that do not begin with a :map argument (<buffer>, <expr>...), not %s', l:at, s:show(l:lhs))
    endif
    for l:mode in split(get(l:m, 'mode', 'n'), '\zs')
      let l:other = matchstr(maparg(l:lhs, l:mode), 'vigor#_internal#lazy#map(''\zs[^'']\+')
      if !empty(l:other)
        throw printf('[vigor] %s.lhs: %s in mode %s is already declared by the lazy plugin %s', l:at, s:show(l:lhs), l:mode, l:other)
      endif
    endfor
    let l:i += 1
  endfor
  let l:i = 0
  for l:e in get(a:d, 'events', [])
    let l:at = printf('events[%d]', l:i)
    call s:item(l:e, 'events', l:at, 'event')
    let l:event = s:string(l:e.event, l:at . '.event', '^\a\+$', 'the name of an event (:help autocmd-events)')
    if !exists('##' . l:event)
      throw printf('[vigor] %s.event must be the name of an event (:help autocmd-events), not %s', l:at, s:show(l:event))
    endif
    if has_key(l:e, 'pattern')
      call s:string(l:e.pattern, l:at . '.pattern', '^\%(++\)\@![^[:space:][:cntrl:]|"]\+\%(\\\)\@<!$',
            \ 'an autocommand pattern without white space, | or " (and not ending in \ or starting with ++)')
    endif
    let l:i += 1
  endfor
  let l:i = 0
  for l:f in get(a:d, 'functions', [])
    call s:string(l:f, printf('functions[%d]', l:i), s:FUNCTION,
          \ 'a global function name (an uppercase letter, then letters, digits and _)')
    let l:i += 1
  endfor
endfunction

" Throws unless v, item at of field, is a Dict of known fields with the
" field required.
function! s:item(v, field, at, required) abort
  call s:twice(a:v)
  if type(a:v) != v:t_dict
    throw printf('[vigor] %s must be a Dict (a JSON object), not %s', a:at, vigor#_internal#value#article(a:v))
  endif
  call s:known(a:v, a:field, ' in ' . a:at)
  if !has_key(a:v, a:required)
    throw printf('[vigor] %s has no "%s"', a:at, a:required)
  endif
endfunction

" Throws if d, of field, holds a field that Vigor does not know (a typo
" would otherwise go unnoticed).
function! s:known(d, field, where) abort
  let l:fields = s:FIELDS[a:field]
  for l:key in sort(keys(a:d))
    if index(l:fields, l:key) < 0
      throw printf('[vigor] unknown field %s%s (%s has %s)', s:show(l:key, '"'), a:where, s:WHAT[a:field], join(l:fields, ', '))
    endif
  endfor
endfunction

" v, the field at, if it is a String that matches pattern; throws
" otherwise, saying that it must be what.
function! s:string(v, at, pattern, what) abort
  if type(a:v) != v:t_string
    throw printf('[vigor] %s must be a String, not %s', a:at, vigor#_internal#value#article(a:v))
  elseif a:v !~# a:pattern
    throw printf('[vigor] %s must be %s, not %s', a:at, a:what, s:show(a:v))
  endif
  return a:v
endfunction

" v for a message: on one line, and not too long. {...}: the quote.
function! s:show(v, ...) abort
  let l:s = type(a:v) == v:t_string ? a:v : string(a:v)
  if strchars(l:s) > 60
    let l:s = strcharpart(l:s, 0, 57) . '...'
  endif
  let l:s = strtrans(l:s)
  if type(a:v) != v:t_string
    return l:s
  endif
  return a:0 ? a:1 . escape(l:s, a:1) . a:1 : string(l:s)
endfunction

" What Vim says in an error, without where and its number.
function! s:reason(exception) abort
  return substitute(a:exception, '^Vim\%((\a\+)\)\=:E\d\+:\s*', '', '')
endfunction

" Calls Fn with args under Vim's default 'cpoptions', whatever the
" user's: a backslash or <> in a {lhs} means in :map and maparg() what it
" means in lazy.json (cpo-B would make \ escape the next key, cpo+=< would
" leave <C-\> as five keys).
function! s:vim_cpo(Fn, args) abort
  let l:cpo = &cpo
  set cpo&vim
  try
    return call(a:Fn, a:args)
  finally
    let &cpo = l:cpo
  endtry
endfunction

" Defines the stubs of name's declaration d, checked by s:check(). Throws
" a [vigor] error, with no stub left, if the editor refuses one.
function! vigor#_internal#lazy#declare(name, d) abort
  call s:vim_cpo(function('s:declare'), [a:name, a:d])
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
              \ l:i, s:show(l:c.complete))
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
  call s:vim_cpo(function('s:unstub'), [a:name])
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
  let l:map = s:vim_cpo(function('maparg'), [a:lhs, a:mode, 0, 1])
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
      if empty(s:vim_cpo(function('maparg'), [l:m.lhs, l:mode]))
        call add(l:missing, l:mode . ' ' . l:m.lhs)
      endif
    endfor
  endfor
  return l:missing
endfunction
