" Starting processes, one way on both editors: the plugin processes
" (transport/vim.vim, transport/nvim.vim) and the build jobs (selfbuild.vim,
" build.vim).

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
"   'late_exit'  1: on Vim, call 'exit' only after the last line of output
"   'closed'     Vim: Funcref(), when the channel has closed, after its last
"                message (close_cb; Vim defers it while a callback runs)
"   'group'      1: the process leads a process group of its own, and
"                whatever is left of that group is ended as soon as it has
"                exited (vigor#_internal#job#end_group()), with any other
"                option ('rpc', 'late_exit'), on both editors
"   'env', 'cwd' as for job_start() and jobstart()
" Lines come without their newline; a last line without one comes too.
" No callback of a job or timer, here or in the callers, is a closure (a
" lambda that uses its function's a: or l: variables): the editors keep
" what job callbacks hold (docs/ARCHITECTURE.md, section 7, quirk 10).

" On Unix both editors start a job in a session of its own (Vim calls
" setsid(), Neovim has libuv do it), so a job leads a process group whose
" id is its pid, and the processes that it starts are in that group unless
" they leave it (a new session or group). The editors signal that group
" when they stop a job (job_stop(), jobstop()) and when they quit, but not
" when the job has exited on its own or was killed from outside: the
" group's other processes would run on, each a leftover of a plugin.
"
" How long the processes of a group have after SIGTERM before SIGKILL: the
" grace after an unload's budget (protocol.UnloadGrace).
let s:GROUP_GRACE = 500
" Ends process group $1 ($2 seconds of grace) once its leader, process $1, has
" exited and been reaped: nothing else can take that number while the group
" has a process, so a live process $1 means that the group is empty and
" the number was given again, to a process that may lead a group of the
" same number: then nothing is signalled.
let s:END_GROUP = 'kill -0 "$1" 2>/dev/null || ! kill -s TERM -- "-$1" 2>/dev/null && exit 0; '
      \ . 'sleep "$2"; kill -0 "$1" 2>/dev/null || kill -s KILL -- "-$1" 2>/dev/null; exit 0'

" Ends what is left of the process group that the exited job {pid} led:
" SIGTERM now, SIGKILL after the grace, each only while no process {pid}
" exists (s:END_GROUP). Neovim signals through libuv; Vim has no kill(),
" and a short-lived sh does it (it outlives Vim quitting in the grace).
" It never throws: it runs in the job's exit callback, before the rest.
function! vigor#_internal#job#end_group(pid) abort
  if a:pid <= 0 || !has('unix')
    return
  endif
  try
    if has('nvim')
      if s:nvim_signal_group(a:pid, 'sigterm')
        call timer_start(s:GROUP_GRACE, function('s:nvim_kill_group', [a:pid]))
      endif
      return
    endif
    call job_start(['/bin/sh', '-c', s:END_GROUP, 'vigor-end-group', string(a:pid), printf('%d.%03d', s:GROUP_GRACE / 1000, s:GROUP_GRACE % 1000)],
          \ {'in_io': 'null', 'out_io': 'null', 'err_io': 'null', 'stoponexit': '',
          \  'exit_cb': function('s:vim_ended')})
  catch
  endtry
endfunction

if has('nvim')
  " Sends {signal} to process group {pid} unless a process {pid} exists;
  " 1 if the group got it.
  function! s:nvim_signal_group(pid, signal) abort
    return luaeval('(function(pid, sig)'
          \ . ' local ok, _, name = vim.uv.kill(pid, 0)'
          \ . ' if ok or name ~= "ESRCH" then return false end'
          \ . ' return vim.uv.kill(-pid, sig) == 0 end)(_A[1], _A[2])', [a:pid, a:signal])
  endfunction

  function! s:nvim_kill_group(pid, _timer) abort
    try
      call s:nvim_signal_group(a:pid, 'sigkill')
    catch
    endtry
  endfunction
else
  " An exit_cb, so that Vim reaps the sh of end_group().
  function! s:vim_ended(_job, _status) abort
  endfunction
endif

if has('nvim')
  " Each job's options and its unfinished lines, by job id, from jobstart()
  " until its exit. Neovim keeps what a job's callbacks hold after the job
  " has gone, and more for partials that hold a Dict than for a plain
  " funcref (BENCHMARKS.md), so the callbacks are one plain funcref,
  " s:nvim_event, and what they need lives here, removed at the exit.
  let s:jobs = {}
  " The options Dict of every jobstart(), empty between calls. Neovim keeps
  " a reference to the options of each job that only its garbage
  " collection frees, and it collects only after 'updatetime' without
  " input: a Dict of its own for each job, with its 'env', would stay in
  " memory until then. One Dict for all jobs, emptied once jobstart() has
  " read it (Neovim has copied the callbacks and the environment), leaves
  " nothing behind. (A start inside a jobstart(), from an autocmd, finds it
  " in use and takes a Dict of its own.)
  let s:jobopts = {}

  function! vigor#_internal#job#start(cmd, opts) abort
    let l:Event = function('s:nvim_event')
    let l:o = empty(s:jobopts) ? s:jobopts : {}
    let l:o.on_exit = l:Event
    if get(a:opts, 'rpc', 0)
      let l:o.rpc = v:true
    endif
    if has_key(a:opts, 'out')
      let l:o.on_stdout = l:Event
    endif
    if has_key(a:opts, 'err')
      let l:o.on_stderr = l:Event
    endif
    call extend(l:o, filter(copy(a:opts), 'v:key ==# "env" || v:key ==# "cwd"'))
    try
      let l:id = jobstart(a:cmd, l:o)
    finally
      call filter(l:o, 0)
    endtry
    if l:id <= 0
      throw printf('cannot start %s (jobstart returned %d)', a:cmd[0], l:id)
    endif
    " (Neovim runs no callback of the job before jobstart() has returned.)
    let s:jobs[l:id] = {'opts': a:opts, 'stdout': '', 'stderr': ''}
    if get(a:opts, 'group', 0)
      let s:jobs[l:id].pid = jobpid(l:id)
    endif
    return {'job': l:id, 'chan': l:id}
  endfunction

  " Neovim hands output over in pieces: the first item of {data} ends the
  " line that the last piece began, and [''] is the end of the stream.
  " Neovim keeps a reference to each {data} List that only its garbage
  " collection frees, as for the options (above): the lines are moved out
  " of it here, so that only the empty List waits for a collection.
  function! s:nvim_event(id, data, event) abort
    let l:job = get(s:jobs, a:id, {})
    if a:event ==# 'exit'
      if !empty(l:job)
        unlet s:jobs[a:id]
        if has_key(l:job, 'pid')
          call vigor#_internal#job#end_group(l:job.pid)
        endif
        " A last line without its newline that is still here when the
        " exit comes is delivered before it.
        for [l:event, l:cb] in [['stdout', 'out'], ['stderr', 'err']]
          if !empty(l:job[l:event]) && has_key(l:job.opts, l:cb)
            call l:job.opts[l:cb]([l:job[l:event]])
          endif
        endfor
        call l:job.opts.exit(a:data)
      endif
      return
    endif
    if empty(l:job) || empty(a:data)
      call filter(a:data, 0)
      return
    endif
    let l:lines = remove(a:data, 0, -1)
    let l:eof = l:lines == ['']
    let l:lines[0] = l:job[a:event] . l:lines[0]
    if l:eof
      let l:job[a:event] = ''
      call filter(l:lines, '!empty(v:val)')
    else
      let l:job[a:event] = remove(l:lines, -1)
    endif
    if !empty(l:lines)
      call l:job.opts[a:event ==# 'stdout' ? 'out' : 'err'](l:lines)
    endif
  endfunction
else
  function! vigor#_internal#job#start(cmd, opts) abort
    let l:o = {'noblock': 1}
    let l:group = get(a:opts, 'group', 0)
    if get(a:opts, 'late_exit', 0)
      let l:o.exit_cb = function('s:vim_late_exit', [a:opts.exit, l:group])
    elseif get(a:opts, 'rpc', 0)
      let l:o.exit_cb = function('s:vim_exit_signal', [a:opts.exit, l:group])
    else
      let l:o.exit_cb = function('s:vim_exit', [a:opts.exit, l:group])
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
    let l:o.close_cb = function('s:vim_closed', [get(a:opts, 'closed', v:null)])
    call extend(l:o, filter(copy(a:opts), 'v:key ==# "env" || v:key ==# "cwd"'))
    let l:job = job_start(a:cmd, l:o)
    if job_status(l:job) ==# 'fail'
      throw printf('cannot start %s', a:cmd[0])
    endif
    return {'job': l:job, 'chan': job_getchannel(l:job)}
  endfunction

  function! s:vim_line(OnLines, _channel, line) abort
    call a:OnLines([a:line])
  endfunction

  " {group}: the 'group' option, in each of these exit_cbs.
  function! s:vim_exit(Exit, group, job, status) abort
    if a:group
      call vigor#_internal#job#end_group(get(job_info(a:job), 'process', 0))
    endif
    call a:Exit(a:status)
  endfunction

  " Vim reports a process that a signal ended as status -1. {group}: the
  " 'group' option.
  function! s:vim_exit_signal(Exit, group, job, status) abort
    if a:group
      call vigor#_internal#job#end_group(get(job_info(a:job), 'process', 0))
    endif
    call a:Exit(a:status, a:status == -1 ? get(job_info(a:job), 'termsig', '') : '')
  endfunction

  " Vim may run exit_cb before the last output callbacks: a busy Vim reads
  " a pipe in pieces, between other callbacks. So the exit is passed on
  " only once both output parts of the channel are "closed" for
  " ch_status(): at their end, with every line delivered. (close_cb would
  " tell too, but Vim defers it while a channel callback runs, and Vigor
  " often waits inside one; ch_status() is true there too.) A part still
  " open after s:LATE_EXIT_POLLS looks, s:LATE_EXIT_POLL ms apart, is held
  " by a process that the command left running: the exit is passed on
  " then, as Neovim does. The looks are counted, not timed: Vim reads the
  " pipes while it waits between two of them, however busy it was before.
  " The timers' callbacks are partials, not lambdas: with a lambda, which
  " keeps its call's scope and so the job, Vim 9.0 never frees the job.
  let s:LATE_EXIT_POLL = 10
  let s:LATE_EXIT_POLLS = 1000

  function! s:vim_late_exit(Exit, group, job, status) abort
    if a:group
      call vigor#_internal#job#end_group(get(job_info(a:job), 'process', 0))
    endif
    call s:vim_exit_when_read(a:Exit, job_getchannel(a:job), a:status, s:LATE_EXIT_POLLS, -1)
  endfunction

  function! s:vim_exit_when_read(Exit, channel, status, left, _timer) abort
    let l:parts = [ch_status(a:channel, {'part': 'out'}), ch_status(a:channel, {'part': 'err'})]
    if index(l:parts, 'buffered') >= 0 || (index(l:parts, 'open') >= 0 && a:left > 0)
      call timer_start(s:LATE_EXIT_POLL, function('s:vim_exit_when_read', [a:Exit, a:channel, a:status, a:left - 1]))
      return
    endif
    call a:Exit(a:status)
  endfunction

  " Vim 9.0 frees a job that nobody holds when it ends, but not when its
  " channel closes after that (as a plugin's does: its exit comes first):
  " such a job stays until a garbage collection, which a busy Vim may not
  " run for a long time. So the channel's close takes
  " the job back, and a timer lets it go once the close is over.
  function! s:vim_closed(Closed, channel) abort
    call timer_start(0, function('s:vim_release', [ch_getjob(a:channel)]))
    if a:Closed isnot v:null
      call a:Closed()
    endif
  endfunction

  " Nothing to do: the end of the timer's partial lets the job go.
  function! s:vim_release(_job, _timer) abort
  endfunction
endif
