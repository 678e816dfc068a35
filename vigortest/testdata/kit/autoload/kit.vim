function! kit#twice(n) abort
  return a:n * 2
endfunction
