" The editor's side of std/popup: one floating window over Vim's popups
" (popup_create() and the rest) and Neovim's floats (nvim_open_win() on a
" scratch buffer). Go builds each editor's options (std/popup, options.go);
" these functions make each operation one call.
"
" Each change ends with s:draw(): Vim draws a popup only when it redraws,
" which it does not do after a notification's handler, and Neovim draws a
" float as it changes except while the command line is being edited
" (input(), a : command), where only a redraw shows it.
"
" s:popups holds, for each open float on Neovim, what its size was asked to
" be ({'width': .., 'minwidth': .., ...}, 0 for unset), so that new lines
" refit a float whose size follows its content, as Vim's popups do. An entry
" is added by open() and removed when its window closes (WinClosed).
" s:onclose holds, for each open popup that has a close event, the Vim
" expression to evaluate (with l:id set) when it closes; closed() removes it.
let s:popups = {}
let s:onclose = {}

" open creates the popup with a:lines, the editor's options a:opts, the size
" a:size (Neovim) and highlights a:hl (Neovim's 'winhighlight'), and a:expr,
" when not empty, to evaluate when it closes. It returns the window ID.
function! vigor#_internal#popup#open(lines, opts, size, hl, expr) abort
  if !has('nvim')
    let l:opts = copy(a:opts)
    if a:expr !=# ''
      let l:opts.callback = function('s:vimclosed')
    endif
    let l:id = popup_create(a:lines, l:opts)
    call s:draw()
  else
    let l:buf = nvim_create_buf(v:false, v:true)
    call nvim_set_option_value('bufhidden', 'wipe', {'buf': l:buf})
    call nvim_buf_set_lines(l:buf, 0, -1, v:true, a:lines)
    let l:config = extend(copy(a:opts), s:fit(a:lines, a:size, a:opts))
    let l:id = nvim_open_win(l:buf, v:false, l:config)
    " Vim's popups wrap, whatever the global 'wrap'.
    call nvim_set_option_value('wrap', v:true, {'win': l:id})
    if a:hl !=# ''
      " After what style 'minimal' sets (EndOfBuffer:).
      let l:old = nvim_get_option_value('winhighlight', {'win': l:id})
      call nvim_set_option_value('winhighlight', (l:old ==# '' ? '' : l:old . ',') . a:hl, {'win': l:id})
    endif
    let s:popups[l:id] = a:size
    augroup vigor_popup
      " l:id is a Number: the command holds no text from the caller.
      execute 'autocmd WinClosed ' . l:id . ' ++once call s:nvimclosed(' . l:id . ')'
    augroup END
    call s:draw()
  endif
  if a:expr !=# ''
    let s:onclose[l:id] = a:expr
  endif
  return l:id
endfunction

" s:fit returns the width and height of a float for a:lines, the size
" a:size and the float's config a:config: a width or height that is not set
" follows the lines (wrapped at the width), within the minimum and maximum,
" and the width within the screen's columns on the side of the column that
" the anchor faces, as Vim sizes a popup.
function! s:fit(lines, size, config) abort
  let l:w = a:size.width
  if l:w == 0
    let l:w = max([1, max(map(copy(a:lines), 'strdisplaywidth(v:val)'))])
    let l:w = max([l:w, a:size.minwidth])
    if a:size.maxwidth > 0
      let l:w = min([l:w, a:size.maxwidth])
    endif
    let l:w = max([1, min([l:w, s:room(a:config)])])
  endif
  let l:h = a:size.height
  if l:h == 0
    " The screen lines of the text wrapped at the width, as Vim counts.
    let l:h = 0
    for l:line in a:lines
      let l:h += max([1, (strdisplaywidth(l:line) + l:w - 1) / l:w])
    endfor
    let l:h = max([1, l:h, a:size.minheight])
    if a:size.maxheight > 0
      let l:h = min([l:h, a:size.maxheight])
    endif
  endif
  return {'width': l:w, 'height': l:h}
endfunction

" s:room returns the screen columns that a float of a:config has for its
" text: from its column to the right edge (to the left edge for an E
" anchor), less its border. Vim gives a popup one column more at the
" right edge and moves it one to the left; Neovim moves a float that does
" not fit alike.
function! s:room(config) abort
  " nvim_win_get_config() gives the column as a Float.
  let l:col = float2nr(a:config.col * 1.0)
  if a:config.relative ==# 'cursor'
    let l:col += win_screenpos(0)[1] + wincol() - 2
  elseif a:config.relative ==# 'win'
    let l:col += win_screenpos(get(a:config, 'win', 0))[1] - 1
  endif
  let l:room = a:config.anchor =~# 'E' ? l:col : &columns - l:col + 1
  let l:border = get(a:config, 'border', 'none')
  if type(l:border) == v:t_list && l:border != [] && l:border != ['', '', '', '', '', '', '', '']
    let l:room -= 2
  endif
  return l:room
endfunction

function! s:vimclosed(id, result) abort
  call s:closed(a:id)
endfunction

function! s:nvimclosed(id) abort
  if has_key(s:popups, a:id)
    call remove(s:popups, a:id)
  endif
  call s:closed(a:id)
endfunction

" s:closed evaluates the close expression of the popup a:id, if it has one.
function! s:closed(id) abort
  if !has_key(s:onclose, a:id)
    return
  endif
  let l:id = a:id
  let l:Expr = remove(s:onclose, a:id)
  call eval(l:Expr)
endfunction

" isopen says whether a:id is an open popup (Vim) or float (Neovim).
function! vigor#_internal#popup#isopen(id) abort
  if !has('nvim')
    return index(popup_list(), a:id) >= 0 ? v:true : v:false
  endif
  return nvim_win_is_valid(a:id) && nvim_win_get_config(a:id).relative !=# '' ? v:true : v:false
endfunction

function! s:check(id) abort
  if !vigor#_internal#popup#isopen(a:id)
    throw 'window ' . a:id . ' is not an open popup'
  endif
endfunction

" buffer returns the number of the popup's buffer.
function! vigor#_internal#popup#buffer(id) abort
  call s:check(a:id)
  return winbufnr(a:id)
endfunction

" setlines replaces the popup's lines with a:lines.
function! vigor#_internal#popup#setlines(id, lines) abort
  call s:check(a:id)
  if !has('nvim')
    call popup_settext(a:id, a:lines)
    call s:draw()
    return
  endif
  let l:buf = nvim_win_get_buf(a:id)
  call nvim_buf_set_lines(l:buf, 0, -1, v:true, a:lines)
  let l:size = get(s:popups, a:id, {})
  if l:size != {} && (l:size.width == 0 || l:size.height == 0)
    call nvim_win_set_config(a:id, s:fit(a:lines, l:size, nvim_win_get_config(a:id)))
  endif
  call s:draw()
endfunction

" set changes the popup's position, size or title: a:opts are the editor's
" options (popup_setoptions() or nvim_win_set_config()), a:size the new
" size on Neovim ({} to keep it).
function! vigor#_internal#popup#set(id, opts, size) abort
  call s:check(a:id)
  if get(a:opts, 'title', '') !=# '' && !s:hasborder(a:id)
    throw 'a title needs a border'
  endif
  if !has('nvim')
    call popup_setoptions(a:id, a:opts)
    call s:draw()
    return
  endif
  let l:config = copy(a:opts)
  " A new size, or the size asked for before: it may follow the content
  " into a new position.
  let l:size = a:size != {} ? a:size : get(s:popups, a:id, {})
  if l:size != {}
    let s:popups[a:id] = l:size
    let l:lines = nvim_buf_get_lines(nvim_win_get_buf(a:id), 0, -1, v:true)
    call extend(l:config, s:fit(l:lines, l:size, extend(nvim_win_get_config(a:id), a:opts)))
  endif
  call nvim_win_set_config(a:id, l:config)
  call s:draw()
endfunction

" draw shows the change (see the top of this file).
function! s:draw() abort
  if !has('nvim') || mode() ==# 'c'
    redraw
  endif
endfunction

function! s:hasborder(id) abort
  if !has('nvim')
    return get(popup_getoptions(a:id), 'border', [0, 0, 0, 0]) != [0, 0, 0, 0]
  endif
  let l:border = get(nvim_win_get_config(a:id), 'border', [])
  return type(l:border) == v:t_list && l:border != [] && l:border != ['', '', '', '', '', '', '', '']
endfunction

" close closes the popup; one that is not open is no error.
function! vigor#_internal#popup#close(id) abort
  if !vigor#_internal#popup#isopen(a:id)
    return
  endif
  if !has('nvim')
    call popup_close(a:id)
    call s:draw()
  else
    call nvim_win_close(a:id, v:true)
    call s:draw()
  endif
endfunction
