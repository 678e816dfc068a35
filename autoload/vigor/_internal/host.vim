" Process and channel operations, one set per editor: the plugin
" processes' channels are handled here only. (Other files branch on the
" editor too, for the build jobs, waiting and paths; api/vim.vim is Vim's.)
"
" A handle is a dict: {'job': <job>, 'chan': <channel>}.
" callbacks: {'stderr': {lines -> ...}, 'exit': {status -> ...}}

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

if has('nvim')
  " Starts an RPC job. Returns a handle, or throws.
  function! vigor#_internal#host#start(cmd, env, callbacks) abort
    let l:opts = {
          \ 'rpc': v:true,
          \ 'env': a:env,
          \ 'on_stderr': function('s:nvim_stderr', [a:callbacks, ['']]),
          \ 'on_exit': {_, status, __ -> a:callbacks.exit(status)},
          \}
    let l:id = jobstart(a:cmd, l:opts)
    if l:id <= 0
      throw printf('cannot start %s (jobstart returned %d)', a:cmd[0], l:id)
    endif
    return {'job': l:id, 'chan': l:id}
  endfunction

  function! s:nvim_stderr(callbacks, partial, _job, data, _event) abort
    let l:data = copy(a:data)
    let l:data[0] = a:partial[0] . l:data[0]
    let a:partial[0] = remove(l:data, -1)
    if !empty(l:data)
      call a:callbacks.stderr(l:data)
    endif
  endfunction

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

  function! vigor#_internal#host#request(handle, method, params) abort
    try
      return call('rpcrequest', [a:handle.chan, a:method] + a:params)
    catch /^Vim\%((\a\+)\)\=:\%(Invalid channel\|Error invoking\)/
      throw s:closed(v:exception)
    endtry
  endfunction

  function! vigor#_internal#host#notify(handle, method, params) abort
    call call('rpcnotify', [a:handle.chan, a:method] + a:params)
  endfunction
else
  function! vigor#_internal#host#start(cmd, env, callbacks) abort
    let l:opts = {
          \ 'mode': 'json',
          \ 'err_mode': 'nl',
          \ 'err_cb': {_, line -> a:callbacks.stderr([line])},
          \ 'exit_cb': {_, status -> a:callbacks.exit(status)},
          \ 'close_cb': function('s:vim_closed', [a:env.VIGOR_PLUGIN, a:env.VIGOR_INSTANCE]),
          \ 'env': a:env,
          \ 'noblock': 1,
          \ 'stoponexit': 'term',
          \ 'callback': function('vigor#_internal#api#vim#on_call'),
          \}
    let l:job = job_start(a:cmd, l:opts)
    if job_status(l:job) ==# 'fail'
      throw printf('cannot start %s', a:cmd[0])
    endif
    return {'job': l:job, 'chan': job_getchannel(l:job)}
  endfunction

  " The channel of the plugin process {name} {instance} has closed: its
  " large messages received in part will never be whole.
  function! s:vim_closed(name, instance, _channel) abort
    call vigor#_internal#api#vim#drop(a:name, a:instance)
  endfunction

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

  " A week, as denops does: a call may legitimately run long, and the user
  " can always interrupt the plugin.
  let s:call_timeout = 604800000

  function! vigor#_internal#host#request(handle, method, params) abort
    try
      let l:res = ch_evalexpr(a:handle.chan, [a:method, a:params], {'timeout': s:call_timeout})
    catch /^Vim\%((\a\+)\)\=:E906:/
      throw s:closed(v:exception)
    endtry
    if type(l:res) == v:t_dict && has_key(l:res, '__vigor_chunked__')
      let l:res = vigor#_internal#api#vim#take(l:res.__vigor_chunked__, l:res.n)
    endif
    if type(l:res) != v:t_list
      throw s:closed('no reply')
    endif
    return l:res
  endfunction

  function! vigor#_internal#host#notify(handle, method, params) abort
    call ch_sendraw(a:handle.chan, json_encode([0, [a:method, a:params]]) . "\n")
  endfunction
endif

function! s:closed(detail) abort
  return 'vigor-closed: ' . a:detail
endfunction
