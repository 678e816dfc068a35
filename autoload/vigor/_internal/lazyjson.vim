" lazy.json, the declaration of a lazy plugin (:help vigor-lazy): read and
" checked here before lazy.vim defines a stub of it. Every field is checked
" first: a wrong file fails its plugin alone, and no value reaches an Ex
" command unchecked.
"
" lazy.json:
"   {"commands": [{"name": "Hello", "nargs": "*", "range": true,
"                  "bang": true, "count": false, "complete": "file"}],
"    "mappings": [{"mode": "n", "lhs": "<Plug>(hello)"}],
"    "events":   [{"event": "FileType", "pattern": "markdown"}],
"    "functions": ["Hello"]}
" The plugin's setup must define each of them for real (command!, map,
" autocmd, function!).

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

" The declaration that file holds, checked (under Vim's default
" 'cpoptions': lazy#vim_cpo()); throws a [vigor] error naming the field
" that is wrong and what it must be. The parser's own words go to detail,
" for the log.
function! vigor#_internal#lazyjson#read(file, detail) abort
  let l:d = s:read(a:file, a:detail)
  call vigor#_internal#lazy#vim_cpo(function('s:check'), [l:d])
  return l:d
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
    throw printf('[vigor] holds the field %s twice', vigor#_internal#lazyjson#show(matchstr(v:exception, '"\zs.*\ze"$'), '"'))
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
        throw printf('[vigor] holds the field %s twice', vigor#_internal#lazyjson#show(l:key, '"'))
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
    elseif !empty(vigor#_internal#lazy#command_owner(l:name))
      throw printf('[vigor] %s.name: :%s is already declared by the lazy plugin %s', l:at, l:name, vigor#_internal#lazy#command_owner(l:name))
    elseif exists(':' . l:name) == 2
      throw printf('[vigor] %s.name: :%s is already a command (:verbose command %s says where it is from)', l:at, l:name, l:name)
    endif
    let l:names[l:name] = 1
    let l:nargs = get(l:c, 'nargs', '*')
    if !(type(l:nargs) == v:t_string && index(s:NARGS, l:nargs) >= 0 || type(l:nargs) == v:t_number && (l:nargs == 0 || l:nargs == 1))
      throw printf('[vigor] %s.nargs must be one of "0", "1", "*", "?", "+" (or the Number 0 or 1), not %s', l:at, vigor#_internal#lazyjson#show(l:nargs))
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
      throw printf('[vigor] %s.lhs must be keys in <> notation that do not begin with a :map argument (<buffer>, <expr>...), not %s', l:at, vigor#_internal#lazyjson#show(l:lhs))
    endif
    for l:mode in split(get(l:m, 'mode', 'n'), '\zs')
      let l:other = matchstr(maparg(l:lhs, l:mode), 'vigor#_internal#lazy#map(''\zs[^'']\+')
      if !empty(l:other)
        throw printf('[vigor] %s.lhs: %s in mode %s is already declared by the lazy plugin %s', l:at, vigor#_internal#lazyjson#show(l:lhs), l:mode, l:other)
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
      throw printf('[vigor] %s.event must be the name of an event (:help autocmd-events), not %s', l:at, vigor#_internal#lazyjson#show(l:event))
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
      throw printf('[vigor] unknown field %s%s (%s has %s)', vigor#_internal#lazyjson#show(l:key, '"'), a:where, s:WHAT[a:field], join(l:fields, ', '))
    endif
  endfor
endfunction

" v, the field at, if it is a String that matches pattern; throws
" otherwise, saying that it must be what.
function! s:string(v, at, pattern, what) abort
  if type(a:v) != v:t_string
    throw printf('[vigor] %s must be a String, not %s', a:at, vigor#_internal#value#article(a:v))
  elseif a:v !~# a:pattern
    throw printf('[vigor] %s must be %s, not %s', a:at, a:what, vigor#_internal#lazyjson#show(a:v))
  endif
  return a:v
endfunction

" v for a message: on one line, and not too long. {...}: the quote.
function! vigor#_internal#lazyjson#show(v, ...) abort
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

