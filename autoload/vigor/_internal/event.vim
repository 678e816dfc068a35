" User autocmds. Errors in a user's handler are reported, never thrown into
" Vigor's own state changes.
function! vigor#_internal#event#emit(name) abort
  try
    execute 'doautocmd <nomodeline> User' fnameescape(a:name)
  catch
    call vigor#_internal#echo#error(printf('an autocmd for User %s failed: %s', a:name, v:exception))
  endtry
endfunction
