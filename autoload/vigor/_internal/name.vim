" Plugin names: what a name may be, and the error for one that is not.
let s:NAME = '^[-_0-9a-zA-Z]\+$'

function! vigor#_internal#name#valid(name) abort
  return type(a:name) == v:t_string && a:name =~# s:NAME
endfunction

function! vigor#_internal#name#check(name) abort
  let l:err = vigor#_internal#name#error(a:name)
  if !empty(l:err)
    throw l:err
  endif
endfunction

" The error for an invalid plugin name, or ''. The public functions throw
" it themselves, so that "Error detected while processing" names them
" alone.
function! vigor#_internal#name#error(name) abort
  if type(a:name) != v:t_string
    return '[vigor] a plugin name must be a String, not ' . vigor#_internal#value#article(a:name)
  elseif a:name !~# s:NAME
    return printf('[vigor] invalid plugin name %s: a name is letters, digits, - and _', string(a:name))
  endif
  return ''
endfunction
