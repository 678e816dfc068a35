" Files and directories that the runtime makes for logs: only the user
" may read them (they can hold what plugins and builds print).

" Appends lines to the log file path; a new file is made 0600.
function! vigor#_internal#file#log(path, lines) abort
  let l:new = !filereadable(a:path)
  call writefile(a:lines, a:path, 'a')
  if l:new
    call setfperm(a:path, 'rw-------')
  endif
endfunction

" Makes the directory path (and its parents) 0700 if it is missing.
" Another editor may make it at the same moment: that is no error.
function! vigor#_internal#file#mkdir(path) abort
  if isdirectory(a:path)
    return
  endif
  try
    call mkdir(a:path, 'p', 0700)
  catch /^Vim\%((\a\+)\)\=:E739:/
    if !isdirectory(a:path)
      throw v:exception
    endif
  endtry
endfunction
