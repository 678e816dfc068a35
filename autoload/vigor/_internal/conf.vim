" Options, with their defaults. Each is read when it is used, so a change
" takes effect at once. :help vigor-options documents them.
let s:defaults = {
      \ 'disabled': 0,
      \ 'go': 'go',
      \ 'debug': 0,
      \ 'request_timeout': 30000,
      \ 'wait_interval': 10,
      \ 'start_timeout': 10000,
      \ 'unload_timeout': 3000,
      \ 'restart_delay': 100,
      \ 'restart_interval': 10000,
      \ 'restart_threshold': 3,
      \ 'cache_dir': '',
      \ 'build_progress': 1,
      \ '_test': 0,
      \}

function! vigor#_internal#conf#get(name) abort
  return get(g:, 'vigor#' . a:name, s:defaults[a:name])
endfunction

" The cache: built binaries and logs.
function! vigor#_internal#conf#cache_dir() abort
  let l:dir = vigor#_internal#conf#get('cache_dir')
  if !empty(l:dir)
    return fnamemodify(expand(l:dir), ':p:s?[/\\]$??')
  endif
  if has('nvim')
    return stdpath('cache') . '/vigor'
  endif
  let l:base = empty($XDG_CACHE_HOME) ? expand('~/.cache') : $XDG_CACHE_HOME
  return l:base . '/vigor'
endfunction

function! vigor#_internal#conf#log_dir() abort
  return vigor#_internal#conf#cache_dir() . '/log'
endfunction

function! vigor#_internal#conf#mode() abort
  if vigor#_internal#conf#get('_test')
    return 'test'
  endif
  return vigor#_internal#conf#get('debug') ? 'debug' : 'release'
endfunction
