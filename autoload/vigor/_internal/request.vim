" What vigor#request() needs besides its fast path, on both editors: the
" checks of its arguments, the wait for a plugin that is loading, the
" errors. (Its fast path is in autoload/vigor.vim, and on Vim in
" autoload/vigor/_internal/vim9/autoload/vigor.vim.)

" The token of the last request, and the nesting of vigor#request()
" calls. This file owns it; the fast paths of vigor#request() (both
" editors' definitions) hold it (state()), and each takes the next token
" and counts its own nesting in and out.
let s:state = {'token': 0, 'depth': 0}
" From this nesting level on, each request checks the real function depth
" against 'maxfuncdepth'.
let s:DEPTH_CHECK = 8
" Frames a request needs beyond its caller's: vigor#request() itself, the
" runtime's function that runs a plugin's call, the called function and
" what that calls.
let s:DEPTH_RESERVE = 8
let s:vim = !has('nvim')
" How long a wait for a loading plugin checks every millisecond before it
" checks every g:vigor#wait_interval ms (request#wait_coming()).
let s:EARLY = 200

let s:T = has('nvim') ? 'nvim' : 'vim'

function! vigor#_internal#request#state() abort
  return s:state
endfunction

function! vigor#_internal#request#depth_check() abort
  return s:DEPTH_CHECK
endfunction

" The plugin, loaded, for a request; waits while it loads. Throws if it
" cannot be called, for arguments of the wrong type, and when the calls
" nest too deep. Returns {} when Vigor is disabled.
function! vigor#_internal#request#target(name, method, params) abort
  let l:p = vigor#_internal#request#known(a:name, a:method)
  call vigor#_internal#request#params(a:name, a:method, a:params)
  if s:state.depth >= s:DEPTH_CHECK
    call s:check_depth(a:name, a:method)
  endif
  if empty(l:p) || l:p.state ==# 'loaded'
    return l:p
  endif
  let l:timeout = vigor#_internal#conf#get('request_timeout')
  let l:r = vigor#_internal#request#wait_coming(l:p, l:timeout)
  if l:r == -1
    throw printf('[vigor] %s.%s: the plugin was not ready within %d ms (it is still %s; g:vigor#request_timeout)',
          \ a:name, a:method, l:timeout, vigor#_internal#request#doing(l:p))
  elseif l:r == -2
    throw printf('[vigor] %s.%s: interrupted while waiting for the plugin to start', a:name, a:method)
  endif
  call s:check_state(l:p, a:method)
  return l:p
endfunction

" The registry entry of a plugin that can take calls now or later. Throws
" for invalid names, unknown, failed and unloaded plugins.
function! vigor#_internal#request#known(name, method) abort
  call vigor#_internal#name#check(a:name)
  if type(a:method) != v:t_string
    throw printf('[vigor] %s: the method name must be a String, not %s',
          \ a:name, vigor#_internal#value#article(a:method))
  endif
  if vigor#_internal#conf#get('disabled')
    return {}
  endif
  let l:p = vigor#_internal#plugin#get(a:name)
  if empty(l:p)
    " A plugin put on 'runtimepath' after discovery (:packadd, a lazy
    " plugin manager) is found here.
    call vigor#_internal#discover#new()
    let l:p = vigor#_internal#plugin#get(a:name)
  endif
  if !empty(l:p) && l:p.state ==# 'lazy'
    " Declared lazy (lazy.json), at startup or just now: a call starts it
    " too.
    call vigor#_internal#plugin#load(a:name, l:p.dir)
  endif
  if empty(l:p)
    let l:near = vigor#_internal#discover#closest(a:name)
    throw printf('[vigor] %s.%s: there is no plugin %s (no vigor/%s/ directory on ''runtimepath'')%s',
          \ a:name, a:method, a:name, a:name, empty(l:near) ? '' : '; did you mean ' . l:near . '?')
  endif
  if !vigor#_internal#plugin#is_coming(l:p)
    call s:check_state(l:p, a:method)
  endif
  return l:p
endfunction

function! vigor#_internal#request#params(name, method, params) abort
  if type(a:params) != v:t_list
    throw printf('[vigor] %s.%s: the arguments must be a List, not %s',
          \ a:name, a:method, vigor#_internal#value#article(a:params))
  endif
endfunction

" Throws if params hold a value that cannot reach a plugin, naming where:
" on Vim also one nested too deep for json_encode() (depth.vim).
function! vigor#_internal#request#sendable(name, method, params) abort
  if s:vim && vigor#_internal#depth#first(a:params) >= 0
    throw printf('[vigor] %s.%s: argument %d: %s', a:name, a:method,
          \ vigor#_internal#depth#first(a:params) + 1, vigor#_internal#depth#error())
  endif
  if vigor#_internal#value#maybe_unsendable(a:params)
    let l:msg = vigor#_internal#request#unsendable(a:name, a:method, a:params, '')
    if !empty(l:msg)
      throw l:msg
    endif
  endif
endfunction

" The error for params that cannot reach a plugin, naming the value, or
" fallback if none of them is to blame.
function! vigor#_internal#request#unsendable(name, method, params, fallback) abort
  let l:bad = vigor#_internal#value#unsendable(a:params)
  if empty(l:bad)
    return a:fallback
  endif
  return printf('[vigor] %s.%s: argument %s is %s, which cannot be sent to a plugin',
        \ a:name, a:method, l:bad[0], l:bad[1])
endfunction

" Each level of nested requests uses a few function frames; past
" 'maxfuncdepth' Vim can no longer run the plugin's calls, and both sides
" would wait for ever. Refuse before that.
function! s:check_depth(name, method) abort
  let l:stack = expand('<stack>')
  " Vim counts more than the frames: a level through its channel callback
  " (api#vim#on_call, a def function that calls a legacy one) costs two
  " more, and one through the legacy call wrapper one more.
  let l:frames = len(split(l:stack, '\.\.'))
  if !has('nvim')
    let l:frames += 2 * count(l:stack, '#api#vim#on_call[') + count(l:stack, '#api#vim#call[')
  endif
  if l:frames + s:DEPTH_RESERVE > &maxfuncdepth
    throw printf('[vigor] %s.%s: requests nested %d deep use %d of the %d function calls that ''maxfuncdepth'' allows; stop the recursion or raise ''maxfuncdepth''',
          \ a:name, a:method, s:state.depth + 1, l:frames, &maxfuncdepth)
  endif
endfunction

function! s:check_state(p, method) abort
  if a:p.state ==# 'loaded'
    return
  elseif a:p.state ==# 'failed'
    throw printf('[vigor] %s.%s: the plugin failed to load: %s', a:p.name, a:method, a:p.error)
  elseif a:p.state ==# 'unloading'
    throw printf('[vigor] %s.%s: the plugin is being unloaded', a:p.name, a:method)
  else
    throw printf('[vigor] %s.%s: the plugin is not loaded (it was unloaded); load it with vigor#plugin#load() or vigor#plugin#reload()',
          \ a:p.name, a:method)
  endif
endfunction

" The error of a request that has no good answer: an answer with an error
" or of the wrong shape (res), or a wait that ended without one (stopped:
" CTRL-C; else the process went away).
function! vigor#_internal#request#fail(p, method, token, handle, stopped, ...) abort
  if !a:0
    call vigor#_internal#host#abandon(a:token)
    if a:stopped
      call vigor#_internal#transport#{s:T}#notify(a:handle, '$interrupt', vigor#_internal#outbox#interrupt_params('CTRL-C stopped vigor#request()'))
      throw printf('[vigor] %s.%s: interrupted (CTRL-C); the handler''s context is cancelled', a:p.name, a:method)
    endif
    throw printf('[vigor] %s.%s: %s; see :messages and %s',
          \ a:p.name, a:method, s:ended(a:p, a:handle), a:p.log)
  endif
  let l:res = a:1
  if type(l:res) != v:t_list || len(l:res) != 2
    throw printf('[vigor] %s.%s: unexpected reply %s', a:p.name, a:method, string(l:res)[: 100])
  endif
  throw s:nested(a:p.name . '.' . a:method, l:res[1])
endfunction

" The error of request {call} ('name.method') whose handler failed with
" {msg}. When msg is the error of a request made further in, through
" vigor#request() or a function of the user's that passes it on
" ("vigor#request(): [vigor] name.method: ...", on one line or more), it
" reads once, with the depth, not with a prefix per level: "[vigor]
" name.method: {innermost error} (3 requests deep)", and "(from
" other.method, 3 requests deep)" when the innermost request is another
" one. The errors of Vigor's other functions (vigor#notify()...), and a
" "[vigor] ..." that names no known plugin (a user's own throw), are
" passed on as they are.
function! s:nested(call, msg) abort
  let l:m = matchlist(a:msg, '^\%(vigor#request\|\%(vigor#\)\@!\S\+\)(): \[vigor\] \([^ .]\+\)\(\.\S\+\): \(\_.*\)$')
  if empty(l:m) || empty(vigor#_internal#plugin#get(l:m[1]))
    return printf('[vigor] %s: %s', a:call, a:msg)
  endif
  let [l:from, l:text] = [l:m[1] . l:m[2], l:m[3]]
  let l:depth = 2
  let l:d = matchlist(l:text, '^\(\_.*\) (\%(from \(\S\+\), \)\=\(\d\+\) requests deep)$')
  if !empty(l:d)
    let l:text = l:d[1]
    let l:from = empty(l:d[2]) ? l:from : l:d[2]
    let l:depth = str2nr(l:d[3]) + 1
  endif
  return printf('[vigor] %s: %s (%s%d requests deep)', a:call, l:text,
        \ l:from ==# a:call ? '' : 'from ' . l:from . ', ', l:depth)
endfunction

" How the process of {handle} ended, as process.vim (its exit, or
" process#on_closed()) put it in the handle. On Vim the wait may see the
" channel close before the exit is known: on_closed() finds out which it
" was.
function! s:ended(p, handle) abort
  if !has_key(a:handle, 'ended') && a:p.handle is a:handle
    call vigor#_internal#process#on_closed(a:p.name, a:p.instance)
    if !has_key(a:handle, 'ended')
      " The exit of a process that has ended, seen by job_status().
      call vigor#_internal#transport#{s:T}#running(a:handle)
    endif
  endif
  return get(a:handle, 'ended', 'the plugin''s channel closed during the call')
endfunction

" The plugin's channel was gone when the request was to be sent, so the
" plugin never saw it: wait for the process to be restarted (as for a
" plugin that is loading), then send it again.
function! vigor#_internal#request#resend(p, method, params) abort
  let l:instance = a:p.instance
  " Vim may not have run the channel's close_cb yet; Neovim has none.
  call vigor#_internal#process#on_closed(a:p.name, l:instance, 1)
  call vigor#_internal#wait#for(vigor#_internal#conf#get('request_timeout'),
        \ {-> a:p.instance != l:instance || a:p.state !=# 'loaded'},
        \ vigor#_internal#conf#get('wait_interval'))
  if a:p.instance == l:instance && a:p.state ==# 'loaded'
    throw printf('[vigor] %s.%s: the plugin process closed its channel but did not exit (see %s)', a:p.name, a:method, a:p.log)
  endif
  return vigor#request(a:p.name, a:method, a:params)
endfunction

" The line of a request to a loaded plugin whose answer has not come since
" {since} (when the wait began, a reltime(), or the seconds it has lasted,
" a Float): [vigor] waiting for hello (running greet, 2s; CTRL-C stops),
" from a second on. Returns 1 when it showed the line.
function! vigor#_internal#request#busy(p, method, since) abort
  " (Rounded: a wait may end a little early.)
  let l:secs = type(a:since) == v:t_float ? a:since : reltimefloat(reltime(a:since))
  if l:secs < 0.9
    return 0
  endif
  let l:secs = float2nr(round(l:secs))
  call vigor#_internal#echo#progress(printf('waiting for %s (running %s, %ds; CTRL-C stops)', a:p.name,
        \ a:method, l:secs))
  return 1
endfunction

" What the plugin p on its way is doing, in the user's words: "starting",
" "building", "building the vigor command".
function! vigor#_internal#request#doing(p) abort
  if a:p.state ==# 'reserved'
    let l:boot = vigor#_internal#bootstrap#state()
    return l:boot ==# 'building' ? 'building the vigor command'
          \ : l:boot ==# 'ready' ? 'building' : 'waiting for Vigor to start'
  elseif a:p.state ==# 'unloading'
    return 'reloading'
  endif
  return a:p.state
endfunction

" Whether the plugin p on its way waits for a compiler: its own build, or
" the vigor command's (in this editor or another). The time it takes does
" not count towards a request's timeout, which is for a plugin that does
" not answer (nor towards vigor#plugin#wait()'s).
function! vigor#_internal#request#compiling(p) abort
  return a:p.state ==# 'building'
        \ || (a:p.state ==# 'reserved' && vigor#_internal#bootstrap#state() ==# 'building')
endfunction

" Waits until the plugin p is no longer on its way, as wait#for() does:
" for as long as a build runs, then up to timeout ms more in all. After a
" second it shows what it waits for, every second:
" [vigor] waiting for hello (building, 5s; CTRL-C stops).
function! vigor#_internal#request#wait_coming(p, timeout) abort
  " (build.vim builds and starts what is waited for first.)
  call vigor#_internal#build#wait_begin(a:p.name)
  try
    return s:wait_coming(a:p, a:timeout)
  finally
    call vigor#_internal#build#wait_end(a:p.name)
  endtry
endfunction

function! s:wait_coming(p, timeout) abort
  let l:start = reltime()
  let l:interval = vigor#_internal#conf#get('wait_interval')
  let l:shown = 0
  " The time waited so far that counts towards the timeout.
  let l:counted = 0
  while 1
    let l:compiling = vigor#_internal#request#compiling(a:p)
    if !l:compiling && l:counted >= a:timeout
      return -1
    endif
    let l:from = reltime()
    " The first s:EARLY ms check every millisecond: on Vim, the callbacks
    " that take a warm plugin from its build's check to its start run
    " only between the checks (each a :sleep), and they are several.
    let l:early = s:EARLY - float2nr(reltimefloat(reltime(l:start)) * 1000)
    let l:step = l:compiling ? 1000 : min([a:timeout - l:counted, 1000])
    let l:r = vigor#_internal#wait#for(l:early > 0 ? min([l:step, l:early]) : l:step,
          \ {-> !vigor#_internal#plugin#is_coming(a:p) || vigor#_internal#request#compiling(a:p) != l:compiling},
          \ l:early > 0 ? 1 : l:interval)
    if !l:compiling
      let l:counted += float2nr(reltimefloat(reltime(l:from)) * 1000)
    endif
    if l:r == -2 || !vigor#_internal#plugin#is_coming(a:p)
      if l:shown
        call vigor#_internal#echo#progress_done()
      endif
      return l:r == -2 ? -2 : 0
    endif
    let l:secs = reltimefloat(reltime(l:start))
    if l:secs >= 0.9 && (vigor#_internal#request#compiling(a:p) || l:counted < a:timeout)
      let l:shown = 1
      call vigor#_internal#echo#progress(printf('waiting for %s (%s, %ds; CTRL-C stops)', a:p.name,
            \ vigor#_internal#request#doing(a:p), float2nr(round(l:secs))))
    endif
  endwhile
endfunction
