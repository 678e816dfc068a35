" Starting processes, one way on both editors: the plugin processes
" (host.vim) and the build jobs (bootstrap.vim, build.vim).

" Starts {cmd} (a List) and returns {'job': job, 'chan': channel}, or
" throws. {opts}:
"   'rpc'        1: stdin and stdout are the plugin's channel, msgpack-RPC
"                on Neovim, on Vim a JSON channel whose callback runs the
"                plugin's calls (api#vim#on_call)
"   'out'        Funcref(lines) for the lines of stdout (not with 'rpc')
"   'err'        Funcref(lines) for the lines of stderr
"   'exit'       Funcref(status), when the process has exited; with 'rpc',
"                on Vim, Funcref(status, signal): the name of the signal
"                that ended it (job_info()'s "termsig", e.g. "KILL"), or ''
"   'late_exit'  1: on Vim, call 'exit' 30 ms later, after the last output
"   'closed'     Vim: Funcref(), when the channel has closed, after its last
"                message (close_cb; Vim defers it while a callback runs)
"   'env', 'cwd' as for job_start() and jobstart()
" Lines come without their newline; a last line without one comes too.
if has('nvim')
  function! vigor#_internal#job#start(cmd, opts) abort
    let l:o = {'on_exit': function('s:nvim_exit', [a:opts.exit])}
    if get(a:opts, 'rpc', 0)
      let l:o.rpc = v:true
    endif
    if has_key(a:opts, 'out')
      let l:o.on_stdout = function('s:nvim_lines', [a:opts.out, ['']])
    endif
    if has_key(a:opts, 'err')
      let l:o.on_stderr = function('s:nvim_lines', [a:opts.err, ['']])
    endif
    call extend(l:o, filter(copy(a:opts), {k -> k ==# 'env' || k ==# 'cwd'}))
    let l:id = jobstart(a:cmd, l:o)
    if l:id <= 0
      throw printf('cannot start %s (jobstart returned %d)', a:cmd[0], l:id)
    endif
    return {'job': l:id, 'chan': l:id}
  endfunction

  function! s:nvim_exit(Exit, _job, status, _event) abort
    call a:Exit(a:status)
  endfunction

  " Neovim hands output over in pieces: the first item of {data} ends the
  " line that the last one began ({partial}), and ['']  is the end of the
  " stream.
  function! s:nvim_lines(OnLines, partial, _job, data, _event) abort
    let l:lines = copy(a:data)
    let l:lines[0] = a:partial[0] . l:lines[0]
    if a:data == ['']
      let a:partial[0] = ''
      call filter(l:lines, '!empty(v:val)')
    else
      let a:partial[0] = remove(l:lines, -1)
    endif
    if !empty(l:lines)
      call a:OnLines(l:lines)
    endif
  endfunction
else
  function! vigor#_internal#job#start(cmd, opts) abort
    let l:o = {'noblock': 1}
    if get(a:opts, 'late_exit', 0)
      let l:o.exit_cb = function('s:vim_late_exit', [a:opts.exit])
    elseif get(a:opts, 'rpc', 0)
      let l:o.exit_cb = function('s:vim_exit_signal', [a:opts.exit])
    else
      let l:o.exit_cb = function('s:vim_exit', [a:opts.exit])
    endif
    if get(a:opts, 'rpc', 0)
      call extend(l:o, {
            \ 'mode': 'json',
            \ 'err_mode': 'nl',
            \ 'stoponexit': 'term',
            \ 'callback': function('vigor#_internal#api#vim#on_call'),
            \})
    endif
    if has_key(a:opts, 'out')
      let l:o.out_cb = function('s:vim_line', [a:opts.out])
    endif
    if has_key(a:opts, 'err')
      let l:o.err_cb = function('s:vim_line', [a:opts.err])
    endif
    if has_key(a:opts, 'closed')
      let l:o.close_cb = function('s:vim_closed', [a:opts.closed])
    endif
    call extend(l:o, filter(copy(a:opts), {k -> k ==# 'env' || k ==# 'cwd'}))
    let l:job = job_start(a:cmd, l:o)
    if job_status(l:job) ==# 'fail'
      throw printf('cannot start %s', a:cmd[0])
    endif
    return {'job': l:job, 'chan': job_getchannel(l:job)}
  endfunction

  function! s:vim_line(OnLines, _channel, line) abort
    call a:OnLines([a:line])
  endfunction

  function! s:vim_exit(Exit, _job, status) abort
    call a:Exit(a:status)
  endfunction

  " Vim reports a process that a signal ended as status -1.
  function! s:vim_exit_signal(Exit, job, status) abort
    call a:Exit(a:status, a:status == -1 ? get(job_info(a:job), 'termsig', '') : '')
  endfunction

  " Vim may run exit_cb before the last output callbacks; give them a
  " moment. (close_cb would be exact, but Vim defers it while a callback is
  " running, and Vigor often waits inside one.)
  function! s:vim_late_exit(Exit, _job, status) abort
    call timer_start(30, {-> a:Exit(a:status)})
  endfunction

  function! s:vim_closed(Closed, _channel) abort
    call a:Closed()
  endfunction
endif
