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
      \ 'vim_calls': 'auto',
      \ 'trace': 0,
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

" How a plugin's calls reach Vim (Vim only): 'callback' (the job's channel
" callback runs them) or 'command' (Vim's channel "call" command runs them
" through a legacy wrapper that catches errors). 'auto' picks 'callback' in
" Ex mode (vim -e/-es: no screen) and 'command' otherwise: Vim redraws after
" every channel callback, and with a screen that redraw costs more than the
" wrapper (BENCHMARKS.md, "Vim calls with a screen").
function! vigor#_internal#conf#vim_calls() abort
  if has('nvim')
    return ''
  endif
  let l:v = vigor#_internal#conf#get('vim_calls')
  if l:v ==# 'callback' || l:v ==# 'command'
    return l:v
  endif
  return mode(1) =~# '^c[ev]$' && !has('gui_running') ? 'callback' : 'command'
endfunction

" 1 if g:vigor#trace asks for the RPC messages of the plugin name: it is 1
" (every plugin), the name, or a List that holds the name.
function! vigor#_internal#conf#traced(name) abort
  let l:t = vigor#_internal#conf#get('trace')
  if type(l:t) == v:t_list
    return index(l:t, a:name) >= 0
  elseif type(l:t) == v:t_string
    return l:t ==# a:name
  endif
  return !empty(l:t)
endfunction
