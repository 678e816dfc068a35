" Plugin lifecycle. :help vigor-plugin-functions
let s:discovered = 0

" Loads the plugin {name} from the directory {dir} (its vigor/{name}/
" directory): builds it if needed, starts it and fires the events. Does
" nothing if it is already loading, loaded or unloading.
function! vigor#plugin#load(name, dir) abort
  call vigor#_internal#plugin#check_name(a:name)
  if vigor#_internal#conf#get('disabled')
    return
  endif
  call vigor#_internal#plugin#load(a:name, fnamemodify(a:dir, ':p:s?[/\\]$??'))
endfunction

" Unloads {name}: its unload hooks run, then its process exits. If it is
" still loading, it is unloaded once it has loaded.
function! vigor#plugin#unload(name) abort
  call vigor#_internal#plugin#check_name(a:name)
  call vigor#_internal#plugin#unload(a:name)
endfunction

" Unloads {name} and loads it again (rebuilding it if its code changed). A
" plugin that failed to load is loaded again.
function! vigor#plugin#reload(name) abort
  call vigor#_internal#plugin#check_name(a:name)
  call vigor#_internal#plugin#reload(a:name)
endfunction

" 1 if {name} has finished loading, successfully or not; 0 otherwise.
function! vigor#plugin#is_loaded(name) abort
  call vigor#_internal#plugin#check_name(a:name)
  return index(['loaded', 'failed'], vigor#_internal#plugin#state(a:name)) >= 0
endfunction

" The state of {name}: 'reserved', 'building', 'starting', 'loaded',
" 'failed', 'unloading', 'stopped', or '' for a plugin Vigor does not know.
function! vigor#plugin#status(name) abort
  call vigor#_internal#plugin#check_name(a:name)
  return vigor#_internal#plugin#state(a:name)
endfunction

" Waits until {name} has loaded. Returns 0 when it is loaded, -1 on
" timeout, -2 when interrupted (Ctrl-C) and -3 when it failed.
" {options}: timeout (ms, default g:vigor#request_timeout), interval (ms),
" silent (no message on timeout or failure).
function! vigor#plugin#wait(name, ...) abort
  call vigor#_internal#plugin#check_name(a:name)
  let l:opts = a:0 ? a:1 : {}
  let l:timeout = get(l:opts, 'timeout', vigor#_internal#conf#get('request_timeout'))
  let l:interval = get(l:opts, 'interval', vigor#_internal#conf#get('wait_interval'))
  let l:silent = get(l:opts, 'silent', 0)
  let l:r = vigor#_internal#wait#for(l:timeout, {-> vigor#plugin#is_loaded(a:name)}, l:interval)
  if l:r == -1
    if !l:silent
      call vigor#_internal#echo#error(printf('%s did not load within %d ms (it is %s)', a:name, l:timeout,
            \ s:describe(vigor#_internal#plugin#state(a:name))))
    endif
    return -1
  elseif l:r == -2
    return -2
  endif
  if vigor#_internal#plugin#state(a:name) ==# 'loaded'
    return 0
  endif
  if !l:silent
    call vigor#_internal#echo#error(printf('%s failed to load: %s', a:name,
          \ get(vigor#_internal#plugin#get(a:name), 'error', '')))
  endif
  return -3
endfunction

function! s:describe(state) abort
  return empty(a:state) ? 'unknown to Vigor' : a:state
endfunction

" Calls {callback} when {name} has loaded (at once if it is loaded). It is
" dropped if the load fails.
function! vigor#plugin#wait_async(name, callback) abort
  call vigor#_internal#plugin#check_name(a:name)
  let l:p = vigor#_internal#plugin#get(a:name)
  if !empty(l:p) && l:p.state ==# 'loaded'
    call a:callback()
    return
  elseif !empty(l:p) && l:p.state ==# 'failed'
    return
  endif
  call vigor#_internal#plugin#add_waiter(a:name, a:callback)
endfunction

" Finds every vigor/{name}/ directory on 'runtimepath' and loads each. The
" first one found for a name wins. Directories with invalid names are
" skipped with a warning.
function! vigor#plugin#discover() abort
  let s:discovered = 1
  if vigor#_internal#conf#get('disabled')
    return
  endif
  let l:seen = {}
  " Names found on disk are read with readdir(), which expands nothing:
  " glob() would run a directory name with backticks through the shell,
  " and take [, *, ? and { in a path for wildcards.
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
      if !vigor#_internal#plugin#valid_name(l:name)
        call vigor#_internal#echo#warn(printf('skipped %s: a plugin name is letters, digits, - and _', l:dir))
        continue
      endif
      call vigor#_internal#plugin#load(l:name, l:dir)
    endfor
  endfor
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

function! vigor#plugin#discovered() abort
  return s:discovered
endfunction
