" stdpopup#config returns what the editor says of the popup a:id, read
" with popup_getoptions() and popup_getpos() on Vim and
" nvim_win_get_config() on Neovim, in the same form on both: the 0-based
" screen cell of its top-left corner (border included), the size of its
" text, its title, its border's 8 characters clockwise from the top-left
" ([] for none), its highlights, its lines and its zindex.
function! stdpopup#config(id) abort
  let l:lines = getbufline(winbufnr(a:id), 1, '$')
  if !has('nvim')
    let l:o = popup_getoptions(a:id)
    let l:p = popup_getpos(a:id)
    let l:border = []
    if has_key(l:o, 'border') && l:o.border != [0, 0, 0, 0]
      let l:c = l:o.borderchars
      let l:border = [l:c[4], l:c[0], l:c[5], l:c[1], l:c[6], l:c[2], l:c[7], l:c[3]]
    endif
    return {'row': l:p.line - 1, 'col': l:p.col - 1, 'width': l:p.core_width,
          \ 'height': l:p.core_height, 'title': get(l:o, 'title', ''), 'border': l:border,
          \ 'highlight': get(l:o, 'highlight', ''),
          \ 'borderhighlight': get(get(l:o, 'borderhighlight', []), 0, ''),
          \ 'lines': l:lines, 'zindex': l:o.zindex}
  endif
  let l:c = nvim_win_get_config(a:id)
  redraw
  let l:pos = nvim_win_get_position(a:id)
  let l:border = []
  for l:b in get(l:c, 'border', [])
    call add(l:border, type(l:b) == v:t_list ? l:b[0] : l:b)
  endfor
  let l:title = ''
  for l:t in type(get(l:c, 'title', '')) == v:t_list ? l:c.title : []
    let l:title .= l:t[0]
  endfor
  let l:hl = {}
  for l:pair in split(getwinvar(a:id, '&winhighlight'), ',')
    let l:kv = split(l:pair, ':', 1)
    let l:hl[l:kv[0]] = l:kv[1]
  endfor
  return {'row': l:pos[0], 'col': l:pos[1], 'width': l:c.width, 'height': l:c.height,
        \ 'title': l:title, 'border': l:border, 'highlight': get(l:hl, 'NormalFloat', ''),
        \ 'borderhighlight': get(l:hl, 'FloatBorder', ''), 'lines': l:lines,
        \ 'zindex': l:c.zindex}
endfunction

" stdpopup#show opens the screen test's popups through the plugin.
function! stdpopup#show() abort
  call vigor#request('stdpopup', 'open', [{'Row': 2, 'Col': 5, 'Border': 3, 'Title': 'Matches', 'Lines': ['first line', 'second']}])
  call vigor#request('stdpopup', 'open', [{'Row': 8, 'Col': 92, 'Border': 1, 'Lines': ['0123456789']}])
  call vigor#request('stdpopup', 'open', [{'Row': 13, 'Col': 8, 'Border': 2, 'Lines': [repeat('abcdefghij', 10)]}])
  call vigor#request('stdpopup', 'open', [{'Row': 20, 'Col': 60, 'Anchor': 3, 'Border': 1, 'Lines': ['bottom right']}])
  echo 'popups' 'open'
endfunction
