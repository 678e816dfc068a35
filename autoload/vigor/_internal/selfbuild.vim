" The vigor command's own build: which command is this checkout's (the one
" it used last, or the one of the sources it lists now), and its build, once
" per version of its sources, with the user's Go, shared by every editor
" that uses the cache. bootstrap.vim owns the runtime's state and asks
" here (last(), scan()); this file tells it bootstrap#building(),
" bootstrap#built() or bootstrap#failed().
let s:root = vigor#_internal#bootstrap#root()

" Lists the vigor command's sources (s:version_path) and finds, builds or
" waits for the command of that version.
function! vigor#_internal#selfbuild#scan() abort
  let [s:version, s:sources] = s:version_path()
  call s:find(0)
endfunction

" The file that names the vigor command this checkout used last, in the
" cache: one per checkout, since checkouts may share a cache. Its name
" holds a short hash of the checkout's path, not sha256(), whose first
" call costs milliseconds on some Vims; two checkouts whose hashes meet
" only make each other scan.
function! s:last_file() abort
  let l:h = 5381
  for l:c in str2list(s:root)
    let l:h = (l:h * 33 + l:c) % 1000000007
  endfor
  return printf('%s/bin/last-%x-%d', vigor#_internal#conf#cache_dir(), l:h, strlen(s:root))
endfunction

" The vigor command this checkout used last, if it is still there, or ''.
function! vigor#_internal#selfbuild#last() abort
  try
    let l:exe = get(readfile(s:last_file(), '', 1), 0, '')
  catch
    return ''
  endtry
  return !empty(l:exe) && executable(l:exe) ? l:exe : ''
endfunction

" Writes {lines} to {file} through a file of this editor's and a rename,
" so that another editor reads all of it or nothing. A cache that cannot
" be written only costs a scan at the next start.
function! s:write(file, lines) abort
  let l:tmp = a:file . '.' . getpid()
  try
    call writefile(a:lines, l:tmp)
    if rename(l:tmp, a:file) != 0
      call delete(l:tmp)
    endif
  catch
  endtry
endfunction

" The vigor command {exe} is the one of the sources listed now: its
" directory gets the list (the command's own check reads it), and the
" cache notes it as this checkout's last.
function! s:note(exe) abort
  call s:write(fnamemodify(a:exe, ':h') . '/sources', s:sources)
  call s:write(s:last_file(), [a:exe])
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
let s:sources = []
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
      call s:note(l:dir . '/vigor' . l:exe)
      call vigor#_internal#bootstrap#built(l:dir . '/vigor' . l:exe, vigor#_internal#bootstrap#state() ==# 'building')
      return
    endif
    if !isdirectory(l:dir)
      let l:go = vigor#_internal#conf#get('go')
      if !executable(l:go)
        call vigor#_internal#bootstrap#failed(printf('the Go toolchain %s was not found; install Go 1.22 or newer, or set g:vigor#go', string(l:go)))
        return
      endif
      let l:taken = s:take(l:dir)
      if l:taken < 0
        call vigor#_internal#bootstrap#failed(s:unwritable(l:dir))
        return
      elseif l:taken
        call s:build(l:go, l:dir, l:exe)
        return
      endif
    endif
    if s:alive(l:dir)
      if vigor#_internal#bootstrap#building()
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
  call vigor#_internal#bootstrap#building()
  let s:build_start = reltime()
  call s:show_build(0)
  let s:beat_timer = timer_start(s:BEAT, function('s:beat_and_show', [a:dir]), {'repeat': -1})
  let s:build_out = []
  let l:tmp = a:dir . '/vigor.tmp' . a:exe
  call s:write(a:dir . '/sources', s:sources)
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
    call vigor#_internal#bootstrap#failed(printf('cannot build the vigor command (go build exited %d): %s (its log: %s)', a:status,
          \ join(filter(copy(s:build_out), '!empty(v:val)')[: 5], ' | '), l:log))
    return
  endif
  call s:note(a:exe)
  call s:prune()
  call vigor#_internal#bootstrap#built(a:exe, 1)
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

" [{cache}/bin/vigor-{hash}, the list of sources]: the stem of the vigor
" command's build directories, whose {hash} changes whenever its sources do
" (those of cmd/vigor, and the packages it may import: the SDK and
" internal/), and those sources, each "path:mtime:size". The other commands
" (cmd/vigor-bench) are not its sources. Only a scan lists them; the list
" is written beside the command, which compares it with the checkout
" (build.VigorSources, build.SourcesFresh: the same files).
function! s:version_path() abort
  let l:files = vigor#_internal#selfbuild#sources()
  let l:stamp = map(l:files, {_, f -> f . ':' . getftime(f) . ':' . getfsize(f)})
  return [vigor#_internal#conf#cache_dir() . '/bin/vigor-' . sha256(join(l:stamp, "\n"))[: 15], l:stamp]
endfunction

" The vigor command's sources in the checkout.
function! vigor#_internal#selfbuild#sources() abort
  return glob(s:root . '/*.go', 1, 1)
        \ + glob(s:root . '/internal/**/*.go', 1, 1)
        \ + glob(s:root . '/cmd/vigor/**/*.go', 1, 1)
        \ + [s:root . '/go.mod', s:root . '/go.sum']
endfunction
