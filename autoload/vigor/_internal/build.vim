" Plugin builds: queues them, runs the vigor command on them (one run for
" the builds queued in the same tick, which builds in parallel), reads its
" JSON progress (internal/build) into the plugins' state, and orders the
" builds and starts so that a plugin that something waits for goes first.
" The builds queued this tick: {'name', 'dir', 'force'} each.
let s:queue = []
let s:flush_timer = -1
" The builds running now: name -> reltime() of its start; and the timer
" that shows them, with the time since the first, every second.
let s:running = {}
let s:progress_timer = -1
" The plugins built and not started yet, {'name', 'bin'} each, and the timer
" that starts them: one a tick, those waited for first, so that a start of
" many plugins lets each answer as soon as it is ready, instead of after
" every process has started.
let s:built = []
let s:start_timer = -1
" The plugins that a vigor#request() or vigor#plugin#wait() waits for
" (wait_begin() and wait_end()): name -> how many waits. While there are
" any, the builds (s:held) and starts (s:built) of the plugins that nobody
" waits for are held, so that the waited-for ones have the CPUs to
" themselves; a wait for a held plugin builds or starts it at once. The
" hold ends when no wait is left, and at the latest s:HOLD ms after it
" began (s:hold_since, a reltime(), [] until something is held while a
" wait is on; s:hold_timer ends it): no plugin is held for longer, and
" nothing is held again until the waits have ended.
let s:waited = {}
let s:held = []
let s:hold_since = []
let s:hold_timer = -1
let s:HOLD = 100

" Queues a plugin build; builds queued in the same tick run in one vigor
" command, in parallel. With force, the build ignores the cache.
function! vigor#_internal#build#queue(name, dir, ...) abort
  call add(s:queue, {'name': a:name, 'dir': a:dir, 'force': a:0 && a:1})
  if s:flush_timer == -1
    let s:flush_timer = timer_start(0, function('s:flush'))
  endif
endfunction

function! s:flush(_timer) abort
  let s:flush_timer = -1
  let l:queue = s:queue
  let s:queue = []
  if s:holding()
    call extend(s:held, filter(copy(l:queue), '!has_key(s:waited, v:val.name)'))
    call filter(l:queue, 'has_key(s:waited, v:val.name)')
    call s:hold()
  endif
  call s:run_all(l:queue)
endfunction

" Runs the builds of queue: forced builds (:Vigor rebuild) in a command of
" their own.
function! s:run_all(queue) abort
  let l:forced = filter(copy(a:queue), 'v:val.force')
  let l:queue = filter(copy(a:queue), '!v:val.force')
  for l:q in [l:queue, l:forced]
    if !empty(l:q)
      call s:run(l:q, l:q is l:forced)
    endif
  endfor
endfunction

" A wait for the plugin {name} begins (vigor#request(), vigor#plugin#wait()
" of a plugin on its way): its held build runs now, and its start comes
" before the others'.
function! vigor#_internal#build#wait_begin(name) abort
  let s:waited[a:name] = get(s:waited, a:name, 0) + 1
  let l:mine = filter(copy(s:held), 'v:val.name ==# a:name')
  if !empty(l:mine)
    call filter(s:held, 'v:val.name !=# a:name')
    call s:run_all(l:mine)
  endif
  if !empty(s:built) && s:start_timer == -1
    let s:start_timer = timer_start(0, function('s:start_next'))
  endif
endfunction

" A wait for {name} has ended: with none left, the held builds and starts
" go, from a timer (after the call that waited).
function! vigor#_internal#build#wait_end(name) abort
  let s:waited[a:name] = get(s:waited, a:name, 1) - 1
  if s:waited[a:name] <= 0
    unlet s:waited[a:name]
  endif
  if !empty(s:waited)
    return
  endif
  let s:hold_since = []
  if s:hold_timer != -1
    call timer_stop(s:hold_timer)
    let s:hold_timer = -1
  endif
  if !empty(s:held) || !empty(s:built)
    let s:hold_timer = timer_start(0, function('s:release'))
  endif
endfunction

" Whether the builds and starts of plugins nobody waits for are held.
function! s:holding() abort
  return !empty(s:waited) && (empty(s:hold_since) || reltimefloat(reltime(s:hold_since)) * 1000 < s:HOLD)
endfunction

" Something is held: the hold ends s:HOLD ms after it began at the latest.
function! s:hold() abort
  if empty(s:hold_since)
    let s:hold_since = reltime()
  endif
  if s:hold_timer == -1
    let l:left = s:HOLD - float2nr(reltimefloat(reltime(s:hold_since)) * 1000)
    let s:hold_timer = timer_start(max([l:left, 0]) + 1, function('s:release'))
  endif
endfunction

function! s:release(_timer) abort
  let s:hold_timer = -1
  let l:held = s:held
  let s:held = []
  call s:run_all(l:held)
  if !empty(s:built) && s:start_timer == -1
    let s:start_timer = timer_start(0, function('s:start_next'))
  endif
endfunction

" With the vigor command's sources not checked yet in this editor
" (bootstrap#check()), the command checks them first: it says "fresh"
" before anything else, or "stale" (or nothing that says so: an older
" command) and builds nothing, and then the runtime gets the command of
" the checkout (bootstrap#stale()) and runs the same builds with it.
function! s:run(queue, force) abort
  let l:queue = a:queue
  let l:check = vigor#_internal#bootstrap#check()
  let l:cmd = [vigor#_internal#bootstrap#vigor(), 'build', '-json'] + (a:force ? ['-force'] : []) + [
        \ '-cache', vigor#_internal#conf#cache_dir(),
        \ '-sdk', vigor#_internal#bootstrap#root(),
        \ '-go', vigor#_internal#conf#get('go')] + (empty(l:check) ? [] : ['-self', l:check])
  let l:ctx = {'names': map(copy(l:queue), 'v:val.name'), 'building': 0, 'seen': {}, 'start': reltime(), 'other': [],
        \ 'queue': l:queue, 'force': a:force, 'check': !empty(l:check), 'fresh': 0}
  call extend(l:cmd, map(copy(l:queue), {_, q -> q.name . '=' . q.dir}))
  try
    call vigor#_internal#job#start(l:cmd, {
          \ 'out': function('s:on_build_lines', [l:ctx]),
          \ 'err': function('s:on_build_lines', [l:ctx]),
          \ 'exit': function('s:on_build_exit', [l:ctx]),
          \ 'late_exit': 1,
          \})
  catch
    if l:ctx.check
      " The command used last is gone: get the checkout's.
      call vigor#_internal#bootstrap#stale(function('s:again', [l:queue, a:force]))
      return
    endif
    for l:name in l:ctx.names
      call vigor#_internal#plugin#on_build_failed(l:name, 'cannot run the vigor command: ' . v:exception)
    endfor
  endtry
endfunction

" The vigor command of the checkout is there ({err} empty), or cannot be
" had: run the builds of {queue} with it, or fail them.
function! s:again(queue, force, err) abort
  if empty(a:err)
    call s:run(a:queue, a:force)
    return
  endif
  for l:q in a:queue
    call vigor#_internal#plugin#on_build_failed(l:q.name, a:err)
  endfor
endfunction

function! s:on_build_lines(ctx, lines) abort
  for l:line in a:lines
    call s:on_build_line(a:ctx, l:line)
  endfor
endfunction

" A line of the vigor command's output: a JSON event (internal/build), or
" anything else, kept for the message if the command fails.
function! s:on_build_line(ctx, line) abort
  if a:line !~# '^{'
    if !empty(a:line)
      call add(a:ctx.other, a:line)
    endif
    return
  endif
  try
    let l:e = json_decode(a:line)
  catch
    call add(a:ctx.other, a:line)
    return
  endtry
  if a:ctx.check && !a:ctx.fresh
    " Until the command has said "fresh", nothing it says counts.
    if get(l:e, 'status', '') ==# 'fresh'
      let a:ctx.fresh = 1
      call vigor#_internal#bootstrap#fresh()
    endif
    return
  endif
  let l:name = l:e.plugin
  if l:e.status ==# 'building'
    let a:ctx.building += 1
    call s:started(l:name)
    return
  endif
  let a:ctx.seen[l:name] = 1
  call s:ended(l:name)
  if l:e.status ==# 'cached' || l:e.status ==# 'built'
    if l:e.status ==# 'built'
      call vigor#_internal#echo#progress(printf('built %s in %.1fs', l:name, l:e.ms / 1000.0))
    endif
    call vigor#_internal#plugin#built_as(l:name, l:e.status, get(l:e, 'ms', 0))
    call s:start_later(l:name, l:e.bin)
  elseif l:e.status ==# 'failed'
    let l:p = vigor#_internal#plugin#get(l:name)
    let l:out = get(l:e, 'output', [])
    if !empty(l:p) && !empty(l:out)
      call vigor#_internal#file#log(l:p.log, ['build failed:'] + l:out)
    endif
    let l:more = len(filter(copy(l:out), 'v:val =~# ''\.go:\d\+'''))
    let l:msg = l:e.error
    if l:more > 1
      let l:msg .= printf(' (and %d more; all of them in %s)', l:more - 1, get(l:p, 'log', 'the log'))
    endif
    call vigor#_internal#plugin#on_build_failed(l:name, l:msg)
  endif
endfunction

function! s:on_build_exit(ctx, status) abort
  if a:ctx.check && !a:ctx.fresh
    call vigor#_internal#bootstrap#stale(function('s:again', [a:ctx.queue, a:ctx.force]))
    return
  endif
  for l:name in a:ctx.names
    call s:ended(l:name)
    if !has_key(a:ctx.seen, l:name)
      call vigor#_internal#plugin#on_build_failed(l:name, printf('the vigor command exited %d without building it: %s',
            \ a:status, join(a:ctx.other[: 3], ' | ')))
    endif
  endfor
endfunction

function! s:started(name) abort
  let s:running[a:name] = reltime()
  call s:show_progress(-1)
  if s:progress_timer == -1
    let s:progress_timer = timer_start(1000, function('s:show_progress'), {'repeat': -1})
  endif
endfunction

function! s:ended(name) abort
  if has_key(s:running, a:name)
    call remove(s:running, a:name)
  endif
  if empty(s:running) && s:progress_timer != -1
    call timer_stop(s:progress_timer)
    let s:progress_timer = -1
  endif
endfunction

" [vigor] building hello, other (3s)...
function! s:show_progress(_timer) abort
  if empty(s:running)
    return
  endif
  let l:secs = max(map(values(s:running), {_, t -> float2nr(reltimefloat(reltime(t)))}))
  call vigor#_internal#echo#progress(printf('building %s (%ds)...', join(sort(keys(s:running)), ', '), l:secs))
endfunction

function! s:start_later(name, bin) abort
  call add(s:built, {'name': a:name, 'bin': a:bin})
  if s:start_timer == -1
    let s:start_timer = timer_start(0, function('s:start_next'))
  endif
endfunction

" Starts the next built plugin: one that is waited for, else the first
" unless starts are held (s:holding()).
function! s:start_next(_timer) abort
  let s:start_timer = -1
  if empty(s:built)
    return
  endif
  let l:i = 0
  while l:i < len(s:built) && !has_key(s:waited, s:built[l:i].name)
    let l:i += 1
  endwhile
  if l:i == len(s:built)
    if s:holding()
      call s:hold()
      return
    endif
    let l:i = 0
  endif
  let l:next = remove(s:built, l:i)
  if !empty(s:built)
    let s:start_timer = timer_start(0, function('s:start_next'))
  endif
  call vigor#_internal#plugin#on_built(l:next.name, l:next.bin)
endfunction
