" The plugin registry and its state machine.
"
"   reserved  -> building  -> starting -> loaded -> unloading -> stopped
"   (waiting      (vigor       (process      |                    |
"    for the       build)       started,      +-> starting        +-> reserved -> building
"    runtime)                   no ready)         (restart after       (reload, or a later
"                                                  a crash; building    load())
"                                                  if its program is gone)
"   any loading state -> failed -> reserved (load() or reload() tries again)
"
" A loaded process whose channel closes while it keeps running is gone for
" the runtime (s:gone): it goes from loaded to starting at once, is
" stopped within the unload budget, and restarted when it has exited, as
" after a crash.
"
" 'reserved' means known but waiting for the runtime (the vigor command) to
" be ready. Keep s:PROTOCOL equal to protocol.Version in
" internal/protocol/protocol.go (a test checks).
let s:PROTOCOL = 2
" An unloading plugin has g:vigor#unload_timeout milliseconds for all of
" its unload, and it is killed this much later (protocol.UnloadGrace; a
" test checks).
let s:UNLOAD_GRACE = 500
let s:NAME = '^[-_0-9a-zA-Z]\+$'
let s:LOADING = ['reserved', 'building', 'starting']
" What the SDK writes to stderr when its channel ends before an unload
" began (protocol.ClosedByEditor, protocol.ClosedByPlugin; a test checks).
let s:CLOSED_BY_EDITOR = 'vigor: the editor closed the channel'
let s:CLOSED_BY_PLUGIN = 'vigor: the plugin closed its channel'
" Neovim reports a process that a signal ended as 128 + its number; the
" numbers that Linux and macOS share.
let s:SIGNALS = {1: 'HUP', 2: 'INT', 3: 'QUIT', 4: 'ILL', 5: 'TRAP', 6: 'ABRT', 8: 'FPE',
      \ 9: 'KILL', 11: 'SEGV', 13: 'PIPE', 14: 'ALRM', 15: 'TERM'}
" How much of the end of a plugin's log a failure message looks at, and
" the line after which the SDK writes its stderr to the log itself (keep it
" equal to protocol.StderrInLog; a test checks).
let s:TAIL = 16384
let s:STDERR_IN_LOG = 'vigor: the rest of stderr is in the log'

let s:plugins = {}
let s:instance = 0
let s:exiting = 0
let s:early_waiters = {}
let s:async_owner = {}

function! vigor#_internal#plugin#valid_name(name) abort
  return type(a:name) == v:t_string && a:name =~# s:NAME
endfunction

function! vigor#_internal#plugin#check_name(name) abort
  let l:err = vigor#_internal#plugin#name_error(a:name)
  if !empty(l:err)
    throw l:err
  endif
endfunction

" The error for an invalid plugin name, or ''. The public functions throw
" it themselves, so that "Error detected while processing" names them
" alone.
function! vigor#_internal#plugin#name_error(name) abort
  if type(a:name) != v:t_string
    return '[vigor] a plugin name must be a String, not ' . vigor#_internal#value#article(a:name)
  elseif a:name !~# s:NAME
    return printf('[vigor] invalid plugin name %s: a name is letters, digits, - and _', string(a:name))
  endif
  return ''
endfunction

" Returns the registry entry of name, or {}. Here and in all() and state(),
" the registry is filled first if the runtime has not started yet after
" VimEnter (bootstrap#defer()): something asks for a plugin before the
" timer that starts it.
function! vigor#_internal#plugin#get(name) abort
  call vigor#_internal#bootstrap#start()
  return get(s:plugins, a:name, {})
endfunction

function! vigor#_internal#plugin#all() abort
  call vigor#_internal#bootstrap#start()
  return s:plugins
endfunction

function! vigor#_internal#plugin#state(name) abort
  call vigor#_internal#bootstrap#start()
  return get(get(s:plugins, a:name, {}), 'state', '')
endfunction

" 1 if the plugin will be loaded soon: it is loading, or being reloaded.
function! vigor#_internal#plugin#is_coming(p) abort
  return index(s:LOADING, a:p.state) >= 0 || (a:p.state ==# 'unloading' && a:p.pending ==# 'reload')
endfunction

function! s:new(name, dir) abort
  let l:p = {
        \ 'name': a:name,
        \ 'dir': a:dir,
        \ 'state': 'stopped',
        \ 'handle': v:null,
        \ 'instance': 0,
        \ 'queue': [],
        \ 'inflight': {},
        \ 'waiters': get(s:early_waiters, a:name, []),
        \ 'crashes': [],
        \ 'pending': '',
        \ 'error': '',
        \ 'bin': '',
        \ 'stderr': [],
        \ 'err_in_log': 0,
        \ 'log_start': 0,
        \ 'unload_error': v:null,
        \ 'timer': -1,
        \ 'ready': 0,
        \ 'gone': '',
        \ 'log': vigor#_internal#conf#log_file(a:name),
        \ 'build': '',
        \ 'build_ms': -1,
        \ 'load_ms': -1,
        \ 'restarts': 0,
        \ 'spawned': [],
        \ 'bad_lazy': 0,
        \}
  let s:plugins[a:name] = l:p
  if has_key(s:early_waiters, a:name)
    unlet s:early_waiters[a:name]
  endif
  return l:p
endfunction

" load: stopped or failed (or unknown) -> reserved -> building.
function! vigor#_internal#plugin#load(name, dir) abort
  let l:p = get(s:plugins, a:name, {})
  if empty(l:p)
    let l:p = s:new(a:name, a:dir)
  elseif l:p.state ==# 'lazy'
    call vigor#_internal#lazy#unstub(a:name)
  elseif index(['stopped', 'failed'], l:p.state) < 0
    call vigor#_internal#echo#debug(printf('%s is %s; load() does nothing', a:name, l:p.state))
    return
  elseif l:p.bad_lazy
    " Its lazy.json was wrong: it may have been fixed, or removed.
    let l:p.bad_lazy = 0
    if vigor#_internal#lazy#setup(a:name, a:dir)
      return
    endif
  endif
  let l:p.dir = a:dir
  " The log is in the cache that is set now (g:vigor#cache_dir may have
  " changed since the last load).
  let l:p.log = vigor#_internal#conf#log_file(a:name)
  let l:p.state = 'reserved'
  let l:p.error = ''
  let l:p.pending = ''
  let l:p.crashes = []
  if vigor#_internal#bootstrap#is_ready()
    call s:begin(l:p)
  elseif vigor#_internal#bootstrap#state() ==# 'failed'
    call vigor#_internal#bootstrap#retry()
  endif
endfunction

" Starts every plugin that waited for the runtime.
function! vigor#_internal#plugin#flush_reserved() abort
  for l:p in values(s:plugins)
    if l:p.state ==# 'reserved'
      call s:begin(l:p)
    endif
  endfor
endfunction

" The runtime could not start: every waiting plugin fails, without a
" message of its own (the runtime has shown the reason once).
function! vigor#_internal#plugin#fail_reserved(msg) abort
  for l:p in values(s:plugins)
    if l:p.state ==# 'reserved'
      call s:fail(l:p, a:msg, 1)
    endif
  endfor
endfunction

function! s:begin(p) abort
  let a:p.state = 'building'
  call vigor#_internal#event#emit('VigorPluginPre:' . a:p.name)
  if a:p.state ==# 'building'
    call vigor#_internal#build#queue(a:p.name, a:p.dir, get(a:p, 'force', 0))
    let a:p.force = 0
  endif
endfunction

" Called by the build: the binary is ready.
function! vigor#_internal#plugin#on_built(name, bin) abort
  let l:p = get(s:plugins, a:name, {})
  if empty(l:p) || l:p.state !=# 'building'
    return
  endif
  let l:p.bin = a:bin
  call s:spawn(l:p)
endfunction

function! vigor#_internal#plugin#on_build_failed(name, msg) abort
  let l:p = get(s:plugins, a:name, {})
  if empty(l:p) || l:p.state !=# 'building'
    return
  endif
  call s:fail(l:p, a:msg)
endfunction

function! s:spawn(p) abort
  let s:instance += 1
  let a:p.instance = s:instance
  let a:p.state = 'starting'
  let a:p.ready = 0
  let a:p.stderr = []
  let a:p.spawned = reltime()
  let a:p.err_in_log = 0
  let a:p.log_start = max([getfsize(a:p.log), 0])
  let l:env = {
        \ 'VIGOR_PLUGIN': a:p.name,
        \ 'VIGOR_PROTOCOL': string(s:PROTOCOL),
        \ 'VIGOR_INSTANCE': string(a:p.instance),
        \ 'VIGOR_HOST': vigor#_internal#host#name(),
        \ 'VIGOR_EDITOR_VERSION': vigor#_internal#host#version(),
        \ 'VIGOR_PLATFORM': vigor#_internal#host#platform(),
        \ 'VIGOR_MODE': vigor#_internal#conf#mode(),
        \ 'VIGOR_LOG': a:p.log,
        \ 'VIGOR_DIR': a:p.dir,
        \ 'VIGOR_VIM_CALLS': vigor#_internal#conf#vim_calls(),
        \ 'VIGOR_TRACE': vigor#_internal#conf#traced(a:p.name) ? "1" : "",
        \}
  let l:callbacks = {
        \ 'stderr': function('s:on_stderr', [a:p.name, a:p.instance]),
        \ 'exit': function('s:on_exit', [a:p.name, a:p.instance]),
        \ 'closed': function('vigor#_internal#plugin#on_closed', [a:p.name, a:p.instance]),
        \}
  try
    let a:p.handle = vigor#_internal#host#start([a:p.bin], l:env, l:callbacks)
  catch
    call s:fail(a:p, printf('%s (rebuild with :Vigor reload %s)', v:exception, a:p.name))
    return
  endtry
  let a:p.timer = timer_start(vigor#_internal#conf#get('start_timeout'),
        \ function('s:on_start_timeout', [a:p.name, a:p.instance]))
endfunction

function! s:current(name, instance) abort
  let l:p = get(s:plugins, a:name, {})
  if empty(l:p) || l:p.instance != a:instance
    return {}
  endif
  return l:p
endfunction

function! s:on_start_timeout(name, instance, _timer) abort
  let l:p = s:current(a:name, a:instance)
  if empty(l:p) || l:p.state !=# 'starting'
    return
  endif
  let l:p.timer = -1
  call s:fail(l:p, printf('did not finish starting within %d ms (g:vigor#start_timeout); its log: %s',
        \ vigor#_internal#conf#get('start_timeout'), l:p.log))
endfunction

" Called by the plugin (SDK) when its setup returned.
function! vigor#_internal#plugin#on_ready(name, instance, info) abort
  let l:p = s:current(a:name, str2nr(a:instance))
  if empty(l:p) || l:p.state !=# 'starting'
    return
  endif
  call s:stop_timer(l:p)
  let l:proto = get(a:info, 'protocol', 0)
  if l:proto != s:PROTOCOL
    call s:fail(l:p, printf('it speaks protocol %s but this Vigor speaks %d: it was not built with this Vigor''s SDK; update the plugin or Vigor',
          \ l:proto, s:PROTOCOL))
    return
  endif
  let l:p.state = 'loaded'
  let l:p.ready = 1
  let l:p.info = a:info
  let l:p.load_ms = float2nr(reltimefloat(reltime(l:p.spawned)) * 1000)
  let l:queue = l:p.queue
  let l:p.queue = []
  for l:msg in l:queue
    call s:send(l:p, l:msg)
  endfor
  let l:waiters = l:p.waiters
  let l:p.waiters = []
  for l:Cb in l:waiters
    try
      call l:Cb()
    catch
      call vigor#_internal#echo#error(printf('a wait_async callback of %s failed: %s', a:name, v:exception))
    endtry
  endfor
  call vigor#_internal#event#emit('VigorPluginPost:' . a:name)
  call vigor#_internal#summary#settled()
  if l:p.state ==# 'loaded' && !empty(l:p.pending)
    " An unload or reload came while it was loading: it starts only now,
    " after VigorPluginPost (Pre, Post, UnloadPre, UnloadPost).
    if l:p.pending ==# 'unload'
      let l:p.pending = ''
    endif
    call s:unload(l:p)
  endif
endfunction

" Called by the plugin (SDK) when its setup failed; it exits next.
function! vigor#_internal#plugin#on_failed(name, instance, msg) abort
  let l:p = s:current(a:name, str2nr(a:instance))
  if empty(l:p) || l:p.state !=# 'starting'
    return
  endif
  call s:fail(l:p, 'failed to load: ' . a:msg)
endfunction

" Called by the plugin (SDK) after its unload hooks ran.
function! vigor#_internal#plugin#on_unloaded(name, instance, err) abort
  let l:p = s:current(a:name, str2nr(a:instance))
  if !empty(l:p)
    let l:p.unload_error = a:err
  endif
endfunction

" {...}: 1 to fail without a message.
function! s:fail(p, msg, ...) abort
  call s:stop_timer(a:p)
  let a:p.state = 'failed'
  let a:p.error = a:msg
  let a:p.pending = ''
  let a:p.waiters = []
  if a:p.handle isnot v:null
    call vigor#_internal#host#stop(a:p.handle, 1)
    let a:p.handle = v:null
  endif
  let l:queue = a:p.queue
  let a:p.queue = []
  if !get(a:, 1, 0)
    call vigor#_internal#echo#error(printf('%s: %s', a:p.name, a:msg))
  endif
  call s:log(a:p, ['load failed: ' . a:msg])
  for l:msg in l:queue
    if l:msg[0] ==# 'async'
      call vigor#_internal#callback#resolve(l:msg[1], l:msg[2], v:false,
            \ s:error_object(a:p.name, l:msg[3], 'the plugin failed to load: ' . a:msg))
    endif
  endfor
  call vigor#_internal#event#emit('VigorPluginFail:' . a:p.name)
  call vigor#_internal#summary#settled()
endfunction

function! s:stop_timer(p) abort
  if a:p.timer != -1
    call timer_stop(a:p.timer)
    let a:p.timer = -1
  endif
endfunction

" The lines of the process's stderr pipe. An SDK plugin writes its stderr
" to the log itself once it has sent s:STDERR_IN_LOG (stderrToLog in the
" SDK); what comes before is copied here line by line (a few lines, and
" all of a program that is not a Vigor plugin); what comes after it
" is Go's report of a fatal panic or error (also in the log) and the SDK's
" lines saying who closed the channel (protocol.ClosedByEditor). The last
" lines are kept for the failure message.
function! s:on_stderr(name, instance, lines) abort
  let l:p = s:current(a:name, a:instance)
  if empty(l:p)
    return
  endif
  let l:lines = a:lines
  if !l:p.err_in_log
    let l:i = index(l:lines, s:STDERR_IN_LOG)
    if l:i >= 0
      let l:p.err_in_log = 1
      if l:i > 0
        call s:log(l:p, map(l:lines[: l:i - 1], '"stderr: " . v:val'))
      endif
      let l:lines = l:lines[l:i + 1 :]
    else
      call s:log(l:p, map(copy(l:lines), '"stderr: " . v:val'))
    endif
  endif
  let l:p.stderr += l:lines
  if len(l:p.stderr) > 30
    call remove(l:p.stderr, 0, len(l:p.stderr) - 31)
  endif
  " The SDK says that its channel ended, and who closed it: it is gone
  " now, although its process may still run for a while (or hang).
  if (index(l:lines, s:CLOSED_BY_PLUGIN) >= 0 || index(l:lines, s:CLOSED_BY_EDITOR) >= 0)
        \ && l:p.state ==# 'loaded' && l:p.ready && l:p.handle isnot v:null && !has_key(l:p.handle, 'closed')
    let l:why = s:closed_why(index(l:lines, s:CLOSED_BY_PLUGIN) >= 0 ? s:CLOSED_BY_PLUGIN : s:CLOSED_BY_EDITOR)
    call s:gone(l:p, l:why[0], l:why[1])
  endif
endfunction

function! s:log(p, lines) abort
  try
    call vigor#_internal#file#log(a:p.log, a:lines)
  catch
  endtry
endfunction

" How a process ended, for messages: "exited with status 3", "was killed by
" signal KILL". {signal} is Vim's name of the signal, or ''.
function! s:ended(status, signal) abort
  if !empty(a:signal)
    return 'was killed by signal ' . toupper(a:signal)
  elseif has('nvim') && has_key(s:SIGNALS, a:status - 128)
    return printf('was killed by signal %s (status %d)', s:SIGNALS[a:status - 128], a:status)
  endif
  return printf('exited with status %d', a:status)
endfunction

" {signal}: on Vim, the name of the signal that ended the process, or ''.
function! s:on_exit(name, instance, status, ...) abort
  let l:p = s:current(a:name, a:instance)
  if empty(l:p)
    return
  endif
  let l:ended = s:ended(a:status, a:0 ? a:1 : '')
  let l:gone = l:p.gone
  let l:p.gone = ''
  " A channel that ended while the runtime did not stop the process: the
  " SDK said who closed it.
  " (Usually on_stderr() has seen that line already, and made it gone.)
  let l:call = ''
  if empty(l:gone) && l:p.state !=# 'unloading' && l:p.ready
    for l:line in [s:CLOSED_BY_PLUGIN, s:CLOSED_BY_EDITOR]
      if index(l:p.stderr, l:line) >= 0
        let [l:gone, l:call] = s:closed_why(l:line)
        break
      endif
    endfor
  endif
  if l:p.handle isnot v:null
    " Ends the waits of vigor#request() calls to this process, and tells
    " them why.
    if empty(l:call)
      let l:call = a:0 && !empty(a:1) || l:ended !~# '^exited'
            \ ? 'the plugin process ' . l:ended . ' during the call'
            \ : printf('the plugin process exited during the call (status %d)', a:status)
    endif
    let l:p.handle.ended = get(l:p.handle, 'ended', l:call)
    call vigor#_internal#host#closed(l:p.handle)
  endif
  let l:p.handle = v:null
  if !empty(l:p.inflight)
    call s:fail_inflight(l:p, !empty(l:gone) ? 'the plugin process ' . l:gone . ' before it answered'
          \ : l:ended =~# '^exited' ? printf('the plugin process exited (status %d) before it answered', a:status)
          \ : 'the plugin process ' . l:ended . ' before it answered')
  endif
  if l:p.state ==# 'unloading'
    call s:finish_unload(l:p)
    return
  endif
  if index(['starting', 'loaded'], l:p.state) < 0 || s:exiting || v:exiting isnot v:null || v:dying
    return
  endif
  if !empty(l:gone)
    " Gone after its channel closed (for a process that kept running, the
    " kill is no longer needed).
    call s:stop_timer(l:p)
    let l:why = 'the process ' . l:gone
  elseif !l:p.ready
    " It never got going: a load failure, not a crash. Its last stderr
    " lines may still be on their way.
    let l:p.timer = timer_start(50, function('s:fail_exited', [a:name, a:instance, l:ended]))
    return
  else
    let l:why = printf('the process %s%s', l:ended, s:stderr_hint(l:p))
  endif
  " A crash after it was loaded: restart, unless it keeps crashing.
  let l:now = reltimefloat(reltime()) * 1000
  let l:interval = vigor#_internal#conf#get('restart_interval')
  " (An expression, not a closure: this runs in a job's exit callback.)
  call filter(l:p.crashes, printf('%.3f - v:val < %.3f', l:now, l:interval * 1.0))
  call add(l:p.crashes, l:now)
  let l:threshold = vigor#_internal#conf#get('restart_threshold')
  if len(l:p.crashes) > l:threshold
    call s:fail(l:p, printf('%s, %d times within %d ms, so it is not restarted; fix it and :Vigor reload %s. Its log: %s',
          \ l:why, len(l:p.crashes), l:interval, a:name, l:p.log))
    return
  endif
  call vigor#_internal#echo#warn(printf('%s: %s; restarting (%d of %d)', a:name, l:why, len(l:p.crashes), l:threshold))
  let l:p.state = 'starting'
  let l:p.ready = 0
  let l:p.timer = timer_start(vigor#_internal#conf#get('restart_delay'),
        \ function('s:restart', [a:name, a:instance]))
endfunction

function! s:fail_exited(name, instance, ended, _timer) abort
  let l:p = s:current(a:name, a:instance)
  if empty(l:p) || l:p.state !=# 'starting'
    return
  endif
  let l:p.timer = -1
  call s:fail(l:p, printf('the process %s%s; its log: %s', a:ended, s:stderr_hint(l:p), l:p.log))
endfunction

" The channel of a process has closed: on Vim, its close_cb, or a
" vigor#request() that saw it; on Neovim, a request that found the
" channel gone ({seen} is 1; Neovim gives no callback). A process that
" exits closes it too, just before its exit; one that still runs a moment
" later closed it (or, on Neovim, Neovim did) and kept running. It can
" take no call and is gone for the runtime (s:gone).
function! vigor#_internal#plugin#on_closed(name, instance, ...) abort
  if has('nvim') && !a:0 || s:exiting || v:exiting isnot v:null || v:dying
    return
  endif
  let l:p = s:current(a:name, a:instance)
  if empty(l:p) || l:p.state !=# 'loaded' || l:p.handle is v:null || has_key(l:p.handle, 'closed')
    return
  endif
  let l:h = l:p.handle
  for l:i in range(10)
    if !vigor#_internal#host#running(l:h)
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
    call s:fail_inflight(l:p, l:h.ended)
  endif
endfunction

" Vim only: the plugin said that it had answered the request {id} (of
" {method}: a vigor#request() token, or a request_async success id), and
" the answer never came: Vim dropped it with input of the channel that
" was not JSON (vigor#_internal#request#probe()). The channel cannot be
" trusted any more: the plugin is gone (s:gone).
function! vigor#_internal#plugin#on_lost(name, instance, method, id) abort
  let l:p = s:current(a:name, a:instance)
  if empty(l:p) || l:p.state !=# 'loaded' || l:p.handle is v:null || has_key(l:p.handle, 'closed')
    return
  endif
  call s:log(l:p, [printf('the answer to %s (request %s) was lost: Vim dropped input of the channel that was not JSON; restarting the plugin',
        \ a:method, a:id)])
  call s:gone(l:p, 'sent something that Vim could not read (not JSON), and Vim dropped it with a reply',
        \ 'the reply was lost: the plugin sent something that Vim could not read (not JSON) on its channel, and Vim dropped it with the reply; it is restarted, so call again')
endfunction

" What the runtime tells about a plugin whose SDK wrote {line} (its
" channel ended, and it did not close it): [for the crash warning, for a
" call under way], or [] for another line.
function! s:closed_why(line) abort
  if a:line ==# s:CLOSED_BY_PLUGIN
    return ['closed its channel', 'the plugin process closed its channel during the call; it is restarted']
  elseif a:line ==# s:CLOSED_BY_EDITOR && has('nvim')
    return ['sent something that Neovim rejected (not msgpack-RPC, or a reply out of order), and Neovim closed its channel',
          \ 'Neovim closed the channel during the call: the plugin sent something that Neovim rejected (not msgpack-RPC, or a reply out of order); it is restarted']
  elseif a:line ==# s:CLOSED_BY_EDITOR
    return ['lost its channel', 'the plugin''s channel closed during the call; it is restarted']
  endif
  return []
endfunction

" A loaded plugin whose channel has closed is gone for the runtime: the
" waits for it end ({call} says why), it is stopped (the unload, then the
" kill after the budget, as for any unload) and restarted when it has
" exited, as after a crash ({crash} for the warning); calls meanwhile wait
" for the restart.
function! s:gone(p, crash, call) abort
  if s:exiting || v:exiting isnot v:null || v:dying
    return
  endif
  let l:h = a:p.handle
  let a:p.gone = a:crash
  let l:h.ended = a:call
  call vigor#_internal#host#closed(l:h)
  call vigor#_internal#echo#debug(printf('%s: its channel closed; stopping it', a:p.name))
  let a:p.state = 'starting'
  let a:p.ready = 0
  let l:budget = max([float2nr(vigor#_internal#conf#get('unload_timeout') * 1.0), 0])
  try
    call vigor#_internal#host#notify(l:h, '$unload', [l:budget])
  catch
  endtry
  call vigor#_internal#host#stop(l:h, 0)
  let a:p.timer = timer_start(l:budget + s:UNLOAD_GRACE, function('s:kill_gone', [a:p.name, a:p.instance]))
endfunction

function! s:kill_gone(name, instance, _timer) abort
  let l:p = s:current(a:name, a:instance)
  if empty(l:p) || empty(l:p.gone) || l:p.handle is v:null
    return
  endif
  let l:p.timer = -1
  call vigor#_internal#host#stop(l:p.handle, 1)
endfunction

function! s:restart(name, instance, _timer) abort
  let l:p = s:current(a:name, a:instance)
  if empty(l:p) || l:p.state !=# 'starting'
    return
  endif
  let l:p.timer = -1
  let l:p.restarts += 1
  if !executable(l:p.bin)
    " Gone from the cache: an editor that built a newer version of the
    " plugin removed the older builds. Build it again.
    call s:begin(l:p)
    return
  endif
  call vigor#_internal#event#emit('VigorPluginPre:' . a:name)
  if l:p.state ==# 'starting'
    call s:spawn(l:p)
  endif
endfunction

function! s:stderr_hint(p) abort
  let l:lines = a:p.stderr + (a:p.err_in_log ? s:log_output(a:p) : [])
  for l:line in l:lines
    if l:line =~# '^\%(panic\|fatal error\):'
      return ' (' . l:line . ')'
    endif
  endfor
  return empty(l:lines) ? '' : ' (' . l:lines[-1] . ')'
endfunction

" The last lines written to the log's end since the process started that
" are neither the SDK's records nor lines indented under them (a recovered
" panic's stack) nor copied by the runtime: what the plugin wrote to its
" stderr after stderrToLog. (The same plugin in another editor, sharing
" the log, may have written some of them.)
function! s:log_output(p) abort
  let l:size = getfsize(a:p.log)
  " A log smaller than at the start: the SDK moved a large one aside.
  let l:start = l:size < a:p.log_start ? 0 : a:p.log_start
  let l:from = max([l:start, l:size - s:TAIL])
  if l:size <= l:from
    return []
  endif
  try
    let l:bytes = filter(blob2list(readblob(a:p.log, l:from, l:size - l:from)), 'v:val != 0')
  catch
    return []
  endtry
  " list2str() makes each byte the character of that code point, and
  " iconv() turns each such character back into its byte.
  let l:text = list2str(l:bytes, 1)
  if has('iconv')
    let l:text = iconv(l:text, 'utf-8', 'latin1')
  endif
  let l:lines = split(l:text, "\n")
  if l:from > l:start && !empty(l:lines)
    " The first line began before the part read.
    call remove(l:lines, 0)
  endif
  return filter(l:lines, 'v:val !~# ''^\%(time=\S\+ level=\u\+ \|\s\|stderr: \)''')
endfunction

function! vigor#_internal#plugin#unload(name) abort
  let l:p = get(s:plugins, a:name, {})
  if empty(l:p)
    return
  endif
  if l:p.state ==# 'reserved'
    let l:p.state = 'stopped'
  elseif l:p.state ==# 'building' || l:p.state ==# 'starting'
    if empty(l:p.pending)
      let l:p.pending = 'unload'
    endif
  elseif l:p.state ==# 'loaded'
    call s:unload(l:p)
  endif
endfunction

function! vigor#_internal#plugin#reload(name) abort
  let l:p = get(s:plugins, a:name, {})
  if empty(l:p)
    return
  endif
  if l:p.state ==# 'loaded'
    let l:p.pending = 'reload'
    call s:unload(l:p)
  elseif index(['building', 'starting', 'unloading'], l:p.state) >= 0
    let l:p.pending = 'reload'
  elseif l:p.state ==# 'failed'
    call vigor#_internal#plugin#load(l:p.name, l:p.dir)
  endif
endfunction

function! s:unload(p) abort
  let a:p.state = 'unloading'
  let a:p.unload_error = v:null
  call vigor#_internal#event#emit('VigorPluginUnloadPre:' . a:p.name)
  if a:p.handle is v:null
    call s:finish_unload(a:p)
    return
  endif
  " The plugin keeps to the budget (a Number of milliseconds, from a
  " Number, Float or String option); the kill is for one that does not.
  let l:budget = max([float2nr(vigor#_internal#conf#get('unload_timeout') * 1.0), 0])
  try
    call vigor#_internal#host#notify(a:p.handle, '$unload', [l:budget])
  catch
  endtry
  let a:p.timer = timer_start(l:budget + s:UNLOAD_GRACE,
        \ function('s:on_unload_timeout', [a:p.name, a:p.instance, l:budget]))
endfunction

function! s:on_unload_timeout(name, instance, budget, _timer) abort
  let l:p = s:current(a:name, a:instance)
  if empty(l:p) || l:p.state !=# 'unloading'
    return
  endif
  let l:p.timer = -1
  let l:p.unload_error = printf('it did not exit within %d ms (g:vigor#unload_timeout), so it was killed',
        \ a:budget)
  if l:p.handle isnot v:null
    call vigor#_internal#host#stop(l:p.handle, 1)
  endif
endfunction

function! s:finish_unload(p) abort
  call s:stop_timer(a:p)
  let a:p.state = 'stopped'
  let a:p.ready = 0
  let a:p.handle = v:null
  if a:p.unload_error is v:null
    call vigor#_internal#event#emit('VigorPluginUnloadPost:' . a:p.name)
  else
    call vigor#_internal#echo#error(printf('%s: unload failed: %s', a:p.name, a:p.unload_error))
    call vigor#_internal#event#emit('VigorPluginUnloadFail:' . a:p.name)
  endif
  if a:p.pending ==# 'reload' && a:p.state ==# 'stopped'
    call vigor#_internal#plugin#load(a:p.name, a:p.dir)
  endif
endfunction

function! vigor#_internal#plugin#exiting() abort
  let s:exiting = 1
endfunction

" Sends or queues a message: ['notify', method, params] or
" ['async', success_id, failure_id, method, params].
function! vigor#_internal#plugin#post(p, msg) abort
  if a:p.state ==# 'loaded'
    call s:send(a:p, a:msg)
  else
    call add(a:p.queue, a:msg)
  endif
endfunction

function! s:send(p, msg) abort
  try
    if a:msg[0] ==# 'notify'
      call vigor#_internal#host#notify(a:p.handle, a:msg[1], a:msg[2])
    else
      call vigor#_internal#host#notify(a:p.handle, '$async', a:msg[1 :])
      let a:p.inflight[a:msg[1]] = [a:msg[2], a:msg[3]]
      let s:async_owner[a:msg[1]] = a:p.name
      " A channel may close under a process that keeps running, and Vim
      " may drop the answer: request.vim watches the calls under way.
      call vigor#_internal#request#watch_async()
    endif
  catch /^Vim\%((\a\+)\)\=:E\%(475\|630\|631\|906\|912\):/
    " The channel closed before the process exit was seen (a crash): keep
    " the message for the restart, which sends the queue, or for the
    " failure, which resolves it.
    call add(a:p.queue, a:msg)
  endtry
endfunction

" A request_async was resolved (called by vigor#_internal#callback#resolve).
function! vigor#_internal#plugin#async_done(success_id) abort
  let l:name = get(s:async_owner, a:success_id, '')
  if empty(l:name)
    return
  endif
  unlet s:async_owner[a:success_id]
  if has_key(s:plugins, l:name) && has_key(s:plugins[l:name].inflight, a:success_id)
    unlet s:plugins[l:name].inflight[a:success_id]
  endif
endfunction

" The process is gone: every request_async still running fails.
function! s:fail_inflight(p, why) abort
  let l:inflight = a:p.inflight
  let a:p.inflight = {}
  for [l:sid, l:rest] in items(l:inflight)
    call vigor#_internal#callback#resolve(l:sid, l:rest[0], v:false,
          \ s:error_object(a:p.name, l:rest[1], a:why))
  endfor
endfunction

function! vigor#_internal#plugin#interrupt(reason) abort
  let l:params = vigor#_internal#plugin#interrupt_params(a:reason)
  for l:p in values(s:plugins)
    if l:p.state ==# 'loaded'
      call vigor#_internal#host#notify(l:p.handle, '$interrupt', l:params)
    endif
  endfor
endfunction

" The params of $interrupt: the reason (or v:null) and the budget within
" which the handlers it cancels are to return (on_stuck()).
function! vigor#_internal#plugin#interrupt_params(reason) abort
  return [a:reason, max([float2nr(vigor#_internal#conf#get('unload_timeout') * 1.0), 0])]
endfunction

" Called by the plugin (protocol.FuncStuck): the handler of {method}, and
" {others} more, still run {ms} ms after an interrupt cancelled their
" context. Go cannot stop them, and each keeps a CPU busy or holds what it
" holds, one more at every interrupt: the plugin is restarted (reloaded),
" which ends them, and one line says so.
function! vigor#_internal#plugin#on_stuck(name, instance, method, others, ms) abort
  let l:p = s:current(a:name, a:instance)
  if empty(l:p) || l:p.state !=# 'loaded'
    return
  endif
  if a:others > 0
    let l:what = printf('%s.%s and %d more ignored their interrupt for %d ms; restarting %s to stop them',
          \ a:name, a:method, a:others, a:ms, a:name)
  else
    let l:what = printf('%s.%s ignored its interrupt for %d ms; restarting %s to stop it', a:name, a:method, a:ms, a:name)
  endif
  call s:log(l:p, [l:what . ' (a handler that does not return when its context ends runs until its process exits; the budget is g:vigor#unload_timeout)'])
  call vigor#_internal#echo#warn(l:what)
  call vigor#_internal#plugin#reload(a:name)
endfunction

" Adds a wait_async callback; for a name not known yet, it waits for the
" first load() of that name.
function! vigor#_internal#plugin#add_waiter(name, Cb) abort
  let l:p = get(s:plugins, a:name, {})
  if empty(l:p)
    let s:early_waiters[a:name] = get(s:early_waiters, a:name, []) + [a:Cb]
  else
    call add(l:p.waiters, a:Cb)
  endif
endfunction

function! vigor#_internal#plugin#error_object(name, method, msg) abort
  return s:error_object(a:name, a:method, a:msg)
endfunction

function! s:error_object(name, method, msg) abort
  return {'name': 'VigorError', 'plugin': a:name, 'method': a:method, 'message': a:msg}
endfunction

" Records how the build of name went: 'built' in ms, or 'cached'.
function! vigor#_internal#plugin#built_as(name, how, ms) abort
  let l:p = get(s:plugins, a:name, {})
  if !empty(l:p)
    let l:p.build = a:how
    let l:p.build_ms = a:ms
  endif
endfunction

" Builds name afresh (ignoring the cache) and loads it again: :Vigor
" rebuild.
function! vigor#_internal#plugin#rebuild(name) abort
  let l:p = get(s:plugins, a:name, {})
  if empty(l:p)
    return
  endif
  let l:p.force = 1
  if index(['stopped', 'failed'], l:p.state) >= 0
    call vigor#_internal#plugin#load(l:p.name, l:p.dir)
  else
    call vigor#_internal#plugin#reload(a:name)
  endif
endfunction

" Registers name, found in dir with the lazy declaration d (lazy.json), in
" the state 'lazy': nothing is built or started until it is used. Throws
" a [vigor] error, and registers nothing, if a stub cannot be defined.
function! vigor#_internal#plugin#declare_lazy(name, dir, d) abort
  let l:p = get(s:plugins, a:name, {})
  if !empty(l:p) && index(['stopped', 'failed'], l:p.state) < 0
    return
  endif
  call vigor#_internal#lazy#declare(a:name, a:d)
  let l:p = empty(l:p) ? s:new(a:name, a:dir) : l:p
  let l:p.dir = a:dir
  let l:p.state = 'lazy'
  let l:p.error = ''
  let l:p.bad_lazy = 0
endfunction

" name, found in dir, fails without being built: its lazy.json is wrong
" (msg). detail goes to its log. A load or reload reads the file again.
function! vigor#_internal#plugin#fail_lazy(name, dir, msg, detail) abort
  let l:p = get(s:plugins, a:name, {})
  let l:p = empty(l:p) ? s:new(a:name, a:dir) : l:p
  let l:p.dir = a:dir
  let l:p.bad_lazy = 1
  if !empty(a:detail)
    call s:log(l:p, a:detail)
  endif
  call s:fail(l:p, a:msg)
endfunction
