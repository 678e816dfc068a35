let s:screen = vigor#_internal#echo#screen()

" Waits until a condition holds. Returns 0 when it does, -1 on timeout and
" -2 when the user pressed Ctrl-C. Channel messages and timers keep running
" while it waits.
function! vigor#_internal#wait#for(timeout, Cond, interval) abort
  if a:Cond()
    return 0
  endif
  " A progress line shown during the wait (a build's, from a timer) goes
  " when it ends, unless a message came after it (echo#screen()).
  try
    return s:wait(a:timeout, a:Cond, a:interval)
  finally
    if s:screen.line
      call vigor#_internal#echo#progress_done()
    endif
  endtry
endfunction

function! s:wait(timeout, Cond, interval) abort
  if has('nvim')
    try
      return wait(a:timeout, a:Cond, a:interval)
    catch /^Vim:Interrupt$/
      return -2
    endtry
  endif
  let l:start = reltime()
  let l:sleep = 'sleep ' . max([1, a:interval]) . 'm'
  try
    while !a:Cond()
      if reltimefloat(reltime(l:start)) * 1000 >= a:timeout
        return -1
      endif
      execute l:sleep
    endwhile
  catch /^Vim:Interrupt$/
    return -2
  endtry
  return 0
endfunction
