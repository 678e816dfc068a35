" Process supervision: a plugin's process from its start to its exit. It
" starts the process (with the environment that the SDK reads), watches its
" stderr, its exit and its channel, stops it (the unload's message, the kill
" after the budget), and counts its crashes. What each event means for the
" plugin's state is plugin.vim's: this file tells it through
" plugin#fail(), plugin#unloaded(), plugin#restarting() and
" plugin#restart(), and never sets 'state' itself.
"
" The fields of the registry entry (plugin.vim) that this file owns, and
" only it writes: 'handle' (transport's handle, v:null without a process;
" it adds 'ended' and 'closed' to it), 'instance' (which process callbacks
" belong to: each start takes a new one), 'timer' (the one timer of the
" process, -1 for none: start, unload, kill or restart), 'gone' (why a
" loaded process is being stopped after its channel closed, '' else),
" 'spawned', 'crashes', 'restarts'; 'bin' is written by plugin.vim.

" Keep s:PROTOCOL equal to protocol.Version in internal/protocol/protocol.go
" (a test checks).
let s:PROTOCOL = 3
" An unloading plugin has g:vigor#unload_timeout milliseconds for all of
" its unload, and it is killed this much later (protocol.UnloadGrace; a
" test checks).
let s:UNLOAD_GRACE = 500
let s:T = has('nvim') ? 'nvim' : 'vim'
let s:PLATFORM = has('win32') ? 'windows' : has('mac') ? 'mac' : 'linux'
let s:instance = 0
" 1 once the editor quits: exits and closed channels are no crashes then.
let s:exiting = 0

function! vigor#_internal#process#protocol() abort
  return s:PROTOCOL
endfunction

" At VimLeavePre (plugin/vigor.vim).
function! vigor#_internal#process#exiting() abort
  let s:exiting = 1
endfunction

function! s:quitting() abort
  return s:exiting || v:exiting isnot v:null || v:dying
endfunction

" Whether the editor quits: no process starts then (plugin.vim).
function! vigor#_internal#process#quitting() abort
  return s:quitting()
endfunction

" The unload's budget in ms (a Number, from a Number, Float or String
" option): the plugin keeps to it; the kill is for one that does not.
function! vigor#_internal#process#budget() abort
  return max([float2nr(vigor#_internal#conf#get('unload_timeout') * 1.0), 0])
endfunction

" Starts a process of p from p.bin. Returns '' or why it cannot start.
function! vigor#_internal#process#start(p) abort
  return s:spawn(a:p)
endfunction

function! s:spawn(p) abort
  let s:instance += 1
  let a:p.instance = s:instance
  let a:p.spawned = reltime()
  call vigor#_internal#stderr#begin(a:p)
  let l:env = {
        \ 'VIGOR_PLUGIN': a:p.name,
        \ 'VIGOR_PROTOCOL': string(s:PROTOCOL),
        \ 'VIGOR_INSTANCE': string(a:p.instance),
        \ 'VIGOR_HOST': vigor#_internal#transport#{s:T}#name(),
        \ 'VIGOR_EDITOR_VERSION': vigor#_internal#transport#{s:T}#version(),
        \ 'VIGOR_PLATFORM': s:PLATFORM,
        \ 'VIGOR_MODE': vigor#_internal#conf#mode(),
        \ 'VIGOR_LOG': a:p.log,
        \ 'VIGOR_DIR': a:p.dir,
        \ 'VIGOR_VIM_CALLS': vigor#_internal#conf#vim_calls(),
        \ 'VIGOR_TRACE': vigor#_internal#conf#traced(a:p.name) ? "1" : "",
        \}
  let l:callbacks = {
        \ 'stderr': function('s:on_stderr', [a:p.name, a:p.instance]),
        \ 'exit': function('s:on_exit', [a:p.name, a:p.instance]),
        \ 'closed': function('vigor#_internal#process#on_closed', [a:p.name, a:p.instance]),
        \}
  try
    let a:p.handle = vigor#_internal#transport#{s:T}#start([a:p.bin], l:env, l:callbacks)
  catch
    return v:exception
  endtry
  let a:p.timer = timer_start(vigor#_internal#conf#get('start_timeout'),
        \ function('s:on_start_timeout', [a:p.name, a:p.instance]))
  return ''
endfunction

" The registry entry of name while its process is instance, or {}.
function! vigor#_internal#process#current(name, instance) abort
  let l:p = vigor#_internal#plugin#get(a:name)
  if empty(l:p) || l:p.instance != a:instance
    return {}
  endif
  return l:p
endfunction

function! s:on_start_timeout(name, instance, _timer) abort
  let l:p = vigor#_internal#process#current(a:name, a:instance)
  if empty(l:p) || l:p.state !=# 'starting'
    return
  endif
  let l:p.timer = -1
  call vigor#_internal#plugin#fail(l:p, printf('did not finish starting within %d ms (g:vigor#start_timeout); its log: %s',
        \ vigor#_internal#conf#get('start_timeout'), l:p.log))
endfunction

function! vigor#_internal#process#stop_timer(p) abort
  if a:p.timer != -1
    call timer_stop(a:p.timer)
    let a:p.timer = -1
  endif
endfunction

" Ends p's process at once, if it has one (its exit, if it comes, finds
" no handle), and its timer.
function! vigor#_internal#process#kill(p) abort
  call vigor#_internal#process#stop_timer(a:p)
  if a:p.handle isnot v:null
    call vigor#_internal#transport#{s:T}#stop(a:p.handle, 1)
    let a:p.handle = v:null
  endif
endfunction

" Asks p's process to unload ($unload with the budget), and kills it if it
" has not exited s:UNLOAD_GRACE ms after the budget.
function! vigor#_internal#process#unload(p) abort
  let l:budget = vigor#_internal#process#budget()
  try
    call vigor#_internal#transport#{s:T}#notify(a:p.handle, '$unload', [l:budget])
  catch
  endtry
  let a:p.timer = timer_start(l:budget + s:UNLOAD_GRACE,
        \ function('s:on_unload_timeout', [a:p.name, a:p.instance, l:budget]))
endfunction

function! s:on_unload_timeout(name, instance, budget, _timer) abort
  let l:p = vigor#_internal#process#current(a:name, a:instance)
  if empty(l:p) || l:p.state !=# 'unloading'
    return
  endif
  let l:p.timer = -1
  let l:p.unload_error = printf('it did not exit within %d ms (g:vigor#unload_timeout), so it was killed',
        \ a:budget)
  if l:p.handle isnot v:null
    call vigor#_internal#transport#{s:T}#stop(l:p.handle, 1)
  endif
endfunction

" The lines of the process's stderr (stderr.vim keeps them). The SDK says
" that its channel ended, and who closed it: it is gone now, although its
" process may still run for a while (or hang).
function! s:on_stderr(name, instance, lines) abort
  let l:p = vigor#_internal#process#current(a:name, a:instance)
  if empty(l:p)
    return
  endif
  let l:why = vigor#_internal#stderr#on_lines(l:p, a:lines)
  if !empty(l:why) && l:p.state ==# 'loaded' && l:p.handle isnot v:null && !has_key(l:p.handle, 'closed')
    call s:gone(l:p, l:why[0], l:why[1])
  endif
endfunction

" The handle's process is done: the waits of vigor#request() calls to it
" end, and say {why} (unless they were told already, or {force}).
function! s:ended(handle, why, force) abort
  if a:force || !has_key(a:handle, 'ended')
    let a:handle.ended = a:why
  endif
  let a:handle.closed = 1
  if has('nvim')
    " The wait of vigor#request() (lua/vigor/_internal/request.lua) ends.
    call luaeval('require("vigor._internal.request").closed(_A)', get(a:handle, 'chan', -1))
  endif
endfunction

" {signal}: on Vim, the name of the signal that ended the process, or ''.
function! s:on_exit(name, instance, status, ...) abort
  let l:p = vigor#_internal#process#current(a:name, a:instance)
  if empty(l:p)
    return
  endif
  let l:signal = a:0 ? a:1 : ''
  let l:ended = vigor#_internal#stderr#ended(a:status, l:signal)
  let l:gone = l:p.gone
  let l:p.gone = ''
  " A channel that ended while the runtime did not stop the process: the
  " SDK said who closed it. (Usually on_stderr() has seen that line
  " already, and made it gone.)
  let l:call = ''
  if empty(l:gone) && l:p.state ==# 'loaded'
    let l:why = vigor#_internal#stderr#closed_line(l:p)
    if !empty(l:why)
      let [l:gone, l:call] = l:why
    endif
  endif
  if l:p.handle isnot v:null
    if empty(l:call)
      let l:call = !empty(l:signal) || l:ended !~# '^exited'
            \ ? 'the plugin process ' . l:ended . ' during the call'
            \ : printf('the plugin process exited during the call (status %d)', a:status)
    endif
    call s:ended(l:p.handle, l:call, 0)
  endif
  let l:p.handle = v:null
  if !empty(l:p.inflight)
    call vigor#_internal#outbox#fail_inflight(l:p, !empty(l:gone) ? 'the plugin process ' . l:gone . ' before it answered'
          \ : l:ended =~# '^exited' ? printf('the plugin process exited (status %d) before it answered', a:status)
          \ : 'the plugin process ' . l:ended . ' before it answered')
  endif
  if l:p.state ==# 'unloading'
    call vigor#_internal#plugin#unloaded(l:p)
    return
  endif
  if index(['starting', 'loaded'], l:p.state) < 0 || s:quitting()
    return
  endif
  if !empty(l:gone)
    " Gone after its channel closed (for a process that kept running, the
    " kill is no longer needed).
    call vigor#_internal#process#stop_timer(l:p)
    call s:crashed(l:p, 'the process ' . l:gone)
  elseif l:p.state ==# 'starting'
    " It never got going: a load failure, not a crash. Its last stderr
    " lines may still be on their way.
    let l:p.timer = timer_start(50, function('s:fail_exited', [a:name, a:instance, l:ended]))
  else
    call s:crashed(l:p, printf('the process %s%s', l:ended, vigor#_internal#stderr#hint(l:p)))
  endif
endfunction

function! s:fail_exited(name, instance, ended, _timer) abort
  let l:p = vigor#_internal#process#current(a:name, a:instance)
  if empty(l:p) || l:p.state !=# 'starting'
    return
  endif
  let l:p.timer = -1
  call vigor#_internal#plugin#fail(l:p, printf('the process %s%s; its log: %s', a:ended,
        \ vigor#_internal#stderr#hint(l:p), l:p.log))
endfunction

" A crash after it was loaded ({why}): restart, unless it keeps crashing.
function! s:crashed(p, why) abort
  let l:now = reltimefloat(reltime()) * 1000
  let l:interval = vigor#_internal#conf#get('restart_interval')
  " (An expression, not a closure: this runs in a job's exit callback.)
  call filter(a:p.crashes, printf('%.3f - v:val < %.3f', l:now, l:interval * 1.0))
  call add(a:p.crashes, l:now)
  let l:threshold = vigor#_internal#conf#get('restart_threshold')
  if len(a:p.crashes) > l:threshold
    call vigor#_internal#plugin#fail(a:p, printf('%s, %d times within %d ms, so it is not restarted; fix it and :Vigor reload %s. Its log: %s',
          \ a:why, len(a:p.crashes), l:interval, a:p.name, a:p.log))
    return
  endif
  call vigor#_internal#echo#warn(printf('%s: %s; restarting (%d of %d)', a:p.name, a:why, len(a:p.crashes), l:threshold))
  call vigor#_internal#plugin#restarting(a:p)
  let a:p.timer = timer_start(vigor#_internal#conf#get('restart_delay'),
        \ function('s:restart', [a:p.name, a:p.instance]))
endfunction

function! s:restart(name, instance, _timer) abort
  let l:p = vigor#_internal#process#current(a:name, a:instance)
  if empty(l:p) || l:p.state !=# 'starting'
    return
  endif
  let l:p.timer = -1
  let l:p.restarts += 1
  call vigor#_internal#plugin#restart(l:p)
endfunction

" The channel of a process has closed: on Vim, its close_cb, or a
" vigor#request() that saw it; on Neovim, a request that found the
" channel gone ({seen} is 1; Neovim gives no callback). A process that
" exits closes it too, just before its exit; one that still runs a moment
" later closed it (or, on Neovim, Neovim did) and kept running. It can
" take no call and is gone for the runtime (s:gone).
function! vigor#_internal#process#on_closed(name, instance, ...) abort
  if has('nvim') && !a:0 || s:quitting()
    return
  endif
  let l:p = vigor#_internal#process#current(a:name, a:instance)
  if empty(l:p) || l:p.state !=# 'loaded' || l:p.handle is v:null || has_key(l:p.handle, 'closed')
    return
  endif
  let l:h = l:p.handle
  for l:i in range(10)
    if !vigor#_internal#transport#{s:T}#running(l:h)
      return
    endif
    sleep 10m
  endfor
  if l:p.handle isnot l:h || has_key(l:h, 'closed') || l:p.state !=# 'loaded'
    return
  endif
  if has('nvim')
    call s:gone(l:p, 'lost its channel but kept running, so it was stopped',
          \ 'the plugin''s channel closed during the call but the process kept running; it is stopped and restarted')
  else
    call s:gone(l:p, 'closed its channel but kept running, so it was stopped',
          \ 'the plugin process closed its channel during the call but kept running; it is stopped and restarted')
  endif
  " No answer can come any more: the request_async calls under way fail
  " now, as the waiting vigor#request() does, not when the process has
  " been stopped.
  if !empty(l:p.inflight)
    call vigor#_internal#outbox#fail_inflight(l:p, l:h.ended)
  endif
endfunction

" Vim only: the plugin said that it had answered the request {id} (of
" {method}: a vigor#request() token, or a request_async success id), and
" the answer never came: Vim dropped it with input of the channel that
" was not JSON (transport#vim#probe()). The channel cannot be trusted any
" more: the plugin is gone (s:gone).
function! vigor#_internal#process#on_lost(name, instance, method, id) abort
  let l:p = vigor#_internal#process#current(a:name, a:instance)
  if empty(l:p) || l:p.state !=# 'loaded' || l:p.handle is v:null || has_key(l:p.handle, 'closed')
    return
  endif
  call vigor#_internal#stderr#log(l:p, [printf('the answer to %s (request %s) was lost: Vim dropped input of the channel that was not JSON; restarting the plugin',
        \ a:method, a:id)])
  call s:gone(l:p, 'sent something that Vim could not read (not JSON), and Vim dropped it with a reply',
        \ 'the reply was lost: the plugin sent something that Vim could not read (not JSON) on its channel, and Vim dropped it with the reply; it is restarted, so call again')
endfunction

" A loaded plugin whose channel has closed is gone for the runtime: the
" waits for it end ({call} says why), it is stopped (the unload, then the
" kill after the budget, as for any unload) and restarted when it has
" exited, as after a crash ({crash} for the warning); calls meanwhile wait
" for the restart.
function! s:gone(p, crash, call) abort
  if s:quitting()
    return
  endif
  let l:h = a:p.handle
  let a:p.gone = a:crash
  call s:ended(l:h, a:call, 1)
  call vigor#_internal#echo#debug(printf('%s: its channel closed; stopping it', a:p.name))
  call vigor#_internal#plugin#restarting(a:p)
  let l:budget = vigor#_internal#process#budget()
  try
    call vigor#_internal#transport#{s:T}#notify(l:h, '$unload', [l:budget])
  catch
  endtry
  call vigor#_internal#transport#{s:T}#stop(l:h, 0)
  let a:p.timer = timer_start(l:budget + s:UNLOAD_GRACE, function('s:kill_gone', [a:p.name, a:p.instance]))
endfunction

function! s:kill_gone(name, instance, _timer) abort
  let l:p = vigor#_internal#process#current(a:name, a:instance)
  if empty(l:p) || empty(l:p.gone) || l:p.handle is v:null
    return
  endif
  let l:p.timer = -1
  call vigor#_internal#transport#{s:T}#stop(l:p.handle, 1)
endfunction

" The handler of {method}, and {others} more, of p still run {ms} ms after
" an interrupt cancelled their context (protocol.FuncStuck). Go cannot stop
" them, and each keeps a CPU busy or holds what it holds, one more at
" every interrupt: one line says that the plugin is restarted to stop them.
function! vigor#_internal#process#stuck(p, method, others, ms) abort
  if a:others > 0
    let l:what = printf('%s.%s and %d more ignored their interrupt for %d ms; restarting %s to stop them',
          \ a:p.name, a:method, a:others, a:ms, a:p.name)
  else
    let l:what = printf('%s.%s ignored its interrupt for %d ms; restarting %s to stop it', a:p.name, a:method, a:ms, a:p.name)
  endif
  call vigor#_internal#stderr#log(a:p, [l:what . ' (a handler that does not return when its context ends runs until its process exits; the budget is g:vigor#unload_timeout)'])
  call vigor#_internal#echo#warn(l:what)
endfunction
