" Editor functions that the vhard fixture plugin calls back into: each one
" calls the plugin again (re-entrancy).

function! vhard#reenter(i, ms) abort
  return vigor#request('vhard', 'leaf', [a:i, a:ms])
endfunction

" Keeps in g:hard_notes[key] what leaf answers for i.
function! vhard#note(key, i) abort
  let g:hard_notes[a:key] = vigor#request('vhard', 'leaf', [a:i])
endfunction

function! vhard#deep(n) abort
  return vigor#request('vhard', 'deep', [a:n]) + 1
endfunction

" Once the runtime can see that the channel of vhard is closed (the process
" was killed), sends a request_async and a request: [0, result].
function! vhard#after_crash() abort
  let l:start = reltime()
  while reltimefloat(reltime(l:start)) < 5.0
    let l:h = vigor#_internal#plugin#get('vhard').handle
    if l:h is v:null
      break
    endif
    if has('nvim') ? empty(nvim_get_chan_info(l:h.chan)) : ch_status(l:h.chan) !=# 'open'
      break
    endif
    sleep 1m
  endwhile
  return [vigor#request_async('vhard', 'leaf', [3], {v -> add(g:hard_done, v)}, {e -> add(g:hard_done, e.message)}),
        \ vigor#request('vhard', 'leaf', [2])]
endfunction
