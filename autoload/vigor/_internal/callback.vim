" Resolves a request_async: calls one callback and releases both.
function! vigor#_internal#callback#resolve(success_id, failure_id, ok, value) abort
  let [l:call, l:drop] = a:ok ? [a:success_id, a:failure_id] : [a:failure_id, a:success_id]
  call vigor#callback#unregister(l:drop)
  try
    call vigor#callback#call(l:call, a:value)
  catch
    call vigor#_internal#echo#error(printf('a request_async callback failed: %s (%s)', v:exception, v:throwpoint))
  endtry
endfunction
