" Vigor's public API for calling plugins. :help vigor-functions

let s:plugins = vigor#_internal#plugin#all()
let s:none = {'state': ''}

" How long Vim's wait blocks in ch_read() at a time, in ms: the longest
" that CTRL-C and timers wait while a request runs.
let s:TICK = 20
" A ch_read() id that no message has.
let s:NO_ID = 0x7fffffff
let s:token = 0
" Nesting of vigor#request() calls, and the level from which each call
" checks the real function depth against 'maxfuncdepth'.
let s:depth = 0
let s:DEPTH_CHECK = 8
" Frames a request needs beyond its caller's: vigor#request() itself, the
" runtime's function that runs a plugin's call, the called function and
" what that calls.
let s:DEPTH_RESERVE = 8

" Calls {method} of plugin {name} with the List {params} and returns the
" result. If the plugin is still building or starting, waits until it is
" ready (up to g:vigor#request_timeout). CTRL-C stops the wait at any time
" and interrupts the handler. :help vigor#request()
"
" The request is sent and awaited here, not in a helper: every level of
" editor -> plugin -> editor re-entrancy spends Vim function frames against
" 'maxfuncdepth', here one, plus the runtime's function that runs the
" plugin's call on Vim, plus the called function. How each editor waits is
" in docs/ARCHITECTURE.md, "Requests".
if has('nvim')
  function! vigor#request(name, method, params) abort
    let l:p = get(s:plugins, a:name, s:none)
    if l:p.state !=# 'loaded' || type(a:params) != v:t_list || type(a:method) != v:t_string
          \ || get(g:, 'vigor#disabled', 0) || s:depth >= s:DEPTH_CHECK
      let l:p = s:target(a:name, a:method, a:params)
      if empty(l:p)
        return 0
      endif
    endif
    " rpcnotify() would send a Funcref as nil without a word.
    if stridx(string(a:params), 'function(') >= 0
      call s:check_sendable(a:name, a:method, a:params)
    endif
    let l:h = l:p.handle
    let s:token += 1
    let l:token = s:token
    try
      call rpcnotify(l:h.chan, '$request', l:token, a:method, a:params)
    catch /^Vim\%((\a\+)\)\=:E475:/
      " The channel is gone (a crash): wait for the restart, send again.
      return s:resend(l:p, a:method, a:params)
    endtry
    " wait() runs the plugin's calls, and returns early when one of them
    " fails: wait again. (Function calls cost microseconds each here, so
    " this path makes none of its own.)
    let s:depth += 1
    let l:stopped = 0
    try
      while !has_key(s:replies, l:token) && !has_key(l:h, 'closed')
        if wait(-1, 'has_key(s:replies, l:token) || has_key(l:h, "closed")', 50) == -2
          let l:stopped = 1
          break
        endif
      endwhile
    catch /^Vim:Interrupt$/
      let l:stopped = 1
    finally
      let s:depth -= 1
    endtry
    if has_key(s:replies, l:token)
      let l:res = remove(s:replies, l:token)
      if type(l:res) == v:t_list && len(l:res) == 2 && l:res[1] is v:null
        return l:res[0]
      endif
      return s:result(l:p, a:method, l:token, l:h, l:stopped, l:res)
    endif
    return s:result(l:p, a:method, l:token, l:h, l:stopped)
  endfunction
else
  function! vigor#request(name, method, params) abort
    let l:p = get(s:plugins, a:name, s:none)
    if l:p.state !=# 'loaded' || type(a:params) != v:t_list || type(a:method) != v:t_string
          \ || get(g:, 'vigor#disabled', 0) || s:depth >= s:DEPTH_CHECK
      let l:p = s:target(a:name, a:method, a:params)
      if empty(l:p)
        return 0
      endif
    endif
    let l:h = l:p.handle
    let s:token += 1
    let l:token = s:token
    try
      let l:msg = json_encode([l:token, [a:method, a:params]]) . "\n"
    catch
      call s:check_sendable(a:name, a:method, a:params)
      throw printf('[vigor] %s.%s: the arguments cannot be sent to the plugin: %s', a:name, a:method, v:exception)
    endtry
    try
      call ch_sendraw(l:h.chan, l:msg)
    catch /^Vim\%((\a\+)\)\=:E\%(630\|631\|906\|912\):/
      return s:resend(l:p, a:method, a:params)
    endtry
    " The plugin answers with a command that stores the answer
    " (host#reply), then the wake-up [token, 0], which ends ch_read() at
    " once if it is waiting; the command is then still queued, and the
    " second ch_read() runs it (no message has that id: it only runs what
    " is queued). Between reads, :sleep runs timers and sees CTRL-C.
    let s:depth += 1
    let l:stopped = 0
    try
      while 1
        if type(ch_read(l:h.chan, {'id': l:token, 'timeout': s:TICK})) == v:t_list
          call ch_read(l:h.chan, {'id': s:NO_ID, 'timeout': 0})
        endif
        if has_key(s:replies, l:token) || has_key(l:h, 'closed')
              \ || ch_status(l:h.chan, {'part': 'out'}) !=# 'open'
          break
        endif
        sleep 1m
      endwhile
    catch /^Vim:Interrupt$/
      let l:stopped = 1
    finally
      let s:depth -= 1
    endtry
    if has_key(s:replies, l:token)
      let l:res = remove(s:replies, l:token)
      if type(l:res) == v:t_list && len(l:res) == 2 && l:res[1] is v:null
        return l:res[0]
      endif
      return s:result(l:p, a:method, l:token, l:h, l:stopped, l:res)
    endif
    return s:result(l:p, a:method, l:token, l:h, l:stopped)
  endfunction
endif

" Answers by token, filled by host#reply() (shared with host.vim).
let s:replies = vigor#_internal#host#replies()

" The error of a request that has no good answer: an answer with an error
" or of the wrong shape (res), or a wait that ended without one (stopped:
" CTRL-C; else the process went away).
function! s:result(p, method, token, handle, stopped, ...) abort
  if !a:0
    call vigor#_internal#host#abandon(a:token)
    if a:stopped
      call vigor#_internal#host#notify(a:handle, '$interrupt', ['CTRL-C stopped vigor#request()'])
      throw printf('[vigor] %s.%s: interrupted (CTRL-C); the handler''s context is cancelled', a:p.name, a:method)
    endif
    throw printf('[vigor] %s.%s: the plugin process exited during the call (it crashed or was stopped); see :messages and %s',
          \ a:p.name, a:method, a:p.log)
  endif
  let l:res = a:1
  if type(l:res) != v:t_list || len(l:res) != 2
    throw printf('[vigor] %s.%s: unexpected reply %s', a:p.name, a:method, string(l:res)[: 100])
  endif
  throw printf('[vigor] %s.%s: %s', a:p.name, a:method, l:res[1])
endfunction

" The plugin's channel was gone when the request was to be sent, so the
" plugin never saw it: wait for the process to be restarted (as for a
" plugin that is loading), then send it again.
function! s:resend(p, method, params) abort
  let l:instance = a:p.instance
  call vigor#_internal#wait#for(vigor#_internal#conf#get('request_timeout'),
        \ {-> a:p.instance != l:instance || a:p.state !=# 'loaded'},
        \ vigor#_internal#conf#get('wait_interval'))
  if a:p.instance == l:instance && a:p.state ==# 'loaded'
    throw printf('[vigor] %s.%s: the plugin process closed its channel but did not exit (see %s)', a:p.name, a:method, a:p.log)
  endif
  return vigor#request(a:p.name, a:method, a:params)
endfunction

" Calls {method} without waiting for a result. Errors are shown as messages.
" A notify to a plugin that is not ready yet is queued and delivered, in
" order, when it is.
function! vigor#notify(name, method, params) abort
  let l:p = s:known(a:name, a:method)
  call s:check_params(a:name, a:method, a:params)
  call s:check_sendable(a:name, a:method, a:params)
  if empty(l:p)
    return 0
  endif
  call vigor#_internal#plugin#post(l:p, ['notify', a:method, a:params])
  return 0
endfunction

" Calls {method} and returns at once; {success} gets the result, {failure}
" an error object {'name', 'plugin', 'method', 'message'}. The callback
" that is not used is released too.
function! vigor#request_async(name, method, params, success, failure) abort
  let l:p = s:known(a:name, a:method)
  call s:check_params(a:name, a:method, a:params)
  call s:check_sendable(a:name, a:method, a:params)
  if empty(l:p)
    return 0
  endif
  let l:sid = vigor#callback#register(a:success, {'once': v:true})
  let l:fid = vigor#callback#register(a:failure, {'once': v:true})
  call vigor#_internal#plugin#post(l:p, ['async', l:sid, l:fid, a:method, a:params])
  return 0
endfunction

" Cancels the context of every running handler in every plugin; {reason}
" is optional.
function! vigor#interrupt(...) abort
  call vigor#_internal#plugin#interrupt(a:0 ? a:1 : v:null)
  return 0
endfunction

" The plugin, loaded, for a request; waits while it loads. Throws if it
" cannot be called, for arguments of the wrong type, and when the calls
" nest too deep. Returns {} when Vigor is disabled.
function! s:target(name, method, params) abort
  let l:p = s:known(a:name, a:method)
  call s:check_params(a:name, a:method, a:params)
  if s:depth >= s:DEPTH_CHECK
    call s:check_depth(a:name, a:method)
  endif
  if empty(l:p) || l:p.state ==# 'loaded'
    return l:p
  endif
  let l:timeout = vigor#_internal#conf#get('request_timeout')
  let l:r = vigor#_internal#wait#for(l:timeout,
        \ {-> !vigor#_internal#plugin#is_coming(l:p)},
        \ vigor#_internal#conf#get('wait_interval'))
  if l:r == -1
    throw printf('[vigor] %s.%s: the plugin was not ready within %d ms (it is still %s; g:vigor#request_timeout)',
          \ a:name, a:method, l:timeout, l:p.state)
  elseif l:r == -2
    throw printf('[vigor] %s.%s: interrupted while waiting for the plugin to start', a:name, a:method)
  endif
  call s:check_state(l:p, a:method)
  return l:p
endfunction

" The registry entry of a plugin that can take calls now or later. Throws
" for invalid names, unknown, failed and unloaded plugins.
function! s:known(name, method) abort
  call vigor#_internal#plugin#check_name(a:name)
  if type(a:method) != v:t_string
    throw printf('[vigor] %s: the method name must be a String, not %s',
          \ a:name, vigor#_internal#value#article(a:method))
  endif
  if vigor#_internal#conf#get('disabled')
    return {}
  endif
  let l:p = vigor#_internal#plugin#get(a:name)
  if empty(l:p) && !vigor#plugin#discovered()
    call vigor#plugin#discover()
    let l:p = vigor#_internal#plugin#get(a:name)
  endif
  if empty(l:p)
    throw printf('[vigor] %s.%s: there is no plugin %s (no vigor/%s/ directory on ''runtimepath'')',
          \ a:name, a:method, a:name, a:name)
  endif
  if !vigor#_internal#plugin#is_coming(l:p)
    call s:check_state(l:p, a:method)
  endif
  return l:p
endfunction

function! s:check_params(name, method, params) abort
  if type(a:params) != v:t_list
    throw printf('[vigor] %s.%s: the arguments must be a List, not %s',
          \ a:name, a:method, vigor#_internal#value#article(a:params))
  endif
endfunction

" Throws if params hold a value that cannot reach a plugin, naming where.
function! s:check_sendable(name, method, params) abort
  if !vigor#_internal#value#maybe_unsendable(a:params)
    return
  endif
  let l:bad = vigor#_internal#value#unsendable(a:params)
  if !empty(l:bad)
    throw printf('[vigor] %s.%s: argument %s is %s, which cannot be sent to a plugin',
          \ a:name, a:method, l:bad[0], l:bad[1])
  endif
endfunction

" Each level of nested requests uses a few function frames; past
" 'maxfuncdepth' Vim can no longer run the plugin's calls, and both sides
" would wait for ever. Refuse before that.
function! s:check_depth(name, method) abort
  let l:stack = expand('<stack>')
  " A def function that calls a legacy one (Vim's channel callback, which
  " runs the plugin's calls) spends two levels of the depth.
  let l:frames = len(split(l:stack, '\.\.')) + count(l:stack, '#api#vim#on_call[')
  if l:frames + s:DEPTH_RESERVE > &maxfuncdepth
    throw printf('[vigor] %s.%s: requests nested %d deep use %d of the %d function calls that ''maxfuncdepth'' allows; stop the recursion or raise ''maxfuncdepth''',
          \ a:name, a:method, s:depth + 1, l:frames, &maxfuncdepth)
  endif
endfunction

function! s:check_state(p, method) abort
  if a:p.state ==# 'loaded'
    return
  elseif a:p.state ==# 'failed'
    throw printf('[vigor] %s.%s: the plugin failed to load: %s', a:p.name, a:method, a:p.error)
  elseif a:p.state ==# 'unloading'
    throw printf('[vigor] %s.%s: the plugin is being unloaded', a:p.name, a:method)
  else
    throw printf('[vigor] %s.%s: the plugin is not loaded (it was unloaded); load it with vigor#plugin#load() or vigor#plugin#reload()',
          \ a:p.name, a:method)
  endif
endfunction
