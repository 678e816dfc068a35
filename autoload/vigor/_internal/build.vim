" Plugin builds: queues them, runs the vigor command on them (one run for
" the builds queued in the same tick, which builds in parallel), and reads
" its JSON progress (internal/build) into the plugins' state.
let s:queue = []
let s:flush_timer = -1

" Queues a plugin build; builds queued in the same tick run in one vigor
" command, in parallel.
function! vigor#_internal#build#queue(name, dir) abort
  call add(s:queue, [a:name, a:dir])
  if s:flush_timer == -1
    let s:flush_timer = timer_start(0, function('s:flush'))
  endif
endfunction

function! s:flush(_timer) abort
  let s:flush_timer = -1
  let l:queue = s:queue
  let s:queue = []
  if empty(l:queue)
    return
  endif
  let l:cmd = [vigor#_internal#bootstrap#vigor(), 'build', '-json',
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
    call vigor#_internal#echo#progress(printf('building %s...', l:name))
    return
  endif
  let a:ctx.seen[l:name] = 1
  if l:e.status ==# 'cached' || l:e.status ==# 'built'
    if l:e.status ==# 'built'
      call vigor#_internal#echo#progress(printf('built %s in %.1fs', l:name, l:e.ms / 1000.0))
    endif
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
    if !has_key(a:ctx.seen, l:name)
      call vigor#_internal#plugin#on_build_failed(l:name, printf('the vigor command exited %d without building it: %s',
            \ a:status, join(a:ctx.other[: 3], ' | ')))
    endif
  endfor
endfunction
