" Vim's transport: the plugin processes' JSON channels, and Vim's side of
" the answer protocol. Neovim never sources this file; transport/nvim.vim
" has the same functions for Neovim (the editor-neutral files call
" vigor#_internal#transport#{editor}#...), and job.vim starts the
" processes for both.
"
"   name() version()          the editor, for the plugin's environment
"   start(cmd, env, callbacks) a plugin process; returns its handle
"   running(handle) stop(handle, kill) notify(handle, method, params)
"   lost(handle)              its channel has closed, the process may run
"   drops()                   1: Vim may drop an answer without a word
"   probe(...) probe_async(...) forget(id) answered(id, running)
"                             the questions that find a dropped answer
"
" A handle is a Dict that start() makes: {'job': <job>, 'chan': <channel>}.
" process.vim adds 'ended' (why the process went, for a request's error)
" and 'closed' (its channel is done); the fast paths of vigor#request()
" read 'chan' and 'closed', request.vim reads 'ended'.
" callbacks: {'stderr': {lines -> ...}, 'exit': {status, signal -> ...},
" 'closed': {-> ...}}: 'closed' when the channel has closed (a process that
" closes it but keeps running gets no 'exit').
"
" The rest of the answer protocol on Vim: vigor#request() sends and waits
" in _internal/vim9/autoload/vigor.vim; the answers come through
" host#reply() and host#pending() (the names the SDK calls, host.vim).

function! vigor#_internal#transport#vim#name() abort
  return 'vim'
endfunction

function! vigor#_internal#transport#vim#version() abort
  return printf('%d.%d.%d', v:version / 100, v:version % 100, v:versionlong % 10000)
endfunction

" Starts a plugin process, its channel on its stdin and stdout. Returns a
" handle, or throws.
function! vigor#_internal#transport#vim#start(cmd, env, callbacks) abort
  " 'group': what the plugin started ends with it (docs/ARCHITECTURE.md,
  " section 1). The pieces of its large messages that Vim holds
  " (api/vim.vim) will never be whole once its channel has closed.
  return vigor#_internal#job#start(a:cmd, {'rpc': 1, 'group': 1, 'env': a:env,
        \ 'err': a:callbacks.stderr, 'exit': a:callbacks.exit,
        \ 'closed': function('s:closed', [a:env.VIGOR_PLUGIN, a:env.VIGOR_INSTANCE, a:callbacks.closed])})
endfunction

function! s:closed(name, instance, Closed) abort
  call vigor#_internal#api#vim#drop(a:name, a:instance)
  call a:Closed()
endfunction

" 1 while the process of a handle runs. (job_status() also notices an
" exit, and runs its exit_cb.)
function! vigor#_internal#transport#vim#running(handle) abort
  return job_status(a:handle.job) ==# 'run'
endfunction

" Kills the process ({kill}), or closes its stdin: it then ends itself.
function! vigor#_internal#transport#vim#stop(handle, kill) abort
  try
    if a:kill
      call job_stop(a:handle.job, 'kill')
    else
      call ch_close_in(a:handle.chan)
    endif
  catch
  endtry
endfunction

function! vigor#_internal#transport#vim#notify(handle, method, params) abort
  call ch_sendraw(a:handle.chan, json_encode([0, [a:method, a:params]]) . "\n")
endfunction

" 1 when the channel of {handle} has closed, although its process may
" still run: its output is at its end (close_cb waits for stderr too,
" which a process that keeps running holds).
function! vigor#_internal#transport#vim#lost(handle) abort
  return ch_status(a:handle.chan, {'part': 'out'}) ==# 'closed'
endfunction

" Vim drops what it reads on a channel that is not JSON, and an answer
" with it, without telling: its requests ask their plugin whether it still
" runs them (probe(), probe_async()).
function! vigor#_internal#transport#vim#drops() abort
  return 1
endfunction

" The questions asked ($pending), by request token or request_async
" success id: -1 until an answer comes, then 1 (running) or 0 (answered);
" 2 once the asker has seen "running". Only this file reads or writes it.
let s:probes = {}
" How long a request waits, in seconds, before it asks its plugin whether
" it still runs it, and between two such questions.
let s:PROBE_AFTER = 1.0

" host#pending(): the plugin says whether it still runs the request {id}.
" An answer that nobody waits for any more is dropped.
function! vigor#_internal#transport#vim#answered(id, running) abort
  if has_key(s:probes, a:id)
    let s:probes[a:id] = a:running ? 1 : 0
  endif
endfunction

" The wait for {id} has ended: a later answer about it is dropped.
function! vigor#_internal#transport#vim#forget(id) abort
  if has_key(s:probes, a:id)
    call remove(s:probes, a:id)
  endif
endfunction

" The slow path of a request whose answer has not come (vigor#request()
" in _internal/vim9/autoload/vigor.vim calls this after each read of its
" wait but the first, and after a wake-up without the answer). Vim drops
" what it reads on a channel that is not JSON, an answer with it, and
" tells no one; so the request asks the plugin whether it still runs it
" ($pending), and the plugin answers with a call of host#pending() and a
" wake-up, behind the answer to the request if it has written that. Vim
" runs what comes on a channel in order: a plugin that says it has
" answered, when the answer has not come, sent an answer that Vim dropped,
" and its channel cannot be trusted. The plugin is then gone
" (process#on_lost), which ends the wait with the reason. It asks first a
" second after its first read, or at once after a wake-up without the
" answer (the SDK sends the wake-ups of its answers again while it keeps
" calling Vim, whose ch_read() does not end then: rpc, "Reminders"); again
" a second after an answer "still running" (a handler may run as long as
" it likes), and a second after a question that got no answer (more input
" that Vim dropped). {since} is when the clock started ([] before the
" first call); returns when it starts again.
function! vigor#_internal#transport#vim#probe(p, method, handle, token, since, woke) abort
  let l:state = get(s:probes, a:token, -2)
  if l:state == 0
    call vigor#_internal#process#on_lost(a:p.name, a:p.instance, a:method, a:token)
    return a:since
  elseif l:state == 1
    " Still running: ask again in a second.
    let s:probes[a:token] = 2
    return reltime()
  endif
  let l:now = reltime()
  if empty(a:since)
    if !a:woke
      return l:now
    endif
  elseif reltimefloat(reltime(a:since, l:now)) < s:PROBE_AFTER && (l:state != -2 || !a:woke)
    return a:since
  endif
  call s:ask(a:handle, a:token)
  return l:now
endfunction

" The request_async call {sid} of {method} to p, under way since the last
" probe (outbox.vim asks once a second): asks the plugin about it, as
" probe() does for a request. Returns 1 when the plugin is gone.
function! vigor#_internal#transport#vim#probe_async(p, sid, method) abort
  let l:state = get(s:probes, a:sid, -2)
  if l:state == 0
    call vigor#_internal#process#on_lost(a:p.name, a:p.instance, a:method, a:sid)
    return 1
  elseif l:state == 1
    " Still running: ask again at the next probe.
    let s:probes[a:sid] = 2
    return 0
  endif
  call s:ask(a:p.handle, a:sid)
  return 0
endfunction

function! s:ask(handle, id) abort
  let s:probes[a:id] = -1
  try
    call vigor#_internal#transport#vim#notify(a:handle, '$pending', [a:id])
  catch /^Vim\%((\a\+)\)\=:E\%(630\|631\|906\|912\):/
    " The channel has closed: the wait sees that, and the exit fails the
    " request_async calls.
  endtry
endfunction
