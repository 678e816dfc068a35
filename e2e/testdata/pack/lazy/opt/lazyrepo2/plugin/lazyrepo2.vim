" A plugin file, as most plugin repositories have: :packadd sources it.
let g:lazyrepo2_sourced = 1
