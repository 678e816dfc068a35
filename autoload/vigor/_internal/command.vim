" :Vigor {subcommand} [{name}]; :Vigor alone is :Vigor status. :help :Vigor
let s:SUBCOMMANDS = ['health', 'log', 'rebuild', 'reload', 'status']

function! vigor#_internal#command#run(args) abort
  call vigor#_internal#discover#refresh()
  let l:words = split(a:args)
  let l:sub = get(l:words, 0, 'status')
  let l:name = get(l:words, 1, '')
  if len(l:words) > 2 || index(s:SUBCOMMANDS, l:sub) < 0
    call vigor#_internal#echo#error(printf(':Vigor %s: unknown; use :Vigor %s', a:args, join(s:SUBCOMMANDS, ', ')))
    return
  endif
  if index(['rebuild', 'reload'], l:sub) >= 0 || (l:sub ==# 'log' && !empty(l:name))
    if empty(l:name)
      call vigor#_internal#echo#error(printf(':Vigor %s needs a plugin name', l:sub))
      return
    elseif empty(vigor#_internal#plugin#get(l:name))
      let l:near = vigor#_internal#discover#closest(l:name)
      call vigor#_internal#echo#error(printf(':Vigor %s: there is no plugin %s%s', l:sub, l:name,
            \ empty(l:near) ? '' : '; did you mean ' . l:near . '?'))
      return
    endif
  elseif !empty(l:name)
    call vigor#_internal#echo#error(printf(':Vigor %s takes no plugin name', l:sub))
    return
  endif
  call call('s:' . l:sub, [l:name])
endfunction

" Completion: the subcommands, then plugin names.
function! vigor#_internal#command#complete(lead, line, pos) abort
  let l:words = split(a:line[: a:pos - 1], '\s\+', 1)
  if len(l:words) <= 2
    return filter(copy(s:SUBCOMMANDS), {_, s -> stridx(s, a:lead) == 0})
  elseif len(l:words) == 3 && index(['log', 'rebuild', 'reload'], l:words[1]) >= 0
    call vigor#_internal#discover#refresh()
    return filter(sort(keys(vigor#_internal#plugin#all())), {_, s -> stridx(s, a:lead) == 0})
  endif
  return []
endfunction

function! s:health(_name) abort
  call vigor#health#show()
endfunction

function! s:reload(name) abort
  call vigor#plugin#reload(a:name)
endfunction

function! s:rebuild(name) abort
  call vigor#_internal#plugin#rebuild(a:name)
endfunction

" One line per plugin: state, build, load time, restarts, last error.
" Echoed, not kept in :messages: it is asked for, and read at once.
function! s:status(_name) abort
  let l:plugins = vigor#_internal#plugin#all()
  if empty(l:plugins)
    echo '[vigor] no plugins (a plugin is a vigor/<name>/ directory on ''runtimepath'')'
    return
  endif
  for l:name in sort(keys(l:plugins))
    let l:line = vigor#_internal#command#status_line(l:plugins[l:name])
    if l:plugins[l:name].state ==# 'failed'
      echohl ErrorMsg
    endif
    echo l:line
    echohl None
  endfor
endfunction

" name: state; built in 1.2s (or cached); loaded in 15 ms; 1 restart;
" last error: ...
function! vigor#_internal#command#status_line(p) abort
  " (reserved is vigor#plugin#status()'s word, not the user's.)
  let l:parts = [a:p.state ==# 'reserved' ? vigor#_internal#request#doing(a:p) : a:p.state]
  if a:p.build ==# 'built'
    call add(l:parts, printf('built in %.1fs', a:p.build_ms / 1000.0))
  elseif a:p.build ==# 'cached'
    call add(l:parts, 'build cached')
  endif
  if a:p.load_ms >= 0
    call add(l:parts, printf('loaded in %d ms', a:p.load_ms))
  endif
  call add(l:parts, a:p.restarts == 1 ? '1 restart' : a:p.restarts . ' restarts')
  if !empty(a:p.error)
    call add(l:parts, 'last error: ' . a:p.error)
  endif
  return a:p.name . ': ' . join(l:parts, '; ')
endfunction

" Opens the log of name in a window, or a list of every log.
function! s:log(name) abort
  if !empty(a:name)
    let l:log = vigor#_internal#plugin#get(a:name).log
    if !filereadable(l:log)
      call vigor#_internal#echo#warn(printf('%s has no log yet (%s)', a:name, l:log))
      return
    endif
    execute 'split' fnameescape(l:log)
    setlocal readonly nomodifiable autoread
    normal! G
    return
  endif
  new
  let l:dir = vigor#_internal#conf#log_dir()
  let l:lines = [empty(l:dir) ? 'No Vigor logs: ' . vigor#_internal#conf#log_error()
        \ : printf('Vigor logs, in %s (gf opens one):', l:dir)]
  for [l:name, l:p] in sort(items(vigor#_internal#plugin#all()))
    call add(l:lines, l:p.log)
  endfor
  " The vigor command's builds, and its own.
  let l:own = vigor#_internal#conf#log_dir() . '/vigor.log'
  if filereadable(l:own)
    call add(l:lines, l:own)
  endif
  call setline(1, l:lines)
  setlocal buftype=nofile bufhidden=wipe noswapfile nomodified nomodifiable
endfunction
