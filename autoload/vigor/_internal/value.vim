" Values in the user's words: type names for messages, and the values that
" cannot be sent to a plugin.

" 'a Number', 'a String', ..., 'v:null': how messages name a value's type.
function! vigor#_internal#value#article(value) abort
  let l:t = type(a:value)
  if l:t == 7
    return string(a:value) " v:null or v:none (Vim's v:t_none)
  endif
  return get(s:ARTICLES, l:t, 'a value of type ' . l:t)
endfunction

let s:ARTICLES = {
      \ v:t_number: 'a Number', v:t_string: 'a String', v:t_func: 'a Funcref',
      \ v:t_list: 'a List', v:t_dict: 'a Dict', v:t_float: 'a Float',
      \ v:t_bool: 'a Boolean', v:t_blob: 'a Blob',
      \}
if !has('nvim')
  let s:ARTICLES[v:t_job] = 'a Job'
  let s:ARTICLES[v:t_channel] = 'a Channel'
endif

" The first value inside the List args that no channel can carry (a
" Funcref, a Job, a Channel), as [where, article], or [] if there is none.
" where is 1-based for the argument, then Vim's subscripts: 2['key'][0].
function! vigor#_internal#value#unsendable(args) abort
  let l:i = 0
  " (A capital name: the loop variable may take a Funcref.)
  for l:V in a:args
    let l:i += 1
    let l:bad = s:unsendable(l:V, string(l:i))
    if !empty(l:bad)
      return l:bad
    endif
  endfor
  return []
endfunction

function! s:unsendable(v, where) abort
  let l:t = type(a:v)
  if l:t == v:t_list
    let l:i = 0
    for l:X in a:v
      let l:bad = s:unsendable(l:X, a:where . '[' . l:i . ']')
      if !empty(l:bad)
        return l:bad
      endif
      let l:i += 1
    endfor
  elseif l:t == v:t_dict
    for [l:k, l:X] in items(a:v)
      let l:bad = s:unsendable(l:X, a:where . '[' . string(l:k) . ']')
      if !empty(l:bad)
        return l:bad
      endif
    endfor
  elseif l:t == v:t_func || (!has('nvim') && (l:t == v:t_job || l:t == v:t_channel))
    return [a:where, vigor#_internal#value#article(a:v)]
  endif
  return []
endfunction

" 1 if args may hold such a value (a quick look, for every call: only then
" is the walk above needed).
function! vigor#_internal#value#maybe_unsendable(args) abort
  let l:s = string(a:args)
  return stridx(l:s, 'function(') >= 0 || (!has('nvim') && l:s =~# '\<\%(process\|channel\) ')
endfunction

" Throws "[vigor] {where}: {what} must be {want}, not a ..." unless the type
" of value is one of types (v:t_ numbers); the API's arguments are checked
" this way, so that both editors give the same error.
function! vigor#_internal#value#expect(where, what, value, types, want) abort
  if index(a:types, type(a:value)) < 0
    throw printf('[vigor] %s: %s must be %s, not %s', a:where, a:what, a:want,
          \ vigor#_internal#value#article(a:value))
  endif
endfunction

" Checks that callback is a Funcref or the name of a function.
function! vigor#_internal#value#expect_callback(where, what, callback) abort
  call vigor#_internal#value#expect(a:where, a:what, a:callback, [v:t_func, v:t_string],
        \ 'a Funcref or the name of a function')
endfunction
