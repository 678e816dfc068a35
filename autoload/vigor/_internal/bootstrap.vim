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
  call vigor#_internal#file#mkdir(vigor#_internal#conf#log_dir())
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
  call vigor#_internal#job#start([l:go, 'build', '-buildvcs=false', '-o', l:tmp, './cmd/vigor'], {
        \ 'cwd': s:root,
        \ 'env': {'GOWORK': 'off', 'GOPROXY': s:proxy_url() . ',off'},
        \ 'out': {lines -> extend(s:build_out, lines)},
        \ 'err': {lines -> extend(s:build_out, lines)},
        \ 'exit': function('s:on_vigor_built', [l:tmp]),
        \ 'late_exit': 1,
        \})
endfunction

" The checkout's third_party/goproxy as a GOPROXY entry: the modules that
" the vigor command needs are there, so its build needs no network (and
" uses none). Characters that a URL or the GOPROXY list would take for
" syntax are escaped.
function! s:proxy_url() abort
  return 'file://' . substitute(s:root . '/third_party/goproxy', '[%,|#? ]',
        \ '\=printf("%%%02X", char2nr(submatch(0)))', 'g')
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

" The vigor command's path: it changes whenever its sources do (those of
" cmd/vigor, and the packages it may import: the SDK and internal/), so an
" updated checkout rebuilds it. The other commands (cmd/vigor-bench) are
" not its sources.
function! s:vigor_path() abort
  let l:files = glob(s:root . '/*.go', 1, 1)
        \ + glob(s:root . '/internal/**/*.go', 1, 1)
        \ + glob(s:root . '/cmd/vigor/**/*.go', 1, 1)
        \ + [s:root . '/go.mod', s:root . '/go.sum']
  let l:stamp = join(map(l:files, {_, f -> f . ':' . getftime(f) . ':' . getfsize(f)}), "\n")
  let l:exe = has('win32') ? '.exe' : ''
  return vigor#_internal#conf#cache_dir() . '/bin/vigor-' . sha256(l:stamp)[: 15] . l:exe
endfunction
