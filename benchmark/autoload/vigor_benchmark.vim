" The benchmark's editor side. :help vigor-benchmark

" The do-nothing function that the benchmark calls.
function! vigor_benchmark#discard(...) abort
endfunction

function! vigor_benchmark#redraw() abort
  redraw
endfunction

" Opens a scratch buffer and starts the benchmark; the report replaces the
" progress bar when it is done, and User VigorBenchmarkDone fires.
function! vigor_benchmark#start(...) abort
  let l:opts = extend({
        \ 'size': get(g:, 'vigor_benchmark_size', 64),
        \ 'count': get(g:, 'vigor_benchmark_count', 1000),
        \ 'n': get(g:, 'vigor_benchmark_n', 100),
        \ 'progress': v:true,
        \}, a:0 ? a:1 : {})
  tabnew
  setlocal bufhidden=wipe buftype=nofile noswapfile nobuflisted
  file [vigor-benchmark]
  call setline(1, 'Starting vigor-benchmark ...')
  redraw
  call vigor#notify('vigor-benchmark', 'run', [l:opts])
endfunction

" Called by the plugin with the results (or {'error': ...}).
function! vigor_benchmark#done(result) abort
  let g:vigor_benchmark_result = a:result
  if exists('#User#VigorBenchmarkDone')
    doautocmd <nomodeline> User VigorBenchmarkDone
  endif
endfunction
