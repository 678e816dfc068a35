" Editor functions that the vbatch fixture plugin calls in its batches:
" each one calls the plugin again (re-entrancy).

function! vbatch#reenter(i) abort
  return vigor#request('vbatch', 'leaf', [a:i])
endfunction

function! vbatch#abs(x) abort
  if type(a:x) != v:t_number
    throw 'vbatch#abs: not a Number: ' . string(a:x)
  endif
  return abs(a:x)
endfunction
