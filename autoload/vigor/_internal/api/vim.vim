" Vim only: Neovim never sources this file. Vim's channel "call" command
" swallows errors, so the SDK calls functions through these helpers, which
" return the error as a value.
"
" Two Vim 9.0 facts shape them (both checked by the end-to-end tests):
" - in a function called by a channel command, a Vim9 try/catch does not
"   catch errors such as E117 (the call just returns 0), while a legacy
"   one does; so the try/catch is legacy script;
" - in a def function, call('Name') does not find the global function Name
"   unless it is written g:Name.
" The batch loop itself is a def function, which runs it 1.6x faster (BENCHMARKS.md) than
" legacy script; the legacy wrapper around it catches the errors, and the
" loop appends to a list the wrapper owns, so the results before a failure
" survive it.

" Returns [result, v:null] or [v:null, error].
function! vigor#_internal#api#vim#call(fn, args) abort
  try
    return [call(a:fn, a:args), v:null]
  catch
    return [v:null, v:exception]
  endtry
endfunction

" Returns [results, v:null] or [results so far, [index, error]].
function! vigor#_internal#api#vim#batch(calls) abort
  let l:results = []
  try
    call s:batch(a:calls, l:results)
  catch
    return [l:results, [len(l:results), substitute(v:exception, '\<g:\ze\u', '', 'g')]]
  endtry
  return [l:results, v:null]
endfunction

def s:batch(calls: list<any>, results: list<any>)
  for c in calls
    results->add(call(c[0] =~ '^\u' ? 'g:' .. c[0] : c[0], c[1]))
  endfor
enddef

" Large messages arrive in chunks (internal/codec/vimjson): Vim parses one
" big JSON message in time that grows with the square of its size.
let s:chunks = {}

def vigor#_internal#api#vim#chunk(key: string, text: string)
  if !has_key(s:chunks, key)
    s:chunks[key] = []
  endif
  add(s:chunks[key], text)
enddef

" Returns the value whose JSON text came in the {n} chunks of {key}. Vim
" hands ch_evalexpr() its reply before it runs the chunk calls queued ahead
" of it, so this lets them run (sleep does) until all have come.
def vigor#_internal#api#vim#take(key: string, n: number): any
  var start = reltime()
  while len(get(s:chunks, key, [])) < n
    if reltimefloat(reltime(start)) > 60.0
      remove(s:chunks, key)
      throw '[vigor] a large message did not arrive in full within 60 s'
    endif
    sleep 1m
  endwhile
  return json_decode(join(remove(s:chunks, key), ''))
enddef

" Runs a call that came in {n} chunks: [function, arguments].
def vigor#_internal#api#vim#chunked(key: string, n: number): any
  var call = vigor#_internal#api#vim#take(key, n)
  return call(call[0], call[1])
enddef
