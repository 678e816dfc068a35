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
" Another editor may make it, or any of its parents, at the same moment:
" that is no error. mkdir(path, 'p') is not used, because it fails
" (E739) when another process makes a parent between its check and its
" own mkdir; here each missing directory, from the top down, is made
" alone, and E739 counts only when the directory is still missing.
" Throws 'vigor: cannot make {dir} ({error})' when one cannot be made.
function! vigor#_internal#file#mkdir(path) abort
  if isdirectory(a:path)
    return
  endif
  let l:path = fnamemodify(a:path, ':p')
  let l:todo = []
  while !isdirectory(l:path)
    call insert(l:todo, l:path)
    let l:up = fnamemodify(substitute(l:path, '/\+$', '', ''), ':h')
    if l:up ==# l:path
      break
    endif
    let l:path = l:up
  endwhile
  for l:dir in l:todo
    try
      call mkdir(l:dir, '', 0700)
    catch /^Vim\%((\a\+)\)\=:E739:/
      if !isdirectory(l:dir)
        throw printf('vigor: cannot make %s (%s)', l:dir, v:exception)
      endif
    endtry
  endfor
endfunction
