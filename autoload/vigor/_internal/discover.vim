" Discovery: the vigor/{name}/ directories on 'runtimepath'.
" :help vigor-discovery
let s:discovered = 0
" How many discoveries are registering the plugins found (one may run
" inside another: a VigorPluginFail handler that calls
" vigor#plugin#discover()).
let s:running = 0
" 'runtimepath' when the plugins on it were last looked for.
let s:rtp = ''

" Loads every plugin found (vigor#plugin#discover()).
function! vigor#_internal#discover#all() abort
  let s:discovered = 1
  let s:rtp = &runtimepath
  if vigor#_internal#conf#get('disabled')
    return
  endif
  call s:each({name, dir -> vigor#_internal#plugin#state(name) !=# 'lazy'})
endfunction

" Loads each plugin found for which wanted(name, dir) is true. The startup
" summary waits until all are registered: a plugin that fails at once (a
" wrong lazy.json) is not the last one to settle.
function! s:each(wanted) abort
  let s:running += 1
  try
    for [l:name, l:dir] in s:found()
      if a:wanted(l:name, l:dir)
        call s:load(l:name, l:dir)
      endif
    endfor
  finally
    let s:running -= 1
  endtry
  if !empty(filter(values(vigor#_internal#plugin#all()), {_, p -> p.state ==# 'failed'}))
    call vigor#_internal#summary#settled()
  endif
endfunction

function! vigor#_internal#discover#running() abort
  return s:running > 0
endfunction

" Loads the plugin found in dir, or declares it lazy if dir holds
" lazy.json (and it was not known before); a wrong lazy.json fails it.
function! s:load(name, dir) abort
  if empty(vigor#_internal#plugin#get(a:name)) && vigor#_internal#lazy#setup(a:name, a:dir)
    return
  endif
  call vigor#_internal#plugin#load(a:name, a:dir)
endfunction

" Loads the plugins found whose names the registry does not hold yet, such
" as those that :packadd put on 'runtimepath' after startup. Plugins it
" knows are left as they are (a failed one is not retried).
function! vigor#_internal#discover#new() abort
  let s:discovered = 1
  let s:rtp = &runtimepath
  if vigor#_internal#conf#get('disabled')
    return
  endif
  call s:each({name, dir -> empty(vigor#_internal#plugin#get(name))})
endfunction

" After startup's discovery, finds the plugins of a 'runtimepath' that has
" changed since the last look (discover#new()): plugin/vigor.vim calls it
" when a plugin/ file is sourced (:packadd), and what lists the plugins
" (:Vigor status, its completion, the health report) calls it, so that a
" repository with no plugin/ file that :packadd added is listed before its
" first request. One String comparison when nothing changed; s:rtp is the
" only record of the last look.
function! vigor#_internal#discover#refresh() abort
  if s:discovered && &runtimepath !=# s:rtp
    call vigor#_internal#discover#new()
  endif
endfunction

function! vigor#_internal#discover#done() abort
  return s:discovered
endfunction

" [name, dir] of each plugin directory on 'runtimepath', the first one for
" a name. Names found on disk are read with readdir(), which expands
" nothing: glob() would run a directory name with backticks through the
" shell, and take [, *, ? and { in a path for wildcards.
function! s:found() abort
  let l:seen = {}
  let l:found = []
  for l:entry in s:runtimepath()
    let l:root = l:entry . '/vigor'
    if !isdirectory(l:root)
      continue
    endif
    for l:name in readdir(l:root, {n -> isdirectory(l:root . '/' . n)})
      let l:dir = fnamemodify(l:root . '/' . l:name, ':p:s?[/\\]$??')
      if has_key(l:seen, l:name) || empty(readdir(l:dir, {n -> n =~# '\.go$'}))
        continue
      endif
      let l:seen[l:name] = 1
      if !vigor#_internal#name#valid(l:name)
        call vigor#_internal#echo#warn(printf('skipped %s: a plugin name is letters, digits, - and _', l:dir))
        continue
      endif
      call add(l:found, [l:name, l:dir])
    endfor
  endfor
  return l:found
endfunction

" The directories of 'runtimepath', as written (commas separate them, and
" a backslash escapes a comma). An entry that is not a directory but holds
" wildcards is expanded, as Vim does, unless it holds a backtick.
function! s:runtimepath() abort
  let l:dirs = []
  for l:entry in split(&runtimepath, '\\\@<!,')
    let l:entry = substitute(l:entry, '\\,', ',', 'g')
    if isdirectory(l:entry) || l:entry !~# '[*?[{]' || stridx(l:entry, '`') >= 0
      call add(l:dirs, fnamemodify(l:entry, ':p:s?[/\\]$??'))
    else
      let l:dirs += glob(l:entry, 1, 1)
    endif
  endfor
  return l:dirs
endfunction

" The known plugin name closest to name (at most a third of its letters
" differ), or ''.
function! vigor#_internal#discover#closest(name) abort
  let l:best = ''
  let l:best_d = max([1, len(a:name) / 3]) + 1
  for l:known in sort(keys(vigor#_internal#plugin#all()))
    let l:d = s:distance(tolower(a:name), tolower(l:known))
    if l:d < l:best_d
      let [l:best, l:best_d] = [l:known, l:d]
    endif
  endfor
  return l:best
endfunction

" The edit distance of a and b (insertions, deletions, substitutions).
function! s:distance(a, b) abort
  let l:prev = range(len(a:b) + 1)
  for l:i in range(1, len(a:a))
    let l:cur = [l:i]
    for l:j in range(1, len(a:b))
      let l:cost = a:a[l:i - 1] ==# a:b[l:j - 1] ? 0 : 1
      call add(l:cur, min([l:prev[l:j] + 1, l:cur[l:j - 1] + 1, l:prev[l:j - 1] + l:cost]))
    endfor
    let l:prev = l:cur
  endfor
  return l:prev[-1]
endfunction
