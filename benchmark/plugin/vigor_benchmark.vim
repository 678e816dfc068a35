" :VigorBenchmark measures Vigor's call() and batch() as denops-benchmark
" does, and parallel(): call()'s calls from 8 goroutines at once. Options: g:vigor_benchmark_size (64), g:vigor_benchmark_count
" (1000), g:vigor_benchmark_n (100).
if exists('g:loaded_vigor_benchmark')
  finish
endif
let g:loaded_vigor_benchmark = 1
command! -bar VigorBenchmark call vigor_benchmark#start()
