" Startup: discover plugins, make sure the vigor command is there
" (selfbuild.vim finds or builds it), and fire VigorReady; retries after a
" failed start. The plugin builds that follow are build.vim's. The
" runtime's state (s:state, s:vigor, s:checked) is this file's: others
" read it through the functions below, and selfbuild.vim changes it only
" through building(), built() and failed().
let s:root = expand('<sfile>:p:h:h:h:h')
let s:state = 'none'   " none | building | ready | failed
let s:error = ''
let s:vigor = ''
" 1 once the start has begun (start()).
let s:begun = 0
" 1 once this editor knows that s:vigor is built from the sources in the
" checkout now: it listed them (s:scan), or the command said "fresh".
let s:checked = 0
" What waits for the vigor command of a new scan (stale()): functions
" called with '' once it is there, or with the reason it is not.
let s:then = []

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

" At VimEnter: nothing of the start is needed for the first screen, so it
" runs from a timer, right after it (or as soon as something asks for a
" plugin: plugin#get() and the like call start(), also from a VimEnter
" handler that runs before this one). Keys typed while the editor started
" (typeahead, which getchar(1) sees without taking it) run before any
" timer, and a lazy plugin's command or mapping among them must exist:
" then the start runs now.
function! vigor#_internal#bootstrap#defer() abort
  if getchar(1) isnot 0
    call vigor#_internal#bootstrap#start()
    return
  endif
  call timer_start(0, function('s:start_due'))
endfunction

function! s:start_due(_timer) abort
  call vigor#_internal#bootstrap#start()
endfunction

" Starts the runtime once: from VimEnter on, if plugin/vigor.vim set its
" VimEnter handler (it passed its checks before startup); with an argument,
" at once (plugin/vigor.vim sourced after VimEnter).
function! vigor#_internal#bootstrap#start(...) abort
  if s:begun || !a:0 && !(v:vim_did_enter && exists('#vigor_startup#VimEnter'))
    return
  endif
  let s:begun = 1
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
    call vigor#_internal#bootstrap#failed(l:err)
    return
  endif
  let l:last = vigor#_internal#selfbuild#last()
  if !empty(l:last)
    " The command this checkout used last: its first run checks its
    " sources (check()), and a scan follows if they changed (stale()).
    let s:checked = 0
    call vigor#_internal#bootstrap#built(l:last, 0)
    return
  endif
  call s:scan()
endfunction

" selfbuild.vim lists the sources, and finds or builds their command: this
" editor knows then that the command is the checkout's.
function! s:scan() abort
  let s:checked = 1
  call vigor#_internal#selfbuild#scan()
endfunction

" The file that the vigor command checks its sources against (vigor build
" -self), while this editor has not checked them: '' once it has.
function! vigor#_internal#bootstrap#check() abort
  return s:checked ? '' : fnamemodify(s:vigor, ':h') . '/sources'
endfunction

" The vigor command said that its sources are those of the checkout.
function! vigor#_internal#bootstrap#fresh() abort
  let s:checked = 1
endfunction

" The vigor command said that its sources changed (or could not say):
" scan them, and find or build the command of the checkout; then call
" Then('') with it there, or Then(reason) if it cannot be had. Builds that
" see this at once wait for the same scan.
function! vigor#_internal#bootstrap#stale(Then) abort
  call add(s:then, a:Then)
  if s:state ==# 'building'
    return
  endif
  let s:state = 'building'
  let s:error = ''
  call s:scan()
endfunction

" Calls what waits for the command of a new scan.
function! s:answer(err) abort
  let l:then = s:then
  let s:then = []
  for l:Then in l:then
    call l:Then(a:err)
  endfor
endfunction

" Checks that there is a cache, and a log directory (conf#log_dir(): in the
" cache, or in the state directory when the cache cannot be written), and
" makes the cache's bin directory if it can; returns what is wrong, or ''.
" A cache that cannot be written is no error here: the programs that it
" holds already start from it (a package may install it read-only), and
" selfbuild.vim and the vigor command say so when something must be built there.
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

" The vigor command is building (this editor's build, or another's that
" it waits for): returns 1 if it was not before.
function! vigor#_internal#bootstrap#building() abort
  if s:state ==# 'building'
    return 0
  endif
  let s:state = 'building'
  return 1
endfunction

" The vigor command {exe} is there; {shown}: a progress line showed its
" build. The plugins' builds that follow show their own progress; with
" none (no plugins, or only lazy ones), the line goes.
function! vigor#_internal#bootstrap#built(exe, shown) abort
  let s:vigor = a:exe
  let l:follow = !empty(filter(values(vigor#_internal#plugin#all()), {_, p -> p.state ==# 'reserved'}))
  call s:ready()
  if a:shown && !l:follow
    call vigor#_internal#echo#progress_done()
  endif
endfunction

" The vigor command cannot be had (msg): the runtime has failed.
function! vigor#_internal#bootstrap#failed(msg) abort
  let s:state = 'failed'
  let s:error = a:msg
  call vigor#_internal#echo#error(a:msg)
  call vigor#_internal#plugin#fail_reserved(a:msg)
  call s:answer(a:msg)
endfunction

" VigorReady fires once per start of the runtime, not after the scan that
" a stale command asked for.
function! s:ready() abort
  let s:state = 'ready'
  if empty(s:then)
    call vigor#_internal#event#emit('VigorReady')
  endif
  call s:answer('')
  call vigor#_internal#plugin#flush_reserved()
endfunction

