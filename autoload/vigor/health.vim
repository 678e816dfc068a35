" The health report: a list of [kind, message] or [kind, message,
" advice], kind one of start, ok, info, warn, error, and advice a List of
" what to do. :checkhealth vigor shows it on Neovim; :Vigor health (and
" vigor#health#show()) echoes it on both editors.
let s:T = has('nvim') ? 'nvim' : 'vim'

function! vigor#health#report() abort
  let l:r = []
  call add(l:r, ['start', 'Vigor'])
  call add(l:r, ['info', printf('editor: %s %s; runtime at %s', vigor#_internal#transport#{s:T}#name(),
        \ vigor#_internal#transport#{s:T}#version(), vigor#_internal#bootstrap#root())])
  if vigor#_internal#conf#get('disabled')
    call add(l:r, ['warn', 'Vigor is disabled (g:vigor#disabled)'])
  endif
  let l:go = vigor#_internal#conf#get('go')
  if executable(l:go)
    call add(l:r, ['ok', printf('Go toolchain: %s (%s)', exepath(l:go), s:go_version(l:go))])
  elseif vigor#_internal#bootstrap#is_ready()
    call add(l:r, ['warn', printf('Go toolchain %s not found: plugins already built still start, but nothing can be built', string(l:go)),
          \ ['install Go 1.22 or newer, or set g:vigor#go']])
  else
    call add(l:r, ['error', printf('Go toolchain %s not found', string(l:go)), ['install Go 1.22 or newer, or set g:vigor#go']])
  endif
  let l:cache = vigor#_internal#conf#cache_dir()
  if empty(l:cache)
    call add(l:r, ['error', 'cache: ' . vigor#_internal#conf#cache_error()])
  else
    call add(l:r, ['info', printf('cache: %s (%s)', l:cache, s:size(l:cache))])
    let l:logs = vigor#_internal#conf#log_dir()
    if empty(l:logs)
      call add(l:r, ['error', 'logs: ' . vigor#_internal#conf#log_error()])
    elseif l:logs !=# l:cache . '/log'
      call add(l:r, ['info', printf('logs: %s (the cache cannot be written)', l:logs)])
    else
      call add(l:r, ['info', 'logs: ' . l:logs])
    endif
  endif
  if !filereadable(vigor#_internal#bootstrap#root() . '/doc/tags')
    call add(l:r, ['warn', printf('no help tags in %s/doc, so :help vigor fails', vigor#_internal#bootstrap#root()),
          \ ['run :helptags ' . fnameescape(vigor#_internal#bootstrap#root()) . '/doc']])
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
  call vigor#_internal#discover#refresh()
  let l:plugins = vigor#_internal#plugin#all()
  if empty(l:plugins)
    call add(l:r, ['info', 'no plugins found (a plugin is a vigor/<name>/ directory on ''runtimepath'')'])
  endif
  let l:stats = s:stats(l:plugins)
  for l:name in sort(keys(l:plugins))
    let l:p = l:plugins[l:name]
    let l:line = vigor#_internal#command#status_line(l:p)
    if l:p.state ==# 'loaded'
      let l:line .= printf('; pid %s', get(get(l:p, 'info', {}), 'pid', '?'))
      let l:st = get(l:stats, l:name, {})
      if !empty(l:st)
        let l:line .= printf('; RSS %.1f MB', l:st.rss_kb / 1024.0)
        if l:st.calls > 0
          let l:line .= printf('; its calls to the editor: p50 %d us, p99 %d us (%d calls)',
                \ l:st.rtt_p50_us, l:st.rtt_p99_us, l:st.calls)
        endif
      endif
    endif
    let l:line .= printf(' (%s; log %s)', l:p.dir, l:p.log)
    let l:missing = vigor#_internal#lazy#missing(l:name)
    if l:p.state ==# 'failed'
      call add(l:r, ['error', l:line, [printf('fix the cause (the log has the details), then :Vigor reload %s', l:name)]])
    elseif !empty(l:missing)
      call add(l:r, ['warn', printf('%s; its setup did not define %s, which its lazy.json declares', l:line, join(l:missing, ', ')),
            \ ['define each of them in its setup, or remove it from lazy.json (see :help vigor-lazy)']])
    else
      call add(l:r, [l:p.state ==# 'loaded' ? 'ok' : 'info', l:line])
    endif
  endfor
  return l:r
endfunction

function! vigor#health#show() abort
  for l:item in vigor#health#report()
    let [l:kind, l:msg] = l:item[: 1]
    let l:hl = get({'start': 'Title', 'warn': 'WarningMsg', 'error': 'ErrorMsg'}, l:kind, 'None')
    execute 'echohl' l:hl
    echomsg (l:kind ==# 'start' ? '## ' : '- ' . toupper(l:kind) . ': ') . l:msg
    echohl None
    for l:advice in get(l:item, 2, [])
      echomsg '  - ADVICE: ' . l:advice
    endfor
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

" The $stats of each loaded plugin (SDK: RSS, its calls' round trips),
" asked of all at once and awaited for up to a second, so that a busy
" plugin does not hold up the report.
function! s:stats(plugins) abort
  let l:got = {}
  let l:asked = 0
  for [l:name, l:p] in items(a:plugins)
    if l:p.state ==# 'loaded'
      let l:asked += 1
      call vigor#request_async(l:name, '$stats', [], function('s:got_stats', [l:got, l:name]),
            \ function('s:got_stats', [l:got, l:name]))
    endif
  endfor
  call vigor#_internal#wait#for(1000, {-> len(l:got) >= l:asked}, 10)
  return filter(l:got, {_, v -> type(v) == v:t_dict && has_key(v, 'rss_kb')})
endfunction

function! s:got_stats(got, name, value) abort
  let a:got[a:name] = a:value
endfunction

" The size of the files under dir, such as "12.3 MB".
function! s:size(dir) abort
  let l:bytes = 0
  let l:todo = [a:dir]
  let l:seen = 0
  while !empty(l:todo) && l:seen < 20000
    let l:d = remove(l:todo, 0)
    try
      let l:entries = readdir(l:d)
    catch /^Vim\%((\a\+)\)\=:E484:/
      " Removed since it was listed: a build that another editor sharing
      " the cache has just finished.
      continue
    endtry
    for l:e in l:entries
      let l:seen += 1
      let l:path = l:d . '/' . l:e
      if isdirectory(l:path)
        call add(l:todo, l:path)
      else
        let l:bytes += max([0, getfsize(l:path)])
      endif
    endfor
  endwhile
  return printf('%.1f MB', l:bytes / 1048576.0)
endfunction
