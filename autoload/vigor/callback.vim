" Editor-side callbacks that plugins can call by id. :help vigor-callback

let s:registry = {}
let s:next = 0

" Registers {callback} and returns its id (a String). With {'once': v:true}
" it is released after its first call.
function! vigor#callback#register(callback, ...) abort
  let l:opts = a:0 ? a:1 : {}
  let s:next += 1
  let l:id = 'vigor:' . s:next
  let s:registry[l:id] = {'callback': a:callback, 'once': get(l:opts, 'once', 0)}
  return l:id
endfunction

" Releases the callback {id}; nothing happens if there is none.
function! vigor#callback#unregister(id) abort
  if has_key(s:registry, a:id)
    call remove(s:registry, a:id)
  endif
endfunction

" Calls the callback {id} with the remaining arguments and returns what it
" returns. Throws if there is no such callback.
function! vigor#callback#call(id, ...) abort
  if !has_key(s:registry, a:id)
    throw printf('[vigor] there is no callback %s (it was released or never registered)', a:id)
  endif
  let l:entry = s:registry[a:id]
  if l:entry.once
    call remove(s:registry, a:id)
  endif
  return call(l:entry.callback, a:000)
endfunction

" Releases every callback.
function! vigor#callback#clear() abort
  let s:registry = {}
endfunction

" The number of registered callbacks (for tests and :checkhealth).
function! vigor#callback#count() abort
  return len(s:registry)
endfunction

" 1 if the callback {id} is registered.
function! vigor#callback#exists(id) abort
  return has_key(s:registry, a:id)
endfunction
