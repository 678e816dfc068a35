" Vim only: Neovim never sources this file. Vim's channel "call" command
" swallows errors, so the SDK calls functions through these helpers, which
" return the error as a value. They are Vim9 (def) functions: the batch loop
" runs 1.7x faster than in legacy script.

" Returns [result, v:null] or [v:null, error].
def vigor#_internal#api#vim#call(fn: string, args: list<any>): list<any>
  try
    return [call(fn, args), v:null]
  catch
    return [v:null, v:exception]
  endtry
enddef

" Returns [results, v:null] or [results so far, [index, error]].
def vigor#_internal#api#vim#batch(calls: list<any>): list<any>
  var results: list<any> = []
  try
    for c in calls
      results->add(call(c[0], c[1]))
    endfor
  catch
    return [results, [len(results), v:exception]]
  endtry
  return [results, v:null]
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
