" Resolves a request_async: calls one callback and releases both.
function! vigor#_internal#callback#resolve(success_id, failure_id, ok, value) abort
  call vigor#_internal#outbox#done(a:success_id)
  let [l:call, l:drop] = a:ok ? [a:success_id, a:failure_id] : [a:failure_id, a:success_id]
  call vigor#callback#unregister(l:drop)
  if !vigor#callback#exists(l:call)
    " Already resolved: the runtime failed it when the process went away.
    return
  endif
  try
    call vigor#callback#call(l:call, a:value)
  catch
    call vigor#_internal#echo#error(printf('a request_async callback failed: %s (%s)', v:exception, v:throwpoint))
  endtry
endfunction
