" Plugin processes and their channels, one set of operations per editor:
" the plugin processes' channels are handled here only. job.vim starts the
" processes (and the build jobs). (Other files branch on the editor too,
" for waiting and paths; api/vim.vim is Vim's.)
"
" A handle is a dict: {'job': <job>, 'chan': <channel>}.
" callbacks: {'stderr': {lines -> ...}, 'exit': {status[, signal] -> ...},
" 'closed': {-> ...}}: 'closed' is Vim's, when the channel has closed (a
" process that closes it but keeps running gets no 'exit').

function! vigor#_internal#host#name() abort
  return has('nvim') ? 'nvim' : 'vim'
endfunction

function! vigor#_internal#host#version() abort
  if !exists('s:version')
    if has('nvim')
      let s:version = luaeval('(function(v) return v.major .. "." .. v.minor .. "." .. v.patch end)(vim.version())')
    else
      let s:version = printf('%d.%d.%d', v:version / 100, v:version % 100, v:versionlong % 10000)
    endif
  endif
  return s:version
endfunction

function! vigor#_internal#host#platform() abort
  return has('win32') ? 'windows' : has('mac') ? 'mac' : 'linux'
endfunction

" Starts a plugin process, its channel on its stdin and stdout. Returns a
" handle, or throws.
function! vigor#_internal#host#start(cmd, env, callbacks) abort
  " 'group': what the plugin started ends with it (docs/ARCHITECTURE.md,
  " section 1).
  let l:opts = {'rpc': 1, 'group': 1, 'env': a:env, 'err': a:callbacks.stderr, 'exit': a:callbacks.exit}
  if !has('nvim')
    " The pieces of its large messages that Vim holds (api/vim.vim) will
    " never be whole once its channel has closed.
    let l:opts.closed = function('s:vim_closed', [a:env.VIGOR_PLUGIN, a:env.VIGOR_INSTANCE, a:callbacks.closed])
  endif
  return vigor#_internal#job#start(a:cmd, l:opts)
endfunction

function! s:vim_closed(name, instance, Closed) abort
  call vigor#_internal#api#vim#drop(a:name, a:instance)
  call a:Closed()
endfunction

" 1 while the process of a handle runs. (On Vim, job_status() also notices
" an exit, and runs its exit_cb.)
function! vigor#_internal#host#running(handle) abort
  if has('nvim')
    return jobwait([a:handle.job], 0)[0] == -1
  endif
  return job_status(a:handle.job) ==# 'run'
endfunction

if has('nvim')
  function! vigor#_internal#host#stop(handle, kill) abort
    try
      if a:kill
        call jobstop(a:handle.job)
      else
        call chanclose(a:handle.chan)
      endif
    catch
    endtry
  endfunction

  function! vigor#_internal#host#notify(handle, method, params) abort
    call call('rpcnotify', [a:handle.chan, a:method] + a:params)
  endfunction

  " 1 when the channel of {handle} has closed, although its process may
  " still run. Neovim calls nothing when an RPC channel closes under a
  " running process, and its channel info does not change; but chansend()
  " of nothing looks at the stream before it refuses raw data on an RPC
  " channel, and sends nothing either way. (A translated message is not
  " taken for a closed channel: the wait then ends with the process, as
  " without this check.)
  function! vigor#_internal#host#lost(handle) abort
    try
      call chansend(a:handle.chan, '')
    catch /closed stream/
      return 1
    catch /^Vim(\a\+):/
      " The refusal of raw data: the channel is open. (Only an error of
      " the command: CTRL-C, Vim:Interrupt, goes on to stop the wait.)
    endtry
    return 0
  endfunction
else
  function! vigor#_internal#host#stop(handle, kill) abort
    try
      if a:kill
        call job_stop(a:handle.job, 'kill')
      else
        call ch_close_in(a:handle.chan)
      endif
    catch
    endtry
  endfunction

  function! vigor#_internal#host#notify(handle, method, params) abort
    call ch_sendraw(a:handle.chan, json_encode([0, [a:method, a:params]]) . "\n")
  endfunction

  " 1 when the channel of {handle} has closed, although its process may
  " still run: its output is at its end (close_cb waits for stderr too,
  " which a process that keeps running holds).
  function! vigor#_internal#host#lost(handle) abort
    return ch_status(a:handle.chan, {'part': 'out'}) ==# 'closed'
  endfunction
endif

" 1 when the editor may drop what it reads on a plugin's channel, and an
" answer with it, without telling: Vim drops input that is not JSON. Its
" requests then ask their plugin whether it still runs them
" (vigor#_internal#request#probe()).
function! vigor#_internal#host#drops() abort
  return !has('nvim')
endfunction

" Answers to vigor#request(), by token, until the waiting request takes
" them; tokens whose wait ended without an answer, whose late answers are
" dropped.
let s:replies = {}
let s:abandoned = {}

" Called by the plugin (protocol.FuncReply) with [result, error], or on
" Neovim with result and error as two arguments (one level less deep,
" for Neovim's limit on nesting).
function! vigor#_internal#host#reply(token, ...) abort
  if has_key(s:abandoned, a:token)
    unlet s:abandoned[a:token]
    return
  endif
  let s:replies[a:token] = a:0 == 1 ? a:1 : a:000
endfunction

" The answers, for vigor#request(), which waits on them and takes its own.
function! vigor#_internal#host#replies() abort
  return s:replies
endfunction

" Vim only: the requests that asked their plugin whether it still runs
" them (protocol.MethodPending, vigor#_internal#request#probe()), by
" token, and the request_async calls, by success id: -1 until an answer
" comes, then 1 (running) or 0 (answered); 2 once the asker has seen
" "running". A request removes its token when its wait ends, the
" request_async timer the ids of calls that ended; later answers are
" dropped.
let s:probes = {}

" Called by the plugin (protocol.FuncPending): whether it still runs the
" request of {token} (or the request_async call of that success id).
function! vigor#_internal#host#pending(token, running) abort
  if has_key(s:probes, a:token)
    let s:probes[a:token] = a:running ? 1 : 0
  endif
endfunction

function! vigor#_internal#host#probes() abort
  return s:probes
endfunction

" A request that will not take its answer (its wait ended): the answer is
" dropped when it comes.
function! vigor#_internal#host#abandon(token) abort
  let s:abandoned[a:token] = 1
endfunction

" Marks a handle whose process has exited.
function! vigor#_internal#host#closed(handle) abort
  let a:handle.closed = 1
endfunction
