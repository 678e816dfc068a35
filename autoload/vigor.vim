" Vigor's public API for calling plugins. :help vigor-functions

let s:plugins = vigor#_internal#plugin#all()
let s:none = {'state': ''}
let s:state = vigor#_internal#request#state()
let s:DEPTH_CHECK = vigor#_internal#request#depth_check()
" Answers by token, filled by host#reply() (shared with host.vim).
let s:replies = vigor#_internal#host#replies()

" Calls {method} of plugin {name} with the List {params} and returns the
" result. If the plugin is still building or starting, waits until it is
" ready (while its builds run, and up to g:vigor#request_timeout more).
" CTRL-C stops the wait at any time
" and interrupts the handler. :help vigor#request()
"
" The request is sent and awaited here, not in a helper: every level of
" editor -> plugin -> editor re-entrancy spends function frames against
" 'maxfuncdepth', here one (on Neovim two when the answer comes later:
" transport#nvim#rest()), plus the runtime's function that runs the
" plugin's call on Vim, plus the called function. On Vim it is a def
" function (_internal/vim9/autoload/vigor.vim): legacy script costs
" microseconds a line, and on Neovim the fast path comes first and
" returns, so that the lines after it are not even read.
" How each editor waits is in docs/ARCHITECTURE.md, "Requests".
"
" On Neovim, errors are thrown from vigor#request(), not from the helpers,
" so that the user's "Error detected while processing" names it alone.
" The request is an rpcrequest() of protocol.MethodCall ('$call'), which
" runs only the plugin's own messages while it waits: the plugin answers
" it within a few milliseconds, with the reply [result, error], or with
" 0, "later", when its handler takes longer or it sent a notification
" meanwhile. At most one is open on a channel (the handle's 'calls'): a
" request made while one is (re-entrancy) is the notification $request.
" A later answer, and that of a $request, come through host#reply(),
" and the wait for it is vim.wait() with a Lua condition
" (lua/vigor/_internal/request.lua), which runs the plugin's calls,
" timers, other channels and CTRL-C. The fast path is the loaded plugin
" whose reply is a result; the rest is in transport/nvim.vim: target()
" for the checks that may throw (params that may hold a Funcref, which
" rpcrequest() would send as nil without a word, among them), rest() for
" the answer that comes later (it waits, looks at the channel now and
" then, shows what it waits for after each second, and ends on CTRL-C),
" for an answer that is an error, and for a channel that is gone (a
" crash): then the request waits for the restart and is sent again if
" the plugin never saw it.
if !has('nvim')
  execute 'source' fnameescape(expand('<sfile>:p:h') . '/vigor/_internal/vim9/autoload/vigor.vim')
else
  let s:lua_wait = luaeval('require("vigor._internal.request").wait')
  let s:LOOK = vigor#_internal#transport#nvim#look()
  function! vigor#request(name, method, params) abort
    let l:p = get(s:plugins, a:name, s:none)
    if l:p.state ==# 'loaded' && !l:p.handle.calls && type(a:params) == v:t_list && type(a:method) == v:t_string
          \ && !get(g:, 'vigor#disabled', 0) && s:state.depth < s:DEPTH_CHECK
          \ && stridx(string(a:params), 'function(') < 0
      let l:h = l:p.handle
      let s:state.token += 1
      let l:token = s:state.token
      let l:h.calls = 1
      let s:state.depth += 1
      try
        let l:res = rpcrequest(l:h.chan, '$call', l:token, a:method, a:params)
      catch /^Vim:Interrupt$/
        " CTRL-C is seen once rpcrequest() has returned: keep what it did.
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
      try
        return vigor#_internal#transport#nvim#rest(l:p, a:method, a:params, l:token, l:h, l:res)
      catch /^\[vigor\]/
        throw v:exception
      endtry
    endif
    " Not the fast path: after its return, so that these lines are not
    " read on it.
    try
      let l:p = vigor#_internal#transport#nvim#target(a:name, a:method, a:params)
      if empty(l:p)
        return 0
      endif
      let s:state.token += 1
      let l:token = s:state.token
      if !l:p.handle.calls
        return vigor#_internal#transport#nvim#call(l:p, a:method, a:params, l:token)
      endif
    catch /^\[vigor\]/
      throw v:exception
    endtry
    " Re-entrancy: $request, whose answer comes through host#reply(). (Here,
    " not in a helper: each level spends function frames.)
    let l:h = l:p.handle
    try
      call rpcnotify(l:h.chan, '$request', l:token, a:method, a:params)
    catch /^Vim\%((\a\+)\)\=:E475:/
      try
        return vigor#_internal#request#resend(l:p, a:method, a:params)
      catch /^\[vigor\]/
        throw v:exception
      endtry
    endtry
    let s:state.depth += 1
    try
      let l:res = s:lua_wait(l:token, l:h.chan, s:LOOK)
    catch /^Vim:Interrupt$/
      let l:res = -2
    finally
      let s:state.depth -= 1
    endtry
    let l:res = l:res ? l:res : -3
    if has_key(s:replies, l:token)
      let l:res = remove(s:replies, l:token)
      if type(l:res) == v:t_list && len(l:res) == 2 && l:res[1] is v:null
        return l:res[0]
      endif
    endif
    try
      return vigor#_internal#transport#nvim#rest(l:p, a:method, a:params, l:token, l:h, l:res)
    catch /^\[vigor\]/
      throw v:exception
    endtry
  endfunction
endif

" Calls {method} without waiting for a result. Errors are shown as messages.
" A notify to a plugin that is not ready yet is queued and delivered, in
" order, when it is.
function! vigor#notify(name, method, params) abort
  try
    let l:p = vigor#_internal#request#known(a:name, a:method)
    call vigor#_internal#request#params(a:name, a:method, a:params)
    call vigor#_internal#request#sendable(a:name, a:method, a:params)
  catch /^\[vigor\]/
    throw v:exception
  endtry
  if empty(l:p)
    return 0
  endif
  call vigor#_internal#outbox#post(l:p, {'kind': 'notify', 'method': a:method, 'params': a:params})
  return 0
endfunction

" Calls {method} and returns at once; {success} gets the result, {failure}
" an error object {'name', 'plugin', 'method', 'message'}. The callback
" that is not used is released too.
function! vigor#request_async(name, method, params, success, failure) abort
  try
    let l:p = vigor#_internal#request#known(a:name, a:method)
    call vigor#_internal#request#params(a:name, a:method, a:params)
    call vigor#_internal#request#sendable(a:name, a:method, a:params)
    let l:where = a:name . '.' . a:method
    call vigor#_internal#value#expect_callback(l:where, 'the success callback', a:success)
    call vigor#_internal#value#expect_callback(l:where, 'the failure callback', a:failure)
  catch /^\[vigor\]/
    throw v:exception
  endtry
  if empty(l:p)
    return 0
  endif
  let l:sid = vigor#callback#register(a:success, {'once': v:true})
  let l:fid = vigor#callback#register(a:failure, {'once': v:true})
  call vigor#_internal#outbox#post(l:p, {'kind': 'async', 'success': l:sid, 'failure': l:fid,
        \ 'method': a:method, 'params': a:params})
  return 0
endfunction

" Cancels the context of every running handler in every plugin; {reason}
" is optional.
function! vigor#interrupt(...) abort
  if a:0 && type(a:1) != v:t_string
    throw '[vigor] vigor#interrupt(): the reason must be a String, not ' . vigor#_internal#value#article(a:1)
  endif
  call vigor#_internal#outbox#interrupt(a:0 ? a:1 : v:null)
  return 0
endfunction
