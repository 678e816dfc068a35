" The messages from the editor to a plugin that vigor#notify() and
" vigor#request_async() make: sent at once to a loaded plugin, queued
" until it has loaded otherwise; and the request_async calls under way,
" until their answer (callback#resolve()) or the end of their process.
" (vigor#request() sends its own, in its fast path.)
"
" A message is a Dict:
"   {'kind': 'notify', 'method': String, 'params': List}
"   {'kind': 'async', 'success': id, 'failure': id, 'method': String,
"    'params': List}
" A call under way is {'failure': id, 'method': String}, by success id.
"
" The fields of the registry entry (plugin.vim) that this file owns, and
" only it writes: 'queue' (the messages waiting for the plugin to load) and
" 'inflight' (the calls under way). s:owner, the plugin of each call under
" way, is this file's alone.
let s:T = has('nvim') ? 'nvim' : 'vim'
let s:owner = {}

" Sends the message msg to p, or queues it until p has loaded.
function! vigor#_internal#outbox#post(p, msg) abort
  if a:p.state ==# 'loaded'
    call s:send(a:p, a:msg)
  else
    call add(a:p.queue, a:msg)
  endif
endfunction

" p has loaded: sends what waited for it, in order.
function! vigor#_internal#outbox#flush(p) abort
  let l:queue = a:p.queue
  let a:p.queue = []
  for l:msg in l:queue
    call s:send(a:p, l:msg)
  endfor
endfunction

function! s:send(p, msg) abort
  try
    if a:msg.kind ==# 'notify'
      call vigor#_internal#transport#{s:T}#notify(a:p.handle, a:msg.method, a:msg.params)
    else
      call vigor#_internal#transport#{s:T}#notify(a:p.handle, '$async',
            \ [a:msg.success, a:msg.failure, a:msg.method, a:msg.params])
      let a:p.inflight[a:msg.success] = {'failure': a:msg.failure, 'method': a:msg.method}
      let s:owner[a:msg.success] = a:p.name
      " A channel may close under a process that keeps running, and Vim
      " may drop the answer: the watch looks at the calls under way.
      call s:watch()
    endif
  catch /^Vim\%((\a\+)\)\=:E\%(475\|630\|631\|906\|912\):/
    " The channel closed before the process exit was seen (a crash): keep
    " the message for the restart, which sends the queue, or for the
    " failure, which resolves it.
    call add(a:p.queue, a:msg)
  endtry
endfunction

" p failed to load (why): the request_async calls that waited for it fail;
" the notifications are dropped.
function! vigor#_internal#outbox#fail_queue(p, why) abort
  let l:queue = a:p.queue
  let a:p.queue = []
  for l:msg in l:queue
    if l:msg.kind ==# 'async'
      call vigor#_internal#callback#resolve(l:msg.success, l:msg.failure, v:false,
            \ s:error_object(a:p.name, l:msg.method, a:why))
    endif
  endfor
endfunction

" The process of p can answer no more (why): every request_async call
" under way fails.
function! vigor#_internal#outbox#fail_inflight(p, why) abort
  let l:inflight = a:p.inflight
  let a:p.inflight = {}
  for [l:sid, l:call] in items(l:inflight)
    call vigor#_internal#callback#resolve(l:sid, l:call.failure, v:false,
          \ s:error_object(a:p.name, l:call.method, a:why))
  endfor
endfunction

" The value a request_async failure callback gets: the error object of
" internal/protocol (ErrorObject), which the SDK makes too; a test there
" keeps the keys and values the same.
function! s:error_object(name, method, msg) abort
  return {'name': 'VigorError', 'plugin': a:name, 'method': a:method, 'message': a:msg}
endfunction

" A request_async was resolved (called by vigor#_internal#callback#resolve).
function! vigor#_internal#outbox#done(success_id) abort
  let l:name = get(s:owner, a:success_id, '')
  if empty(l:name)
    return
  endif
  unlet s:owner[a:success_id]
  let l:p = vigor#_internal#plugin#get(l:name)
  if !empty(l:p) && has_key(l:p.inflight, a:success_id)
    unlet l:p.inflight[a:success_id]
  endif
endfunction

" vigor#interrupt(): every loaded plugin cancels the contexts of its
" running handlers.
function! vigor#_internal#outbox#interrupt(reason) abort
  let l:params = vigor#_internal#outbox#interrupt_params(a:reason)
  for l:p in values(vigor#_internal#plugin#all())
    if l:p.state ==# 'loaded'
      call vigor#_internal#transport#{s:T}#notify(l:p.handle, '$interrupt', l:params)
    endif
  endfor
endfunction

" The params of $interrupt: the reason (or v:null) and the budget within
" which the handlers it cancels are to return (process#stuck()).
function! vigor#_internal#outbox#interrupt_params(reason) abort
  return [a:reason, vigor#_internal#process#budget()]
endfunction

" While request_async calls are under way, a timer watches them every
" s:LOOK ms (a call sent starts it; it stops when no call is under way):
" - A channel that closes under a process that keeps running fails the
"   calls at once (transport lost(), process#on_closed()), as
"   vigor#request() finds its own: Neovim tells nothing then, and Vim only
"   once the process has closed its stderr too.
" - Where the editor may drop an answer (transport drops(): Vim), the calls
"   are asked about as vigor#request() asks about its own
"   (transport#vim#probe_async()), by their success ids: once a second,
"   each that has been under way for a second.
let s:LOOK = 250
let s:PROBE_EVERY = 4
let s:timer = -1
let s:ticks = 0
" The success ids of the calls under way at the last probe.
let s:seen = {}

function! s:watch() abort
  " (A timer whose callback failed again and again is gone.)
  if s:timer == -1 || empty(timer_info(s:timer))
    let s:ticks = 0
    let s:timer = timer_start(s:LOOK, function('s:tick'), {'repeat': -1})
  endif
endfunction

function! s:tick(_timer) abort
  let s:ticks += 1
  let l:probe = vigor#_internal#transport#{s:T}#drops() && s:ticks % s:PROBE_EVERY == 0
  let l:any = 0
  let l:seen = {}
  for l:p in values(vigor#_internal#plugin#all())
    if empty(l:p.inflight)
      continue
    endif
    let l:any = 1
    let l:usable = l:p.state ==# 'loaded' && l:p.handle isnot v:null && !has_key(l:p.handle, 'closed')
    if l:usable && vigor#_internal#transport#{s:T}#lost(l:p.handle)
      call vigor#_internal#process#on_closed(l:p.name, l:p.instance, 1)
      continue
    endif
    if l:probe
      call s:probe(l:p, l:usable, l:seen)
    endif
  endfor
  if l:probe || !l:any
    if s:T ==# 'vim'
      for l:sid in keys(s:seen)
        if !has_key(l:seen, l:sid)
          call vigor#_internal#transport#vim#forget(l:sid)
        endif
      endfor
    endif
    let s:seen = l:seen
  endif
  if !l:any
    call timer_stop(s:timer)
    let s:timer = -1
  endif
endfunction

" Asks the plugin p about its request_async calls under way since the last
" probe, and adds the success ids of all of them to seen.
function! s:probe(p, usable, seen) abort
  for [l:sid, l:call] in items(a:p.inflight)
    let a:seen[l:sid] = 1
    if a:usable && has_key(s:seen, l:sid) && vigor#_internal#transport#vim#probe_async(a:p, l:sid, l:call.method)
      return
    endif
  endfor
endfunction
