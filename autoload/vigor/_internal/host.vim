" Plugin processes and their channels, one set of operations per editor:
" the plugin processes' channels are handled here only. job.vim starts the
" processes (and the build jobs). (Other files branch on the editor too,
" for waiting and paths; api/vim.vim is Vim's.)
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

" Starts a plugin process, its channel on its stdin and stdout. Returns a
" handle, or throws.
function! vigor#_internal#host#start(cmd, env, callbacks) abort
  let l:opts = {'rpc': 1, 'env': a:env, 'err': a:callbacks.stderr, 'exit': a:callbacks.exit}
  if !has('nvim')
    " The pieces of its large messages that Vim holds (api/vim.vim) will
    " never be whole once its channel has closed.
    let l:opts.closed = function('vigor#_internal#api#vim#drop', [a:env.VIGOR_PLUGIN, a:env.VIGOR_INSTANCE])
  endif
  return vigor#_internal#job#start(a:cmd, l:opts)
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
