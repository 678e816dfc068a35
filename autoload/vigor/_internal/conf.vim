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

" The cache: built programs and logs. It is an absolute path that the
" user's settings name: g:vigor#cache_dir, else the user's cache directory
" ($XDG_CACHE_HOME, or ~/.cache) with vigor in it. When there is none, it
" is '' and cache_error() says why: a relative path would be found from
" the current directory, where anybody may have put a program of the name
" that the runtime runs.
function! vigor#_internal#conf#cache_dir() abort
  return s:cache()[0]
endfunction

" Why there is no cache directory, or ''.
function! vigor#_internal#conf#cache_error() abort
  return s:cache()[1]
endfunction

function! s:cache() abort
  let l:dir = vigor#_internal#conf#get('cache_dir')
  if !empty(l:dir)
    let l:d = type(l:dir) == v:t_string ? expand(l:dir) : ''
    if !s:absolute(l:d)
      return ['', printf('g:vigor#cache_dir is %s, not an absolute path: set it to a directory of your own, such as ''~/.cache/vigor''; see :help vigor-cache',
            \ string(l:dir))]
    endif
    return [s:trim(simplify(l:d)), '']
  endif
  let l:base = s:user_dir('cache', 'XDG_CACHE_HOME', '.cache')
  if empty(l:base)
    return ['', 'no cache directory: neither $XDG_CACHE_HOME nor $HOME is an absolute path; set g:vigor#cache_dir to a directory of your own; see :help vigor-cache']
  endif
  return [l:base . '/vigor', '']
endfunction

" The user's directory of a kind ('cache', 'state'), from the environment:
" ${xdg}, or $HOME/{home} when ${xdg} is not an absolute path (the XDG
" rule), with Neovim's name in it on Neovim (stdpath()); '' when the
" environment names no absolute one. Neovim's stdpath() is used when it is
" in one of them: it is relative when ${xdg} is (or is empty), and made
" from the current directory when $HOME is empty.
function! s:user_dir(kind, xdg, home) abort
  let l:xdg = eval('$' . a:xdg)
  if has('nvim')
    let l:d = stdpath(a:kind)
    for l:base in [l:xdg, $HOME]
      if s:absolute(l:base) && s:inside(l:d, l:base)
        return l:d
      endif
    endfor
    if has('win32') && s:absolute(l:d)
      return l:d
    endif
  endif
  let l:app = has('nvim') ? '/' . (empty($NVIM_APPNAME) ? 'nvim' : $NVIM_APPNAME) : ''
  if s:absolute(l:xdg)
    return s:trim(l:xdg) . l:app
  elseif s:absolute($HOME)
    return s:trim($HOME) . '/' . a:home . l:app
  endif
  return ''
endfunction

" {path} without the separators that end it (/ stays /).
function! s:trim(path) abort
  return substitute(a:path, '.\zs[/\\]\+$', '', '')
endfunction

function! s:absolute(path) abort
  return type(a:path) == v:t_string && !empty(a:path) && isabsolutepath(a:path)
endfunction

" Whether {path} is {base} or inside it.
function! s:inside(path, base) abort
  let l:base = s:trim(a:base)
  return a:path ==# l:base || stridx(a:path, l:base =~# '[/\\]$' ? l:base : l:base . '/') == 0
        \ || (has('win32') && stridx(a:path, l:base . '\') == 0)
endfunction

" The directory of the logs: {cache}/log, or, when that cannot be made or
" written (a cache that a package installed read-only), vigor/log in the
" user's state directory (stdpath('state') on Neovim, $XDG_STATE_HOME or
" ~/.local/state on Vim). '' when neither can be: log_error() says why.
" The choice is made once for each cache directory (it makes the
" directory); a failed one is tried again on the next call.
let s:log = {'cache': '', 'dir': ''}

function! vigor#_internal#conf#log_dir() abort
  let l:cache = vigor#_internal#conf#cache_dir()
  if empty(l:cache)
    return ''
  endif
  if s:log.cache !=# l:cache || empty(s:log.dir)
    let s:log = {'cache': l:cache, 'dir': ''}
    for l:dir in s:log_dirs(l:cache)
      if s:writable_dir(l:dir)
        let s:log.dir = l:dir
        break
      endif
    endfor
  endif
  return s:log.dir
endfunction

" Why there is no log directory, or ''.
function! vigor#_internal#conf#log_error() abort
  if !empty(vigor#_internal#conf#log_dir())
    return ''
  endif
  let l:err = vigor#_internal#conf#cache_error()
  if !empty(l:err)
    return l:err
  endif
  let l:dirs = s:log_dirs(vigor#_internal#conf#cache_dir())
  let l:state = len(l:dirs) > 1 ? ' nor ' . l:dirs[1]
        \ : ' (and neither $XDG_STATE_HOME nor $HOME is an absolute path for the state directory)'
  return printf('cannot write the logs: neither %s%s can be made and written; make one of them writable, or set g:vigor#cache_dir to a directory of your own; see :help vigor-log',
        \ l:dirs[0], l:state)
endfunction

" Where the logs may go, in order.
function! s:log_dirs(cache) abort
  let l:state = s:user_dir('state', 'XDG_STATE_HOME', '.local/state')
  return [a:cache . '/log'] + (empty(l:state) ? [] : [l:state . '/vigor/log'])
endfunction

" Makes {dir} (0700) if it is missing; whether it is a directory that can
" be written then.
function! s:writable_dir(dir) abort
  try
    call vigor#_internal#file#mkdir(a:dir)
  catch
  endtry
  return isdirectory(a:dir) && filewritable(a:dir) == 2
endfunction

" The log file of the plugin {name}, or '' without a log directory.
function! vigor#_internal#conf#log_file(name) abort
  let l:dir = vigor#_internal#conf#log_dir()
  return empty(l:dir) ? '' : l:dir . '/' . a:name . '.log'
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
