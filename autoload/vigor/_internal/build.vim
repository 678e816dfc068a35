" Plugin builds: queues them, runs the vigor command on them (one run for
" the builds queued in the same tick, which builds in parallel), and reads
" its JSON progress (internal/build) into the plugins' state.
let s:queue = []
let s:flush_timer = -1
" The builds running now: name -> reltime() of its start; and the timer
" that shows them, with the time since the first, every second.
let s:running = {}
let s:progress_timer = -1

" Queues a plugin build; builds queued in the same tick run in one vigor
" command, in parallel. With force, the build ignores the cache.
function! vigor#_internal#build#queue(name, dir, ...) abort
  call add(s:queue, [a:name, a:dir, a:0 && a:1])
  if s:flush_timer == -1
    let s:flush_timer = timer_start(0, function('s:flush'))
  endif
endfunction

function! s:flush(_timer) abort
  let s:flush_timer = -1
  let l:queue = s:queue
  let s:queue = []
  " Forced builds (:Vigor rebuild) run in a command of their own.
  let l:forced = filter(copy(l:queue), 'v:val[2]')
  call filter(l:queue, '!v:val[2]')
  for l:q in [l:queue, l:forced]
    if !empty(l:q)
      call s:run(l:q, l:q is l:forced)
    endif
  endfor
endfunction

function! s:run(queue, force) abort
  let l:queue = a:queue
  let l:cmd = [vigor#_internal#bootstrap#vigor(), 'build', '-json'] + (a:force ? ['-force'] : []) + [
        \ '-cache', vigor#_internal#conf#cache_dir(),
        \ '-sdk', vigor#_internal#bootstrap#root(),
        \ '-go', vigor#_internal#conf#get('go')]
  let l:ctx = {'names': map(copy(l:queue), 'v:val[0]'), 'building': 0, 'seen': {}, 'start': reltime(), 'other': []}
  call extend(l:cmd, map(copy(l:queue), {_, q -> q[0] . '=' . q[1]}))
  try
    call vigor#_internal#job#start(l:cmd, {
          \ 'out': function('s:on_build_lines', [l:ctx]),
          \ 'err': function('s:on_build_lines', [l:ctx]),
          \ 'exit': function('s:on_build_exit', [l:ctx]),
          \ 'late_exit': 1,
          \})
  catch
    for l:name in l:ctx.names
      call vigor#_internal#plugin#on_build_failed(l:name, 'cannot run the vigor command: ' . v:exception)
    endfor
  endtry
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
    call vigor#_internal#plugin#on_built(l:name, l:e.bin)
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
