" Editor functions that the SDK calls, on both editors.

" Cmd(): runs {cmd} with the keys of {vars} as l: variables.
function! vigor#_internal#api#cmd(cmd, vars) abort
  call extend(l:, a:vars)
  execute a:cmd
endfunction

" Eval(): evaluates {expr} with the keys of {vars} as l: variables.
function! vigor#_internal#api#eval(expr, vars) abort
  call extend(l:, a:vars)
  return s:sendable(eval(a:expr))
endfunction

" Values that no channel carries: Neovim's API would send a Funcref as
" v:null without a word, Vim's JSON channel fails to encode it.
let s:unsendable = {'2': 'a Funcref', '8': 'a Job', '9': 'a Channel'}

" Returns {value}, or throws if it cannot reach a plugin.
function! s:sendable(value) abort
  let l:what = get(s:unsendable, type(a:value), '')
  if l:what !=# ''
    throw 'the result is ' . l:what . ', which cannot be sent to a plugin'
  endif
  return a:value
endfunction

" Dispatch(): calls another plugin, waiting for it to load if needed.
function! vigor#_internal#api#dispatch(plugin, method, params) abort
  return vigor#request(a:plugin, a:method, a:params)
endfunction

" Notify(): calls {fn}; nobody waits, so an error is shown to the user.
function! vigor#_internal#api#notify(plugin, fn, args) abort
  try
    call call(a:fn, a:args)
  catch
    call vigor#_internal#echo#plugin('error', a:plugin, printf('%s(): %s', a:fn, v:exception))
  endtry
endfunction

function! vigor#_internal#api#redraw(force) abort
  if a:force
    redraw!
  else
    redraw
  endif
endfunction

" Batch() in legacy script: [results, v:null] or [results, [index, error]].
function! vigor#_internal#api#batch(calls) abort
  let l:results = []
  try
    for [l:fn, l:args] in a:calls
      call add(l:results, call(l:fn, l:args))
    endfor
  catch
    return [l:results, [len(l:results), v:exception]]
  endtry
  return [l:results, v:null]
endfunction
