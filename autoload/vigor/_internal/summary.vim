" The summary of a startup: once every plugin found has loaded or failed,
" one line names the ones that failed, so that a failure seen during the
" builds is not lost under the next progress line. In insert or
" command-line mode it waits until the user leaves that mode.
let s:done = 0
let s:message = ''

" Called when a plugin has loaded or failed.
function! vigor#_internal#summary#settled() abort
  if s:done || vigor#_internal#discover#running()
    return
  endif
  let l:plugins = values(vigor#_internal#plugin#all())
  if empty(l:plugins) || !empty(filter(copy(l:plugins),
        \ {_, p -> index(['reserved', 'building', 'starting'], p.state) >= 0}))
    return
  endif
  let s:done = 1
  let l:failed = sort(map(filter(copy(l:plugins), {_, p -> p.state ==# 'failed'}), {_, p -> p.name}))
  if empty(l:failed)
    return
  endif
  let s:message = printf('%d of %d plugins failed: %s (see %s)', len(l:failed), len(l:plugins),
        \ join(l:failed, ', '), has('nvim') ? ':checkhealth vigor' : ':Vigor health')
  " From a timer: Neovim does not show what an RPC call (the plugin's
  " report that it failed) echoes.
  call timer_start(0, function('s:show_later'))
endfunction

" The summary, once shown or due ('' before).
function! vigor#_internal#summary#message() abort
  return s:message
endfunction

" a:idle: called on SafeState.
function! s:show(idle) abort
  if !empty(vigor#_internal#echo#typing())
    augroup vigor_summary
      autocmd!
      autocmd InsertLeave,CmdlineLeave * ++once call timer_start(50, function('s:show_later'))
    augroup END
    return
  endif
  if !has('nvim')
    call vigor#_internal#echo#error(s:message)
  elseif !a:idle
    " A timer's callback runs in the waits of a command (:sleep, a request
    " waiting for a plugin): wait until Neovim is idle.
    augroup vigor_summary
      autocmd!
      autocmd SafeState * ++once call s:show(1)
    augroup END
  else
    " Scheduled: a message given inside a function would come after
    " "Error detected while processing function ...". At warning level:
    " the scheduled callback may still run inside a command that an RPC
    " request started as Neovim left SafeState (its wait runs it), and an
    " error-level message would be thrown into that command.
    call luaeval('vim.schedule(function() vim.notify(_A, vim.log.levels.WARN) end)', '[vigor] ' . s:message)
  endif
endfunction

function! s:show_later(_timer) abort
  if exists('#vigor_summary')
    autocmd! vigor_summary
  endif
  call s:show(0)
endfunction
