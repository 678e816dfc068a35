" The plugin registry and the lifecycle state machine: every change of a
" plugin's 'state' is made here, and fires its events. What happens to the
" process is process.vim's, the messages to it outbox.vim's, its build
" build.vim's. docs/ARCHITECTURE.md ("The runtime's rooms") draws it.
"
"   lazy -----> reserved -> building -> starting -> loaded -> unloading -> stopped
"   (stubs;     (waiting     (vigor      (process      |                   |
"    its first   for the      build)      started)     +-> starting        +-> reserved
"    use)        runtime)                                  (crash, or its      (reload, or
"                                                           channel gone;       a later
"                                                           building if its     load())
"                                                           program is gone)
"   reserved, building, starting, loaded (crashes) -> failed -> reserved
"                                                    (load() or reload())
"
" Who moves it: to_lazy() (lazy.vim: a lazy.json read at discovery),
" load() (the user, discovery, a lazy stub, a request),
" flush_reserved() and fail_reserved() (bootstrap.vim: the vigor command
" is there, or cannot be had), on_built() and on_build_failed()
" (build.vim), on_ready() and on_failed() (the SDK, protocol.FuncReady and
" FuncFailed), fail(), restarting(), restart() and unloaded() (process.vim:
" start timeout, exit, crash, channel gone), unload() and reload() (the
" user, on_stuck()). An unload or reload that comes while a plugin loads
" waits in 'pending' until on_ready().
let s:LOADING = ['reserved', 'building', 'starting']

" The registry: name -> entry. This file owns it and makes the entries
" (s:new() lists their fields and which file writes each); the others get
" an entry through get() and all(), read it, and write only their own
" fields. vigor#request()'s fast paths hold the registry itself, to look
" a name up without a call.
let s:plugins = {}
" wait_async callbacks for names not known yet.
let s:early_waiters = {}

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
        \ 'log': vigor#_internal#conf#log_file(a:name),
        \ 'state': 'stopped',
        \ 'pending': '',
        \ 'error': '',
        \ 'unload_error': v:null,
        \ 'waiters': get(s:early_waiters, a:name, []),
        \ 'bad_lazy': 0,
        \ 'force': 0,
        \ 'info': {},
        \ 'load_ms': -1,
        \ 'bin': '',
        \ 'build': '',
        \ 'build_ms': -1,
        \ 'handle': v:null,
        \ 'instance': 0,
        \ 'timer': -1,
        \ 'gone': '',
        \ 'spawned': [],
        \ 'crashes': [],
        \ 'restarts': 0,
        \ 'stderr': [],
        \ 'err_in_log': 0,
        \ 'log_start': 0,
        \ 'queue': [],
        \ 'inflight': {},
        \}
  " Written here: name .. bin (build and build_ms through built_as(), and
  " unload_error by process.vim's kill too, bad_lazy by lazy.vim's failure
  " too); by process.vim: handle .. restarts; by stderr.vim: stderr,
  " err_in_log, log_start; by outbox.vim: queue, inflight.
  let s:plugins[a:name] = l:p
  if has_key(s:early_waiters, a:name)
    unlet s:early_waiters[a:name]
  endif
  return l:p
endfunction

" load: stopped, failed, lazy (or unknown) -> reserved -> building.
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
      call vigor#_internal#plugin#fail(l:p, a:msg, 1)
    endif
  endfor
endfunction

" -> building.
function! s:begin(p) abort
  let a:p.state = 'building'
  call vigor#_internal#event#emit('VigorPluginPre:' . a:p.name)
  if a:p.state ==# 'building'
    call vigor#_internal#build#queue(a:p.name, a:p.dir, a:p.force)
    let a:p.force = 0
  endif
endfunction

" Called by the build: the binary is ready. building -> starting.
function! vigor#_internal#plugin#on_built(name, bin) abort
  let l:p = get(s:plugins, a:name, {})
  if empty(l:p) || l:p.state !=# 'building'
    return
  endif
  let l:p.bin = a:bin
  call s:start(l:p)
endfunction

function! vigor#_internal#plugin#on_build_failed(name, msg) abort
  let l:p = get(s:plugins, a:name, {})
  if empty(l:p) || l:p.state !=# 'building'
    return
  endif
  call vigor#_internal#plugin#fail(l:p, a:msg)
endfunction

" Records how the build of name went: 'built' in ms, or 'cached'.
function! vigor#_internal#plugin#built_as(name, how, ms) abort
  let l:p = get(s:plugins, a:name, {})
  if !empty(l:p)
    let l:p.build = a:how
    let l:p.build_ms = a:ms
  endif
endfunction

" -> starting: a process of p.bin.
function! s:start(p) abort
  if vigor#_internal#process#quitting()
    " A process started now would outlive the editor: Neovim's exit stops
    " the jobs it has when it begins, then waits for them, and never stops
    " one that a timer starts meanwhile (the editor hangs).
    call vigor#_internal#plugin#fail(a:p, 'the editor is quitting', 1)
    return
  endif
  let a:p.state = 'starting'
  let l:err = vigor#_internal#process#start(a:p)
  if !empty(l:err)
    call vigor#_internal#plugin#fail(a:p, printf('%s (rebuild with :Vigor reload %s)', l:err, a:p.name))
  endif
endfunction

" Called by the plugin (SDK) when its setup returned. starting -> loaded.
function! vigor#_internal#plugin#on_ready(name, instance, info) abort
  let l:p = vigor#_internal#process#current(a:name, str2nr(a:instance))
  if empty(l:p) || l:p.state !=# 'starting'
    return
  endif
  call vigor#_internal#process#stop_timer(l:p)
  let l:proto = get(a:info, 'protocol', 0)
  if l:proto != vigor#_internal#process#protocol()
    call vigor#_internal#plugin#fail(l:p, printf('it speaks protocol %s but this Vigor speaks %d: it was not built with this Vigor''s SDK; update the plugin or Vigor',
          \ l:proto, vigor#_internal#process#protocol()))
    return
  endif
  let l:p.state = 'loaded'
  let l:p.info = a:info
  let l:p.load_ms = float2nr(reltimefloat(reltime(l:p.spawned)) * 1000)
  call vigor#_internal#outbox#flush(l:p)
  call s:call_waiters(l:p)
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

function! s:call_waiters(p) abort
  let l:waiters = a:p.waiters
  let a:p.waiters = []
  for l:Cb in l:waiters
    try
      call l:Cb()
    catch
      call vigor#_internal#echo#error(printf('a wait_async callback of %s failed: %s', a:p.name, v:exception))
    endtry
  endfor
endfunction

" Called by the plugin (SDK) when its setup failed; it exits next.
function! vigor#_internal#plugin#on_failed(name, instance, msg) abort
  let l:p = vigor#_internal#process#current(a:name, str2nr(a:instance))
  if empty(l:p) || l:p.state !=# 'starting'
    return
  endif
  call vigor#_internal#plugin#fail(l:p, 'failed to load: ' . a:msg)
endfunction

" Called by the plugin (SDK) after its unload hooks ran.
function! vigor#_internal#plugin#on_unloaded(name, instance, err) abort
  let l:p = vigor#_internal#process#current(a:name, str2nr(a:instance))
  if !empty(l:p)
    let l:p.unload_error = a:err
  endif
endfunction

" -> failed, with msg: the one failure path of a plugin that is loading
" (or crashed too often). {...}: 1 to fail without a message (the caller
" has shown the reason).
function! vigor#_internal#plugin#fail(p, msg, ...) abort
  call vigor#_internal#process#kill(a:p)
  call s:record_failure(a:p, a:msg)
  let a:p.waiters = []
  if !get(a:, 1, 0)
    call vigor#_internal#echo#error(printf('%s: %s', a:p.name, a:msg))
  endif
  call vigor#_internal#stderr#log(a:p, ['load failed: ' . a:msg])
  call vigor#_internal#outbox#fail_queue(a:p, 'the plugin failed to load: ' . a:msg)
  call s:announce_failure(a:p)
endfunction

" The state says it failed, and why; an unload or reload that waited for
" the load is dropped.
function! s:record_failure(p, msg) abort
  let a:p.state = 'failed'
  let a:p.error = a:msg
  let a:p.pending = ''
endfunction

function! s:announce_failure(p) abort
  call vigor#_internal#event#emit('VigorPluginFail:' . a:p.name)
  call vigor#_internal#summary#settled()
endfunction

" loaded -> starting: its process crashed or lost its channel, and a new
" one follows (restart()); calls meanwhile wait for it.
function! vigor#_internal#plugin#restarting(p) abort
  let a:p.state = 'starting'
endfunction

" The restart that process.vim timed after restarting(): a new process,
" or a new build if its program is gone from the cache (an editor that
" built a newer version of the plugin removed the older builds).
function! vigor#_internal#plugin#restart(p) abort
  if !executable(a:p.bin)
    call s:begin(a:p)
    return
  endif
  call vigor#_internal#event#emit('VigorPluginPre:' . a:p.name)
  if a:p.state ==# 'starting'
    call s:start(a:p)
  endif
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

" loaded -> unloading.
function! s:unload(p) abort
  let a:p.state = 'unloading'
  let a:p.unload_error = v:null
  call vigor#_internal#event#emit('VigorPluginUnloadPre:' . a:p.name)
  if a:p.handle is v:null
    call vigor#_internal#plugin#unloaded(a:p)
    return
  endif
  call vigor#_internal#process#unload(a:p)
endfunction

" unloading -> stopped: its process has exited (process.vim), or it had
" none. A reload loads it again.
function! vigor#_internal#plugin#unloaded(p) abort
  call vigor#_internal#process#stop_timer(a:p)
  let a:p.state = 'stopped'
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

" Called by the plugin (protocol.FuncStuck): handlers still run {ms} ms
" after an interrupt cancelled their context (process#stuck() says so):
" the plugin is restarted (reloaded), which ends them.
function! vigor#_internal#plugin#on_stuck(name, instance, method, others, ms) abort
  let l:p = vigor#_internal#process#current(a:name, a:instance)
  if empty(l:p) || l:p.state !=# 'loaded'
    return
  endif
  call vigor#_internal#process#stuck(l:p, a:method, a:others, a:ms)
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

" Returns the registry entry of name, found in dir, and registers it
" (stopped) if it is not known yet. For lazy.vim, which registers lazy
" plugins while the runtime starts (so without get()'s start).
function! vigor#_internal#plugin#entry(name, dir) abort
  let l:p = get(s:plugins, a:name, {})
  return empty(l:p) ? s:new(a:name, a:dir) : l:p
endfunction

" stopped, failed (or unknown) -> lazy: name, found in dir, waits for its
" first use of a stub (lazy.vim has defined them). Returns 0, and does
" nothing, if name is on its way or loaded.
function! vigor#_internal#plugin#to_lazy(name, dir) abort
  let l:p = vigor#_internal#plugin#entry(a:name, a:dir)
  if index(['stopped', 'failed'], l:p.state) < 0
    return 0
  endif
  let l:p.dir = a:dir
  let l:p.state = 'lazy'
  let l:p.error = ''
  let l:p.bad_lazy = 0
  return 1
endfunction
