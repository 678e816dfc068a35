" The health report: a list of [kind, message], kind one of start, ok,
" info, warn, error. :checkhealth vigor shows it on Neovim;
" :call vigor#health#show() echoes it on both editors.
function! vigor#health#report() abort
  let l:r = []
  call add(l:r, ['start', 'Vigor'])
  call add(l:r, ['info', printf('editor: %s %s; runtime at %s', vigor#_internal#host#name(),
        \ vigor#_internal#host#version(), vigor#_internal#bootstrap#root())])
  if vigor#_internal#conf#get('disabled')
    call add(l:r, ['warn', 'Vigor is disabled (g:vigor#disabled)'])
  endif
  let l:go = vigor#_internal#conf#get('go')
  if executable(l:go)
    call add(l:r, ['ok', printf('Go toolchain: %s (%s)', exepath(l:go), s:go_version(l:go))])
  elseif vigor#_internal#bootstrap#is_ready()
    call add(l:r, ['warn', printf('Go toolchain %s not found: plugins already built still start, but nothing can be built; install Go 1.22 or newer, or set g:vigor#go', string(l:go))])
  else
    call add(l:r, ['error', printf('Go toolchain %s not found: install Go 1.22 or newer, or set g:vigor#go', string(l:go))])
  endif
  call add(l:r, ['info', 'cache: ' . vigor#_internal#conf#cache_dir()])
  if !filereadable(vigor#_internal#bootstrap#root() . '/doc/tags')
    call add(l:r, ['warn', printf('no help tags in %s/doc, so :help vigor fails: run :helptags %s/doc',
          \ vigor#_internal#bootstrap#root(), fnameescape(vigor#_internal#bootstrap#root()))])
  endif
  let l:state = vigor#_internal#bootstrap#state()
  if l:state ==# 'ready'
    call add(l:r, ['ok', 'vigor command: ' . vigor#_internal#bootstrap#vigor()])
  elseif l:state ==# 'failed'
    call add(l:r, ['error', 'vigor command: ' . vigor#_internal#bootstrap#error()])
  else
    call add(l:r, ['info', 'vigor command: ' . l:state])
  endif
  call add(l:r, ['start', 'Vigor plugins'])
  let l:plugins = vigor#_internal#plugin#all()
  if empty(l:plugins)
    call add(l:r, ['info', 'no plugins found (a plugin is a vigor/<name>/ directory on ''runtimepath'')'])
  endif
  for l:name in sort(keys(l:plugins))
    let l:p = l:plugins[l:name]
    let l:line = printf('%s: %s (%s; log %s)', l:name, l:p.state, l:p.dir, l:p.log)
    if l:p.state ==# 'loaded'
      call add(l:r, ['ok', l:line . printf(', pid %s', get(get(l:p, 'info', {}), 'pid', '?'))])
    elseif l:p.state ==# 'failed'
      call add(l:r, ['error', l:line . ': ' . l:p.error])
    else
      call add(l:r, ['info', l:line])
    endif
  endfor
  return l:r
endfunction

function! vigor#health#show() abort
  for [l:kind, l:msg] in vigor#health#report()
    let l:hl = get({'start': 'Title', 'warn': 'WarningMsg', 'error': 'ErrorMsg'}, l:kind, 'None')
    execute 'echohl' l:hl
    echomsg (l:kind ==# 'start' ? '## ' : '- ' . toupper(l:kind) . ': ') . l:msg
    echohl None
  endfor
endfunction

function! s:go_version(go) abort
  if !exists('s:go_versions')
    let s:go_versions = {}
  endif
  if !has_key(s:go_versions, a:go)
    let s:go_versions[a:go] = trim(system(shellescape(a:go) . ' env GOVERSION'))
  endif
  return s:go_versions[a:go]
endfunction
