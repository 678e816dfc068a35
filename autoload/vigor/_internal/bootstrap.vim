" Startup: make sure the vigor command is built (once per version of its
" sources, with the user's Go), fire VigorReady, discover plugins, and hand
" plugin builds to the vigor command.
let s:root = expand('<sfile>:p:h:h:h:h')
let s:state = 'none'   " none | building | ready | failed
let s:error = ''
let s:vigor = ''
let s:queue = []
let s:flush_timer = -1

" The Vigor checkout that this runtime was loaded from.
function! vigor#_internal#bootstrap#root() abort
  return s:root
endfunction

function! vigor#_internal#bootstrap#is_ready() abort
  return s:state ==# 'ready'
endfunction

function! vigor#_internal#bootstrap#state() abort
  return s:state
endfunction

function! vigor#_internal#bootstrap#error() abort
  return s:error
endfunction

function! vigor#_internal#bootstrap#vigor() abort
  return s:vigor
endfunction

function! vigor#_internal#bootstrap#start() abort
  if vigor#_internal#conf#get('disabled') || s:state !=# 'none'
    return
  endif
  call s:start(1)
endfunction

" After a failed start (Go missing, say), a load() or reload() tries again,
" so the user can fix g:vigor#go without restarting the editor.
function! vigor#_internal#bootstrap#retry() abort
  if s:state ==# 'failed'
    let s:state = 'none'
    let s:error = ''
    call s:start(0)
  endif
endfunction

" {discover}: find the plugins on 'runtimepath' first (at startup; not on
" a retry, which must not load plugins the user left stopped).
function! s:start(discover) abort
  call mkdir(vigor#_internal#conf#log_dir(), 'p')
  if a:discover
    call vigor#plugin#discover()
  endif
  let s:vigor = s:vigor_path()
  if executable(s:vigor)
    call s:ready()
    return
  endif
  let l:go = vigor#_internal#conf#get('go')
  if !executable(l:go)
    call s:failed(printf('the Go toolchain %s was not found; install Go 1.22 or newer, or set g:vigor#go', string(l:go)))
    return
  endif
  let s:state = 'building'
  call vigor#_internal#echo#progress('building the vigor command (first use)...')
  let l:tmp = s:vigor . '.tmp' . getpid()
  call mkdir(fnamemodify(s:vigor, ':h'), 'p')
  let s:build_out = []
  call s:job([l:go, 'build', '-buildvcs=false', '-o', l:tmp, './cmd/vigor'],
        \ {'cwd': s:root, 'env': {'GOWORK': 'off'}},
        \ {line -> add(s:build_out, line)},
        \ function('s:on_vigor_built', [l:tmp]))
endfunction

function! s:on_vigor_built(tmp, status) abort
  if a:status != 0 || !filereadable(a:tmp)
    call s:failed(printf('cannot build the vigor command (go build exited %d): %s', a:status,
          \ join(filter(copy(s:build_out), '!empty(v:val)')[: 5], ' | ')))
    return
  endif
  call rename(a:tmp, s:vigor)
  " Remove older builds (not another editor's build in progress).
  for l:old in glob(fnamemodify(s:vigor, ':h') . '/vigor-*', 1, 1)
    if l:old !=# s:vigor && l:old !~# '\.tmp\d\+$'
      call delete(l:old)
    endif
  endfor
  call s:ready()
endfunction

function! s:failed(msg) abort
  let s:state = 'failed'
  let s:error = a:msg
  call vigor#_internal#echo#error(a:msg)
  call vigor#_internal#plugin#fail_reserved(a:msg)
endfunction

function! s:ready() abort
  let s:state = 'ready'
  call vigor#_internal#event#emit('VigorReady')
  call vigor#_internal#plugin#flush_reserved()
endfunction

" The vigor command's path: it changes whenever its sources do, so an
" updated checkout rebuilds it.
function! s:vigor_path() abort
  let l:files = glob(s:root . '/*.go', 1, 1)
        \ + glob(s:root . '/internal/**/*.go', 1, 1)
        \ + glob(s:root . '/cmd/**/*.go', 1, 1)
        \ + [s:root . '/go.mod', s:root . '/go.sum']
  let l:stamp = join(map(l:files, {_, f -> f . ':' . getftime(f) . ':' . getfsize(f)}), "\n")
  let l:exe = has('win32') ? '.exe' : ''
  return vigor#_internal#conf#cache_dir() . '/bin/vigor-' . sha256(l:stamp)[: 15] . l:exe
endfunction

" Queues a plugin build; builds queued in the same tick run in one vigor
" command, in parallel.
function! vigor#_internal#bootstrap#build(name, dir) abort
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
  let l:cmd = [s:vigor, 'build', '-json',
        \ '-cache', vigor#_internal#conf#cache_dir(),
        \ '-sdk', s:root,
        \ '-go', vigor#_internal#conf#get('go')]
  let l:ctx = {'names': map(copy(l:queue), 'v:val[0]'), 'building': 0, 'seen': {}, 'start': reltime(), 'other': []}
  call extend(l:cmd, map(copy(l:queue), {_, q -> q[0] . '=' . q[1]}))
  try
    call s:job(l:cmd, {}, function('s:on_build_line', [l:ctx]), function('s:on_build_exit', [l:ctx]))
  catch
    for l:name in l:ctx.names
      call vigor#_internal#plugin#on_build_failed(l:name, 'cannot run the vigor command: ' . v:exception)
    endfor
  endtry
endfunction

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
      call writefile(['build failed:'] + l:out, l:p.log, 'a')
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

" Runs a command with {OnLine} for each line of stdout and stderr, and
" {OnExit} once the process has exited and its output has come.
function! s:job(cmd, opts, OnLine, OnExit) abort
  let l:OnLines = {lines -> map(copy(lines), {_, l -> a:OnLine(l)})}
  call vigor#_internal#job#start(a:cmd, extend({'out': l:OnLines, 'err': l:OnLines, 'exit': a:OnExit, 'late_exit': 1}, a:opts))
endfunction
