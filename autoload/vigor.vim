" Vigor's public API for calling plugins. :help vigor-functions

let s:plugins = vigor#_internal#plugin#all()
let s:none = {'state': ''}

" Calls {method} of plugin {name} with the List {params} and returns the
" result. If the plugin is still building or starting, waits until it is
" ready (up to g:vigor#request_timeout; Ctrl-C stops waiting).
function! vigor#request(name, method, params) abort
  " The fast path: a loaded plugin (its name was checked when it loaded).
  let l:p = get(s:plugins, a:name, s:none)
  if l:p.state !=# 'loaded' || get(g:, 'vigor#disabled', 0)
    let l:p = s:target(a:name, a:method)
    if empty(l:p)
      return 0
    endif
  endif
  try
    let l:res = vigor#_internal#host#request(l:p.handle, a:method, a:params)
  catch /^vigor-closed:/
    throw printf('[vigor] %s.%s: the plugin process closed its channel during the call (it crashed or exited); see :messages and %s',
          \ a:name, a:method, l:p.log)
  endtry
  if type(l:res) != v:t_list || len(l:res) != 2
    throw printf('[vigor] %s.%s: unexpected reply %s', a:name, a:method, string(l:res)[: 100])
  endif
  if l:res[1] isnot v:null
    throw printf('[vigor] %s.%s: %s', a:name, a:method, l:res[1])
  endif
  return l:res[0]
endfunction

" Calls {method} without waiting for a result. Errors are shown as messages.
" A notify to a plugin that is not ready yet is queued and delivered, in
" order, when it is.
function! vigor#notify(name, method, params) abort
  let l:p = s:known(a:name, a:method)
  if empty(l:p)
    return 0
  endif
  call vigor#_internal#plugin#post(l:p, ['notify', a:method, a:params])
  return 0
endfunction

" Calls {method} and returns at once; {success} gets the result, {failure}
" an error object {'name', 'plugin', 'method', 'message'}. The callback
" that is not used is released too.
function! vigor#request_async(name, method, params, success, failure) abort
  let l:p = s:known(a:name, a:method)
  if empty(l:p)
    return 0
  endif
  let l:sid = vigor#callback#register(a:success, {'once': v:true})
  let l:fid = vigor#callback#register(a:failure, {'once': v:true})
  call vigor#_internal#plugin#post(l:p, ['async', l:sid, l:fid, a:method, a:params])
  return 0
endfunction

" Cancels the context of every running handler in every plugin; {reason}
" is optional.
function! vigor#interrupt(...) abort
  call vigor#_internal#plugin#interrupt(a:0 ? a:1 : v:null)
  return 0
endfunction

" The plugin, loaded, for a request; waits while it loads. Throws if it
" cannot be called. Returns {} when Vigor is disabled.
function! s:target(name, method) abort
  let l:p = s:known(a:name, a:method)
  if empty(l:p) || l:p.state ==# 'loaded'
    return l:p
  endif
  let l:timeout = vigor#_internal#conf#get('request_timeout')
  let l:r = vigor#_internal#wait#for(l:timeout,
        \ {-> !vigor#_internal#plugin#is_coming(l:p)},
        \ vigor#_internal#conf#get('wait_interval'))
  if l:r == -1
    throw printf('[vigor] %s.%s: the plugin was not ready within %d ms (it is still %s; g:vigor#request_timeout)',
          \ a:name, a:method, l:timeout, l:p.state)
  elseif l:r == -2
    throw printf('[vigor] %s.%s: interrupted while waiting for the plugin to start', a:name, a:method)
  endif
  call s:check_state(l:p, a:method)
  return l:p
endfunction

" The registry entry of a plugin that can take calls now or later. Throws
" for invalid names, unknown, failed and unloaded plugins.
function! s:known(name, method) abort
  call vigor#_internal#plugin#check_name(a:name)
  if vigor#_internal#conf#get('disabled')
    return {}
  endif
  let l:p = vigor#_internal#plugin#get(a:name)
  if empty(l:p) && !vigor#plugin#discovered()
    call vigor#plugin#discover()
    let l:p = vigor#_internal#plugin#get(a:name)
  endif
  if empty(l:p)
    throw printf('[vigor] %s.%s: there is no plugin %s (no vigor/%s/ directory on ''runtimepath'')',
          \ a:name, a:method, a:name, a:name)
  endif
  if !vigor#_internal#plugin#is_coming(l:p)
    call s:check_state(l:p, a:method)
  endif
  return l:p
endfunction

function! s:check_state(p, method) abort
  if a:p.state ==# 'loaded'
    return
  elseif a:p.state ==# 'failed'
    throw printf('[vigor] %s.%s: the plugin failed to load: %s', a:p.name, a:method, a:p.error)
  elseif a:p.state ==# 'unloading'
    throw printf('[vigor] %s.%s: the plugin is being unloaded', a:p.name, a:method)
  else
    throw printf('[vigor] %s.%s: the plugin is not loaded (it was unloaded); load it with vigor#plugin#load() or vigor#plugin#reload()',
          \ a:p.name, a:method)
  endif
endfunction
