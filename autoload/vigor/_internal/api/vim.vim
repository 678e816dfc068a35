" Vim only: Neovim never sources this file.
"
" A plugin's calls reach Vim in one of two ways (g:vigor#vim_calls; the
" plugin learns which from $VIGOR_VIM_CALLS), and both answer
" [-id, [result, v:null]] or [-id, [v:null, error]]:
" - 'callback': channel messages [0, [-id, function, args]], which Vim
"   hands to the job's channel callback, on_call();
" - 'command': Vim's channel command ["call", "vigor#_internal#api#vim#call",
"   [function, args], -id], which Vim answers with what call() below returns.
"
" Vim's "call" command runs the function with errors silenced
" (emsg_silent), so a failing function just returns 0; only a legacy :try
" (which resets emsg_silent) sees the error, hence the legacy wrapper
" call() below, which costs 4-5 us a call. A channel callback runs with
" errors live, so the Vim9 try/catch in on_call() sees them and the whole
" path is compiled; but Vim redraws (and writes to the terminal) after
" every channel callback, which with a screen costs more than the wrapper.
" So with a screen the command is cheaper, and in Ex mode (vim -e/-es),
" where nothing is redrawn, the callback is (BENCHMARKS.md, "Vim calls
" with a screen").
" Inside :silent! (a vigor#request() under it waits for the reply while
" the plugin calls Vim), errors stay silenced, as they are for Vim's own
" functions there.
"
" In a def function, call('Name') finds a global function only as 'g:Name';
" the SDK adds the prefix (internal/host).

" The 'command' way: Vim's "call" command runs this with errors silenced;
" the legacy :try turns them back on (a Vim9 try would not).
" Returns [result, v:null] or [v:null, error].
function! vigor#_internal#api#vim#call(fn, args) abort
  try
    let l:r = call(a:fn, a:args)
    if (type(l:r) == v:t_list || type(l:r) == v:t_dict) && a:fn !=# s:BATCH
          \ && vigor#_internal#depth#first([l:r]) >= 0
      return [v:null, s:TooDeep()]
    endif
    return [l:r, v:null]
  catch
    return [v:null, vigor#_internal#api#vim#error(v:exception, v:throwpoint)]
  endtry
endfunction

" The message of an error, as Neovim's API gives it: an error that a
" function raised right in the line of a wrapper here that calls it reads
" "Vim:E475: ...", as when Neovim calls the function itself, not with the
" wrapper's Ex command ("Vim(return):E475: ..."). Errors raised deeper, in
" the user's functions, are left as they are (Neovim gives those the same).
function! vigor#_internal#api#vim#error(exception, throwpoint) abort
  if a:exception =~# '^Vim(\a\+):' && a:throwpoint =~# '#api#vim#\%(call\|legacy\), line \d\+$'
    return substitute(a:exception, '^Vim(\a\+):', 'Vim:', '')
  endif
  return a:exception
endfunction

" batch() checks the depth of each of its results itself.
let s:BATCH = 'vigor#_internal#api#vim#batch'

" The error for a result nested deeper than a plugin reads, which Vim
" cannot always encode (json_encode() recurses): the plugin's call fails
" with it (depth.vim).
def s:TooDeep(): string
  return 'the result: ' .. vigor#_internal#depth#error()
enddef

" Runs the call in msg, [-id, function, args], and answers on ch.
def vigor#_internal#api#vim#on_call(ch: channel, msg: any)
  if type(msg) != v:t_list || len(msg) != 3
    return
  endif
  var text: string
  var result: any
  var t: number
  try
    result = call(msg[1], msg[2])
    t = type(result)
    if (t == v:t_list || t == v:t_dict) && msg[1] != s:BATCH
        && vigor#_internal#depth#first([result]) >= 0
      text = json_encode([msg[0], [null, s:TooDeep()]])
    endif
  catch
    text = json_encode([msg[0], [null, vigor#_internal#api#vim#error(v:exception, v:throwpoint)]])
  endtry
  if text == ''
    try
      text = json_encode([msg[0], [result, null]])
    catch
      text = json_encode([msg[0], [null, s:Unsendable(result)]])
    endtry
  endif
  try
    ch_sendraw(ch, text .. "\n")
  catch
    # The plugin is gone; the job's exit callback reports that.
  endtry
enddef

" The message for a result that JSON cannot carry.
def s:Unsendable(result: any): string
  var t = type(result)
  var what = t == v:t_func ? 'a Funcref' : t == v:t_job ? 'a Job' : t == v:t_channel ? 'a Channel' : ''
  if what != ''
    return 'the result is ' .. what .. ', which cannot be sent to a plugin'
  endif
  return 'the result holds a Funcref, a Job or a Channel, which cannot be sent to a plugin'
enddef

" Runs the builtin function fn in a legacy context. on_call() and batch()
" are def functions, where eval(), execute() and the other builtins that
" read Vim script from a String would read it as Vim9 script; on Neovim and
" through Vim's "call" command they read legacy script. The SDK sends calls
" of builtins (lower-case names) through here from those two places (about
" 2 us a call).
function! vigor#_internal#api#vim#legacy(fn, args) abort
  return call(a:fn, a:args)
endfunction

" Returns [results, v:null] or [results so far, [index, error]]. It runs
" inside on_call() or vigor#_internal#api#vim#call(), where errors are
" live, so its try/catch sees them. The results' depth is checked once
" they are all in (one max() when none is a List or Dict), not at each
" call, which would cost each call of a batch: a result nested too deep to
" encode ends the batch there, as an error would, though the calls after
" it have run.
def vigor#_internal#api#vim#batch(calls: list<any>): list<any>
  var results = []
  var err: any = null
  try
    for c in calls
      results->add(call(c[0], c[1]))
    endfor
  catch
    err = [len(results), vigor#_internal#api#vim#error(v:exception, v:throwpoint)]
  endtry
  if !vigor#_internal#depth#flat(results)
    var bad = vigor#_internal#depth#first(results)
    if bad >= 0
      return [bad == 0 ? [] : results[: bad - 1], [bad, s:TooDeep()]]
    endif
  endif
  return [results, err]
enddef

" Large messages arrive in chunks (internal/codec/vimjson): Vim parses one
" big JSON message in time that grows with the square of its size. The
" store is shared by every plugin process, and the chunks of two processes
" may arrive interleaved, so a key is unique to its process:
" '{plugin}:{instance}:c{n}' (protocol.ChunkPrefix). When a process's
" channel has closed, drop() forgets its keys.
let s:chunks = {}
" The keys that take() is waiting for, which drop() leaves to it.
let s:taking = {}

def vigor#_internal#api#vim#chunk(key: string, text: string)
  if !has_key(s:chunks, key)
    s:chunks[key] = []
  endif
  add(s:chunks[key], text)
enddef

" Returns the value whose JSON text came in the {n} chunks of {key}. The
" chunk calls come before the call that takes them, in order, so all have
" come; if some have not, this lets them run (sleep does), for 60 s.
def vigor#_internal#api#vim#take(key: string, n: number): any
  s:taking[key] = 1
  try
    var start = reltime()
    while len(get(s:chunks, key, [])) < n
      if reltimefloat(reltime(start)) > 60.0
        throw '[vigor] a large message did not arrive in full within 60 s'
      endif
      sleep 1m
    endwhile
  catch
    remove(s:taking, key)
    if has_key(s:chunks, key)
      remove(s:chunks, key)
    endif
    throw v:exception
  endtry
  remove(s:taking, key)
  return json_decode(join(remove(s:chunks, key), ''))
enddef

" Runs a call that came in {n} chunks: [function, arguments].
def vigor#_internal#api#vim#chunked(key: string, n: number): any
  var call = vigor#_internal#api#vim#take(key, n)
  return call(call[0], call[1])
enddef

" Forgets the chunks of the plugin process {name} {instance}, whose channel
" has closed: Vim has run all its messages (close_cb comes after them), so
" no more of its chunks will come. A take() under way (close_cb may run in
" its sleep) keeps its own.
function! vigor#_internal#api#vim#drop(name, instance) abort
  let l:prefix = a:name . ':' . a:instance . ':'
  " (An expression, not a closure: this runs in a job's close_cb.)
  call filter(s:chunks, printf('strpart(v:key, 0, %d) !=# %s || has_key(s:taking, v:key)', len(l:prefix), string(l:prefix)))
endfunction

" The keys of the large messages not yet received in full.
function! vigor#_internal#api#vim#pending() abort
  return sort(keys(s:chunks))
endfunction
