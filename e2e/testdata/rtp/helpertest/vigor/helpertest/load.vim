" Sourced by helper.Load in TestStdHelper: counts its loads.
let g:helpertest_loads = get(g:, 'helpertest_loads', 0) + 1
