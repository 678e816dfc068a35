" Startup: discover plugins, make sure the vigor command is built (once per
" version of its sources, with the user's Go), and fire VigorReady. The
" plugin builds that follow are build.vim's.
let s:root = expand('<sfile>:p:h:h:h:h')
let s:state = 'none'   " none | building | ready | failed
let s:error = ''
let s:vigor = ''

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
  if a:discover
    call vigor#plugin#discover()
  endif
  let l:err = s:check_cache()
  if !empty(l:err)
    call s:failed(l:err)
    return
  endif
  let s:version = s:version_path()
  call s:find(0)
endfunction

" Checks that there is a cache, and a log directory (conf#log_dir(): in the
" cache, or in the state directory when the cache cannot be written), and
" makes the cache's bin directory if it can; returns what is wrong, or ''.
" A cache that cannot be written is no error here: the programs that it
" holds already start from it (a package may install it read-only), and
" s:find and the vigor command say so when something must be built there.
function! s:check_cache() abort
  let l:err = vigor#_internal#conf#log_error()
  if !empty(l:err)
    return l:err
  endif
  try
    call vigor#_internal#file#mkdir(vigor#_internal#conf#cache_dir() . '/bin')
  catch
  endtry
  return ''
endfunction

" The message for a directory {dir} in the cache that cannot be made or
" written.
function! s:unwritable(dir) abort
  return printf('cannot write the cache directory %s (%s %s): make it writable, or set g:vigor#cache_dir (or $XDG_CACHE_HOME) to a directory of your own; see :help vigor-cache',
        \ vigor#_internal#conf#cache_dir(), isdirectory(a:dir) ? 'cannot write' : 'cannot make', a:dir)
endfunction

" The vigor command of a version is built in {version}-{n}/ (s:version_path),
" for n = 1, 2, ...: an editor that makes such a directory (mkdir() is
" atomic, so exactly one editor makes each) builds into it, and every other
" editor waits for that build. Nothing there is ever replaced: the build
" goes to vigor.tmp, which is renamed to the free name vigor (Vim's
" rename() deletes its target first). The builder rewrites the file owner
" (its host and pid) every s:BEAT ms, and removes the directory if its
" build fails. A build whose builder is gone (its pid, on this host where
" /proc tells, or owner not rewritten for s:DEAD s) will not finish, and
" the next n is tried. Waiters never remove or take over a directory, so no
" two editors ever build into the same one, and a version is built again
" only after a build failed or its builder died.
let s:BEAT = 1000
let s:DEAD = 10
let s:POLL = 50
let s:version = ''
let s:beat_timer = -1
let s:build_out = []
let s:build_start = []
" The seconds that the last progress line showed.
let s:shown = -1

" Finds the vigor command, builds it, or waits for another editor's build.
function! s:find(_timer) abort
  let l:exe = has('win32') ? '.exe' : ''
  let l:n = 1
  while 1
    let l:dir = s:version . '-' . l:n
    if executable(l:dir . '/vigor' . l:exe)
      let s:vigor = l:dir . '/vigor' . l:exe
      call s:built(s:state ==# 'building')
      return
    endif
    if !isdirectory(l:dir)
      let l:go = vigor#_internal#conf#get('go')
      if !executable(l:go)
        call s:failed(printf('the Go toolchain %s was not found; install Go 1.22 or newer, or set g:vigor#go', string(l:go)))
        return
      endif
      let l:taken = s:take(l:dir)
      if l:taken < 0
        call s:failed(s:unwritable(l:dir))
        return
      elseif l:taken
        call s:build(l:go, l:dir, l:exe)
        return
      endif
    endif
    if s:alive(l:dir)
      if s:state !=# 'building'
        let s:state = 'building'
        let s:build_start = reltime()
        let s:shown = -1
      endif
      let l:secs = float2nr(reltimefloat(reltime(s:build_start)))
      if l:secs != s:shown
        let s:shown = l:secs
        call vigor#_internal#echo#progress(printf('waiting for the vigor command (another editor is building it, %ds)...', l:secs))
      endif
      call timer_start(s:POLL, function('s:find'))
      return
    endif
    let l:n += 1
  endwhile
endfunction

" Makes {dir}: 1 when this editor made it, 0 when it exists already
" (another editor made it), -1 when it cannot be made.
function! s:take(dir) abort
  try
    call mkdir(a:dir, '', 0700)
  catch /^Vim\%((\a\+)\)\=:E739:/
    return isdirectory(a:dir) ? 0 : -1
  endtry
  call s:beat(a:dir, 0)
  return 1
endfunction

" Whether the build in {dir} may still finish.
function! s:alive(dir) abort
  let l:owner = a:dir . '/owner'
  let l:time = getftime(l:owner)
  if l:time < 0
    " Made a moment ago, and owner not written yet; or removed just now.
    let l:time = getftime(a:dir)
    return l:time >= 0 && localtime() - l:time < s:DEAD
  endif
  if localtime() - l:time >= s:DEAD
    return 0
  endif
  try
    let l:who = readfile(l:owner)
  catch
    " Removed just now: the next look tells.
    return 1
  endtry
  if len(l:who) >= 2 && l:who[0] ==# hostname() && isdirectory('/proc/self')
    return isdirectory('/proc/' . l:who[1])
  endif
  return 1
endfunction

" The progress of this editor's build of the vigor command, every second:
" [vigor] building the vigor command (first use, 5s)...
" (Rounded: a timer may fire a little early.)
function! s:show_build(_timer) abort
  call vigor#_internal#echo#progress(printf('building the vigor command (first use, %ds)...',
        \ float2nr(round(reltimefloat(reltime(s:build_start))))))
endfunction

function! s:beat_and_show(dir, timer) abort
  call s:beat(a:dir, a:timer)
  call s:show_build(a:timer)
endfunction

" Writes {dir}/owner: this editor builds there, now.
function! s:beat(dir, _timer) abort
  try
    call writefile([hostname(), getpid()], a:dir . '/owner')
  catch
  endtry
endfunction

function! s:build(go, dir, exe) abort
  let s:state = 'building'
  let s:build_start = reltime()
  call s:show_build(0)
  let s:beat_timer = timer_start(s:BEAT, function('s:beat_and_show', [a:dir]), {'repeat': -1})
  let s:build_out = []
  let l:tmp = a:dir . '/vigor.tmp' . a:exe
  try
    call vigor#_internal#job#start([a:go, 'build', '-buildvcs=false', '-o', l:tmp, './cmd/vigor'], {
          \ 'cwd': s:root,
          \ 'env': {'GOWORK': 'off', 'GOTOOLCHAIN': 'local', 'GOPROXY': s:proxy_url() . ',off'},
          \ 'out': function('s:on_build_output'),
          \ 'err': function('s:on_build_output'),
          \ 'exit': function('s:on_vigor_built', [a:dir, l:tmp, a:dir . '/vigor' . a:exe]),
          \ 'late_exit': 1,
          \})
  catch
    call s:on_vigor_built(a:dir, l:tmp, a:dir . '/vigor' . a:exe, -1)
  endtry
endfunction

" The checkout's third_party/goproxy as a GOPROXY entry: the modules that
" the vigor command needs are there, so its build needs no network (and
" uses none). Characters that a URL or the GOPROXY list would take for
" syntax are escaped.
function! s:proxy_url() abort
  return 'file://' . substitute(s:root . '/third_party/goproxy', '[%,|#? ]',
        \ '\=printf("%%%02X", char2nr(submatch(0)))', 'g')
endfunction

function! s:on_build_output(lines) abort
  call extend(s:build_out, a:lines)
endfunction

function! s:on_vigor_built(dir, tmp, exe, status) abort
  call timer_stop(s:beat_timer)
  let s:beat_timer = -1
  " The build's output goes to log/vigor.log, which a failure names.
  let l:log = vigor#_internal#conf#log_dir() . '/vigor.log'
  try
    call vigor#_internal#file#log(l:log, [printf('%s: go build of the vigor command in %s exited %d',
          \ strftime('%Y-%m-%d %H:%M:%S'), s:root, a:status)]
          \ + s:build_out)
  catch
  endtry
  if a:status != 0 || !filereadable(a:tmp) || rename(a:tmp, a:exe) != 0
    call delete(a:dir, 'rf')
    call s:failed(printf('cannot build the vigor command (go build exited %d): %s (its log: %s)', a:status,
          \ join(filter(copy(s:build_out), '!empty(v:val)')[: 5], ' | '), l:log))
    return
  endif
  let s:vigor = a:exe
  call s:prune()
  call s:built(1)
endfunction

" The vigor command is there; {shown}: a progress line showed its build.
" The plugins' builds that follow show their own progress; with none (no
" plugins, or only lazy ones), the line goes.
function! s:built(shown) abort
  let l:follow = !empty(filter(values(vigor#_internal#plugin#all()), {_, p -> p.state ==# 'reserved'}))
  call s:ready()
  if a:shown && !l:follow
    call vigor#_internal#echo#progress_done()
  endif
endfunction

" Removes the builds of other versions, once they have not changed for
" ten minutes (an editor may still be building one).
function! s:prune() abort
  let l:prefix = fnamemodify(s:version, ':t') . '-'
  for l:old in glob(fnamemodify(s:version, ':h') . '/vigor-*', 1, 1)
    if stridx(fnamemodify(l:old, ':t'), l:prefix) != 0 && localtime() - getftime(l:old) > 600
      call delete(l:old, 'rf')
    endif
  endfor
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

" {cache}/bin/vigor-{hash}, the stem of the vigor command's build directories:
" {hash} changes whenever its sources do (those of cmd/vigor, and the
" packages it may import: the SDK and internal/), so an updated checkout
" rebuilds it. The other commands (cmd/vigor-bench) are not its sources.
function! s:version_path() abort
  let l:files = glob(s:root . '/*.go', 1, 1)
        \ + glob(s:root . '/internal/**/*.go', 1, 1)
        \ + glob(s:root . '/cmd/vigor/**/*.go', 1, 1)
        \ + [s:root . '/go.mod', s:root . '/go.sum']
  let l:stamp = join(map(l:files, {_, f -> f . ':' . getftime(f) . ':' . getfsize(f)}), "\n")
  return vigor#_internal#conf#cache_dir() . '/bin/vigor-' . sha256(l:stamp)[: 15]
endfunction
