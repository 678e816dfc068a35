" Neovim's transport: the plugin processes' msgpack-RPC channels, and
" Neovim's side of the answer protocol. Vim never sources this file;
" transport/vim.vim has the same functions for Vim (the editor-neutral
" files call vigor#_internal#transport#{editor}#...), and job.vim starts
" the processes for both.
"
"   name() version()          the editor, for the plugin's environment
"   start(cmd, env, callbacks) a plugin process; returns its handle
"   running(handle) stop(handle, kill) notify(handle, method, params)
"   lost(handle)              its channel has closed, the process may run
"   drops()                   0: Neovim drops no answer
"   waited(...)               a request's look at a channel that may be gone
"
" A handle is a Dict that start() makes: {'job': <job>, 'chan': <channel>,
" 'calls': <1 while vigor#request() waits in rpcrequest() on it>}.
" process.vim adds 'ended' (why the process went, for a request's error)
" and 'closed' (its channel is done); the fast path of vigor#request()
" (autoload/vigor.vim) reads 'chan' and sets 'calls', request.vim reads
" 'ended'.
" callbacks: {'stderr': {lines -> ...}, 'exit': {status -> ...}, 'closed':
" ...}: Neovim calls nothing when an RPC channel closes, so 'closed' is
" not used; a request or the request_async watch (outbox.vim) finds out
" (lost()).
"
" The rest of the answer protocol on Neovim: vigor#request() sends $call
" with rpcrequest() in autoload/vigor.vim, and goes on here (target(),
" call(), rest()) when it leaves its fast path; an answer that comes
" later comes through host#reply() (the name the SDK calls, host.vim).

let s:state = vigor#_internal#request#state()
let s:replies = vigor#_internal#host#replies()
let s:screen = vigor#_internal#echo#screen()
let s:lua_wait = luaeval('require("vigor._internal.request").wait')
" How often, in ms, a request that waits looks whether its channel has
" closed.
let s:LOOK = 200

function! vigor#_internal#transport#nvim#look() abort
  return s:LOOK
endfunction

" The plugin for a vigor#request() that is off its fast path: not loaded
" yet, arguments to check, nested deep, a $call open on its channel, or
" params that may hold a Funcref (rpcrequest() would send it as nil
" without a word). Throws as
" request#target() does, and for params that cannot be sent.
function! vigor#_internal#transport#nvim#target(name, method, params) abort
  let l:p = vigor#_internal#request#target(a:name, a:method, a:params)
  if !empty(l:p) && stridx(string(a:params), 'function(') >= 0
    let l:bad = vigor#_internal#request#unsendable(a:name, a:method, a:params, '')
    if !empty(l:bad)
      throw l:bad
    endif
  endif
  return l:p
endfunction

" The $call of a vigor#request() to plugin p, loaded, off its fast path
" (autoload/vigor.vim has the same lines): its result, or rest()'s.
function! vigor#_internal#transport#nvim#call(p, method, params, token) abort
  let l:h = a:p.handle
  let l:h.calls = 1
  let s:state.depth += 1
  try
    let l:res = rpcrequest(l:h.chan, '$call', a:token, a:method, a:params)
  catch /^Vim:Interrupt$/
    let l:res = exists('l:res') && type(l:res) == v:t_list ? l:res : -2
  catch /^Vim\%((\a\+)\)\=:Error invoking/
    let l:res = v:exception
  finally
    let s:state.depth -= 1
    let l:h.calls = 0
  endtry
  if type(l:res) == v:t_list && len(l:res) == 2 && l:res[1] is v:null
    return l:res[0]
  endif
  return vigor#_internal#transport#nvim#rest(a:p, a:method, a:params, a:token, l:h, l:res)
endfunction

" The end of a vigor#request() to plugin p, token, that did not get a
" result at once. res is what it got instead: the answer when it is an
" error or of the wrong shape (a List); for a $call, 0 when the answer
" comes later (host#reply()), or rpcrequest()'s error (a String); for a
" $request, -1 when its first wait of s:LOOK ms saw no answer, -3 when
" the channel closed meanwhile; -2 when CTRL-C stopped either. Waits for
" the answer while the channel is open, looking at it every s:LOOK ms and
" showing what it waits for after each second, until the answer, CTRL-C
" or the end of the channel; then returns the result or throws the
" request's error. A channel that was gone before the request was sent
" (a crash that Neovim knew of): the request waits for the restart and is
" sent again.
function! vigor#_internal#transport#nvim#rest(p, method, params, token, h, res) abort
  if type(a:res) == v:t_list
    call vigor#_internal#request#fail(a:p, a:method, a:token, a:h, 0, a:res)
  endif
  " r: what a wait returned (0: the answer or the channel's end, -1: a
  " look without them, -2: CTRL-C); 1: wait first.
  let l:r = type(a:res) == v:t_number ? get({0: 1, -3: 0}, a:res, a:res) : 1
  if type(a:res) == v:t_string
    if a:res !~# 'Invalid channel'
      throw printf('[vigor] %s.%s: the plugin could not take the request (%s); see %s',
            \ a:p.name, a:method, substitute(a:res, '\_s\+', ' ', 'g'), a:p.log)
    endif
    if empty(nvim_get_chan_info(a:h.chan))
      " Freed before the request: rpcrequest() sent nothing. (A channel
      " that closed during the request is kept until its process is
      " reaped.)
      return vigor#_internal#request#resend(a:p, a:method, a:params)
    endif
    " Closed during the request (or before it, under a process that
    " runs on): the runtime learns of it now, as waited() would, so that
    " the next request waits for the restart; the wait below ends with
    " the process.
    call vigor#_internal#process#on_closed(a:p.name, a:p.instance, 1)
  endif
  let l:waited = 0
  let s:state.depth += 1
  try
    if l:r > 0
      let l:r = s:lua_wait(a:token, a:h.chan, s:LOOK)
    endif
    while l:r
      let l:waited = l:r == -2 ? -1 : vigor#_internal#transport#nvim#waited(a:p, a:method, a:h, l:waited, s:LOOK)
      if l:waited < 0 | break | endif
      let l:r = s:lua_wait(a:token, a:h.chan, s:LOOK)
    endwhile
  catch /^Vim:Interrupt$/
    let l:waited = -1
  finally
    let s:state.depth -= 1
    if s:screen.line | call vigor#_internal#echo#progress_done() | endif
  endtry
  if has_key(s:replies, a:token)
    let l:res = remove(s:replies, a:token)
    if type(l:res) == v:t_list && len(l:res) == 2 && l:res[1] is v:null
      return l:res[0]
    endif
    call vigor#_internal#request#fail(a:p, a:method, a:token, a:h, 0, l:res)
  endif
  if l:waited < 0 && getchar(1) == 3
    " A CTRL-C that came while rpcrequest() waited is still typeahead
    " (vim.wait() takes its own): taken here, or the prompt that shows the
    " request's error would read it and clear the error at once.
    call getchar(0)
  endif
  call vigor#_internal#request#fail(a:p, a:method, a:token, a:h, l:waited < 0)
endfunction

function! vigor#_internal#transport#nvim#name() abort
  return 'nvim'
endfunction

function! vigor#_internal#transport#nvim#version() abort
  if !exists('s:version')
    let s:version = luaeval('(function(v) return v.major .. "." .. v.minor .. "." .. v.patch end)(vim.version())')
  endif
  return s:version
endfunction

" Starts a plugin process, its channel on its stdin and stdout. Returns a
" handle, or throws.
function! vigor#_internal#transport#nvim#start(cmd, env, callbacks) abort
  " 'group': what the plugin started ends with it (docs/ARCHITECTURE.md,
  " section 1).
  let l:h = vigor#_internal#job#start(a:cmd, {'rpc': 1, 'group': 1, 'env': a:env,
        \ 'err': a:callbacks.stderr, 'exit': a:callbacks.exit})
  " 'calls': 1 while an rpcrequest() of vigor#request() is open on the
  " channel (autoload/vigor.vim).
  let l:h.calls = 0
  return l:h
endfunction

" 1 while the process of a handle runs.
function! vigor#_internal#transport#nvim#running(handle) abort
  return jobwait([a:handle.job], 0)[0] == -1
endfunction

" Kills the process ({kill}), or closes its channel: it then ends itself.
function! vigor#_internal#transport#nvim#stop(handle, kill) abort
  try
    if a:kill
      call jobstop(a:handle.job)
    else
      call chanclose(a:handle.chan)
    endif
  catch
  endtry
endfunction

function! vigor#_internal#transport#nvim#notify(handle, method, params) abort
  call call('rpcnotify', [a:handle.chan, a:method] + a:params)
endfunction

" 1 when the channel of {handle} has closed, although its process may
" still run. Neovim calls nothing when an RPC channel closes under a
" running process, and its channel info does not change; but chansend()
" of nothing looks at the stream before it refuses raw data on an RPC
" channel, and sends nothing either way. (A translated message is not
" taken for a closed channel: the wait then ends with the process, as
" without this check.)
function! vigor#_internal#transport#nvim#lost(handle) abort
  try
    call chansend(a:handle.chan, '')
  catch /closed stream/
    return 1
  catch /^Vim(\a\+):/
    " The refusal of raw data: the channel is open. (Only an error of
    " the command: CTRL-C, Vim:Interrupt, goes on to stop the wait.)
  endtry
  return 0
endfunction

function! vigor#_internal#transport#nvim#drops() abort
  return 0
endfunction

" A request to the plugin p, on handle h, has waited another look of
" {look} ms without its answer, {waited} before. Looks whether the channel
" has gone, and shows what the request waits for after each second
" (request#busy()). Returns how many looks it has waited.
function! vigor#_internal#transport#nvim#waited(p, method, h, waited, look) abort
  if vigor#_internal#transport#nvim#lost(a:h)
    " Gone for the runtime (process#on_closed): marks the handle closed,
    " unless the exit, which does, is on its way.
    call vigor#_internal#process#on_closed(a:p.name, a:p.instance, 1)
  endif
  let l:waited = a:waited + 1
  let l:ms = l:waited * a:look
  if l:ms % 1000 < a:look
    call vigor#_internal#request#busy(a:p, a:method, l:ms / 1000.0)
  endif
  return l:waited
endfunction
