" The editor's side of std/buffer: each function is one call from Go. A
" buffer number 0 is the current buffer; one that does not exist throws
" "no buffer N". Names and words that reach :execute here have been checked
" on the Go side (opener, modifiers, ++opt arguments); a file name goes
" through fnameescape().

function! s:buf(bufnr) abort
  let l:bufnr = a:bufnr == 0 ? bufnr('%') : a:bufnr
  if !bufexists(l:bufnr)
    throw 'no buffer ' . a:bufnr
  endif
  return l:bufnr
endfunction

function! vigor#_internal#buffer#open(name, opener, mods, cmdarg, bang) abort
  execute a:mods a:opener . (a:bang ? '!' : '') a:cmdarg fnameescape(a:name)
  return {'bufnr': bufnr('%'), 'winid': win_getid(), 'tabnr': tabpagenr()}
endfunction

" enter() makes bufnr current, in the window of the current tab page that
" shows it or else in the current window, and returns what leave() needs to
" restore the window and buffer. Both buffers get 'bufhidden' "hide" while
" they are switched, so that a modified one is hidden instead of refused
" (E37), and get their 'bufhidden' and 'buflisted' back after.
function! vigor#_internal#buffer#enter(bufnr) abort
  let l:bufnr = s:buf(a:bufnr)
  let l:state = {'winid': win_getid(), 'bufnr': bufnr('%'), 'target': 0}
  if l:bufnr == l:state.bufnr
    return l:state
  endif
  let l:winid = bufwinid(l:bufnr)
  if l:winid != -1
    call win_gotoid(l:winid)
    return l:state
  endif
  let l:state.target = l:bufnr
  let l:state.saved = s:hide([l:state.bufnr, l:bufnr])
  try
    execute 'keepjumps keepalt buffer' l:bufnr
  catch
    call s:unhide(l:state.saved)
    throw v:exception
  endtry
  return l:state
endfunction

function! vigor#_internal#buffer#leave(state) abort
  if win_getid() != a:state.winid
    call win_gotoid(a:state.winid)
  endif
  if a:state.target == 0
    return
  endif
  try
    if bufnr('%') == a:state.target && bufexists(a:state.bufnr)
      execute 'keepjumps keepalt buffer' a:state.bufnr
    endif
  finally
    call s:unhide(a:state.saved)
  endtry
endfunction

function! s:hide(bufnrs) abort
  let l:saved = []
  for l:b in a:bufnrs
    call add(l:saved, [l:b, getbufvar(l:b, '&bufhidden'), getbufvar(l:b, '&buflisted')])
    call setbufvar(l:b, '&bufhidden', 'hide')
  endfor
  return l:saved
endfunction

function! s:unhide(saved) abort
  for [l:b, l:bufhidden, l:buflisted] in a:saved
    if bufexists(l:b)
      call setbufvar(l:b, '&bufhidden', l:bufhidden)
      call setbufvar(l:b, '&buflisted', l:buflisted)
    endif
  endfor
endfunction

function! vigor#_internal#buffer#reload(bufnr) abort
  let l:state = vigor#_internal#buffer#enter(a:bufnr)
  try
    edit
  finally
    call vigor#_internal#buffer#leave(l:state)
  endtry
endfunction

" modifiable() sets 'modifiable' of bufnr to on and returns what it was.
function! vigor#_internal#buffer#modifiable(bufnr, on) abort
  let l:bufnr = s:buf(a:bufnr)
  let l:was = getbufvar(l:bufnr, '&modifiable') ? v:true : v:false
  call setbufvar(l:bufnr, '&modifiable', a:on ? 1 : 0)
  return l:was
endfunction

function! s:load(bufnr) abort
  let l:bufnr = s:buf(a:bufnr)
  if !bufloaded(l:bufnr)
    call bufload(l:bufnr)
  endif
  return l:bufnr
endfunction

" s:undo_break() makes the change that follows a step of its own in the
" undo of the current buffer: without it, Vim joins the changes of calls
" that no typed key separates into one (:help undo-break).
function! s:undo_break(bufnr) abort
  if a:bufnr == bufnr('%')
    let &g:undolevels = &g:undolevels
  endif
endfunction

function! vigor#_internal#buffer#replace(bufnr, lines) abort
  let l:bufnr = s:load(a:bufnr)
  call s:undo_break(l:bufnr)
  let l:was = vigor#_internal#buffer#modifiable(l:bufnr, 1)
  try
    if empty(a:lines)
      silent call deletebufline(l:bufnr, 1, '$')
      return
    endif
    if setbufline(l:bufnr, 1, a:lines)
      throw 'setbufline() failed'
    endif
    if getbufinfo(l:bufnr)[0].linecount > len(a:lines)
      silent call deletebufline(l:bufnr, len(a:lines) + 1, '$')
    endif
  finally
    call setbufvar(l:bufnr, '&modifiable', l:was)
  endtry
endfunction

" assign() replaces the lines of bufnr and sets its 'fileencoding',
" 'fileformat' and 'bomb', as if it had been read from a file.
function! vigor#_internal#buffer#assign(bufnr, lines, fenc, ff, bomb) abort
  call vigor#_internal#buffer#replace(a:bufnr, a:lines)
  let l:bufnr = s:buf(a:bufnr)
  " The options, like the lines, are refused in a 'nomodifiable' buffer.
  let l:was = vigor#_internal#buffer#modifiable(l:bufnr, 1)
  try
    call setbufvar(l:bufnr, '&fileencoding', a:fenc)
    call setbufvar(l:bufnr, '&fileformat', a:ff)
    call setbufvar(l:bufnr, '&bomb', a:bomb ? 1 : 0)
  finally
    call setbufvar(l:bufnr, '&modifiable', l:was)
  endtry
endfunction

function! vigor#_internal#buffer#append(bufnr, after, lines) abort
  let l:bufnr = s:load(a:bufnr)
  let l:after = a:after < 0 ? getbufinfo(l:bufnr)[0].linecount : a:after
  call s:undo_break(l:bufnr)
  let l:was = vigor#_internal#buffer#modifiable(l:bufnr, 1)
  try
    if appendbufline(l:bufnr, l:after, a:lines)
      throw 'line ' . a:after . ' is not in the buffer'
    endif
  finally
    call setbufvar(l:bufnr, '&modifiable', l:was)
  endtry
endfunction

" decode() converts data (a String, or on Vim a List of byte values) to
" UTF-8 with iconv() from the first of encs (or of 'fileencodings' when
" encs is empty) that converts it, and returns [encoding, text], or ['', '']
" when none does. iconv() returns "" when it fails, and the String as it
" was for an encoding it does not know: data that is not ASCII (Go has
" found it is not UTF-8) and comes back as it was has not been converted.
function! vigor#_internal#buffer#decode(data, encs) abort
  let l:text = type(a:data) == v:t_list
        \ ? join(map(copy(a:data), {_, b -> printf('%c', b)}), '')
        \ : a:data
  let l:encs = empty(a:encs)
        \ ? filter(split(&fileencodings, ','), {_, e -> index(['ucs-bom', 'utf-8', 'utf8', 'default'], e) < 0})
        \ : a:encs
  for l:enc in l:encs
    let l:out = iconv(l:text, l:enc, 'utf-8')
    if (l:out !=# '' || l:text ==# '') && (l:out !=# l:text || l:text =~# '^[\x01-\x7f]*$')
      return [l:enc, l:out]
    endif
  endfor
  return ['', '']
endfunction

" Decorations: on Vim, text properties of a global type named
" vigor:{ns}:{highlight}; on Neovim, extmarks in the namespace vigor:{ns}.
function! vigor#_internal#buffer#decorate(bufnr, ns, decos) abort
  let l:bufnr = s:load(a:bufnr)
  if has('nvim')
    let l:id = nvim_create_namespace('vigor:' . a:ns)
    for l:d in a:decos
      call nvim_buf_set_extmark(l:bufnr, l:id, l:d.line - 1, l:d.col - 1,
            \ {'end_col': l:d.col - 1 + l:d.length, 'hl_group': l:d.highlight})
    endfor
    return
  endif
  for l:d in a:decos
    let l:type = 'vigor:' . a:ns . ':' . l:d.highlight
    if empty(prop_type_get(l:type))
      call prop_type_add(l:type, {'highlight': l:d.highlight})
    endif
    call prop_add(l:d.line, l:d.col, {'bufnr': l:bufnr, 'length': l:d.length, 'type': l:type})
  endfor
endfunction

function! vigor#_internal#buffer#decorations(bufnr, ns) abort
  let l:bufnr = s:buf(a:bufnr)
  let l:out = []
  if !bufloaded(l:bufnr)
    return l:out
  endif
  if has('nvim')
    let l:id = nvim_create_namespace('vigor:' . a:ns)
    for [l:_, l:row, l:col, l:d] in nvim_buf_get_extmarks(l:bufnr, l:id, 0, -1, {'details': v:true})
      call add(l:out, {'line': l:row + 1, 'col': l:col + 1,
            \ 'length': get(l:d, 'end_col', l:col) - l:col, 'highlight': get(l:d, 'hl_group', '')})
    endfor
    return l:out
  endif
  let l:prefix = 'vigor:' . a:ns . ':'
  for l:lnum in range(1, getbufinfo(l:bufnr)[0].linecount)
    for l:p in prop_list(l:lnum, {'bufnr': l:bufnr})
      if stridx(l:p.type, l:prefix) == 0
        call add(l:out, {'line': l:lnum, 'col': l:p.col, 'length': l:p.length,
              \ 'highlight': l:p.type[len(l:prefix):]})
      endif
    endfor
  endfor
  return l:out
endfunction

function! vigor#_internal#buffer#clear(bufnr, ns) abort
  let l:bufnr = s:buf(a:bufnr)
  if !bufloaded(l:bufnr)
    return
  endif
  if has('nvim')
    call nvim_buf_clear_namespace(l:bufnr, nvim_create_namespace('vigor:' . a:ns), 0, -1)
    return
  endif
  let l:prefix = 'vigor:' . a:ns . ':'
  for l:type in prop_type_list()
    if stridx(l:type, l:prefix) == 0
      call prop_remove({'type': l:type, 'bufnr': l:bufnr, 'all': 1})
    endif
  endfor
endfunction
