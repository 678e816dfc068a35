" Plugin lifecycle. :help vigor-plugin-functions

" Loads the plugin {name} from the directory {dir} (its vigor/{name}/
" directory): builds it if needed, starts it and fires the events. Does
" nothing if it is already loading, loaded or unloading.
function! vigor#plugin#load(name, dir) abort
  let l:err = vigor#_internal#name#error(a:name)
  if !empty(l:err)
    throw l:err
  endif
  if type(a:dir) != v:t_string
    throw printf('[vigor] %s: the directory must be a String, not %s', a:name, vigor#_internal#value#article(a:dir))
  endif
  if vigor#_internal#conf#get('disabled')
    return
  endif
  call vigor#_internal#plugin#load(a:name, fnamemodify(a:dir, ':p:s?[/\\]$??'))
endfunction

" Unloads {name}: its unload hooks run, then its process exits. If it is
" still loading, it is unloaded once it has loaded.
function! vigor#plugin#unload(name) abort
  let l:err = vigor#_internal#name#error(a:name)
  if !empty(l:err)
    throw l:err
  endif
  call vigor#_internal#plugin#unload(a:name)
endfunction

" Unloads {name} and loads it again (rebuilding it if its code changed). A
" plugin that failed to load is loaded again.
function! vigor#plugin#reload(name) abort
  let l:err = vigor#_internal#name#error(a:name)
  if !empty(l:err)
    throw l:err
  endif
  call vigor#_internal#plugin#reload(a:name)
endfunction

" 1 if {name} has finished loading, successfully or not; 0 otherwise.
function! vigor#plugin#is_loaded(name) abort
  let l:err = vigor#_internal#name#error(a:name)
  if !empty(l:err)
    throw l:err
  endif
  return index(['loaded', 'failed'], vigor#_internal#plugin#state(a:name)) >= 0
endfunction

" The state of {name}: 'reserved', 'building', 'starting', 'loaded',
" 'failed', 'unloading', 'stopped', or '' for a plugin Vigor does not know.
function! vigor#plugin#status(name) abort
  let l:err = vigor#_internal#name#error(a:name)
  if !empty(l:err)
    throw l:err
  endif
  return vigor#_internal#plugin#state(a:name)
endfunction

" Waits until {name} has loaded. Returns 0 when it is loaded, -1 on
" timeout, -2 when interrupted (Ctrl-C) and -3 when it failed.
" {options}: timeout (ms, default g:vigor#request_timeout), interval (ms),
" silent (no message on timeout or failure).
function! vigor#plugin#wait(name, ...) abort
  let l:err = vigor#_internal#name#error(a:name)
  if !empty(l:err)
    throw l:err
  endif
  let l:opts = a:0 ? a:1 : {}
  if type(l:opts) != v:t_dict
    throw printf('[vigor] %s: the options of vigor#plugin#wait() must be a Dict, not %s', a:name,
          \ vigor#_internal#value#article(l:opts))
  endif
  let l:timeout = get(l:opts, 'timeout', vigor#_internal#conf#get('request_timeout'))
  let l:interval = get(l:opts, 'interval', vigor#_internal#conf#get('wait_interval'))
  let l:silent = get(l:opts, 'silent', 0)
  " (build.vim builds and starts what is waited for first.)
  call vigor#_internal#build#wait_begin(a:name)
  try
    let l:r = s:wait_loaded(a:name, l:timeout, l:interval)
  finally
    call vigor#_internal#build#wait_end(a:name)
  endtry
  if l:r == -1
    if !l:silent
      call vigor#_internal#echo#error(printf('%s did not load within %d ms (it is %s)', a:name, l:timeout,
            \ s:describe(vigor#_internal#plugin#get(a:name))))
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

function! s:describe(p) abort
  return empty(a:p) ? 'unknown to Vigor' : vigor#_internal#request#doing(a:p)
endfunction

" Whether the plugin {name} waits for a compiler (request#compiling()).
function! s:compiling(name) abort
  let l:p = vigor#_internal#plugin#get(a:name)
  return !empty(l:p) && vigor#_internal#request#compiling(l:p)
endfunction

" Waits until {name} has finished loading, as wait#for() does, with the
" time of its build and of the vigor command's not counted towards
" timeout, as for a request (request#wait_coming()).
function! s:wait_loaded(name, timeout, interval) abort
  " The time waited so far that counts towards the timeout.
  let l:counted = 0
  while 1
    let l:compiling = s:compiling(a:name)
    if !l:compiling && l:counted >= a:timeout
      return vigor#plugin#is_loaded(a:name) ? 0 : -1
    endif
    let l:from = reltime()
    " (A build is waited for in long steps: each step's end clears the
    " build's progress line.)
    let l:r = vigor#_internal#wait#for(l:compiling ? 60000 : a:timeout - l:counted,
          \ {-> vigor#plugin#is_loaded(a:name) || s:compiling(a:name) != l:compiling}, a:interval)
    if l:r == -2
      return -2
    elseif vigor#plugin#is_loaded(a:name)
      return 0
    endif
    if !l:compiling
      let l:counted += float2nr(reltimefloat(reltime(l:from)) * 1000)
    endif
  endwhile
endfunction

" Calls {callback} when {name} has loaded (at once if it is loaded). It is
" dropped if the load fails.
function! vigor#plugin#wait_async(name, callback) abort
  let l:err = vigor#_internal#name#error(a:name)
  if !empty(l:err)
    throw l:err
  endif
  if index([v:t_func, v:t_string], type(a:callback)) < 0
    throw printf('[vigor] %s: the callback must be a Funcref or the name of a function, not %s', a:name,
          \ vigor#_internal#value#article(a:callback))
  endif
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
  call vigor#_internal#discover#all()
endfunction

function! vigor#plugin#discovered() abort
  return vigor#_internal#discover#done()
endfunction
