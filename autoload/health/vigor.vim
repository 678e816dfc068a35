" :checkhealth vigor (Neovim). In either editor, :call vigor#health#show()
" echoes the same report.
function! health#vigor#check() abort
  for l:item in vigor#health#report()
    let [l:kind, l:msg] = l:item[: 1]
    let l:advice = get(l:item, 2, [])
    if l:kind ==# 'start'
      call v:lua.vim.health.start(l:msg)
    elseif l:kind ==# 'ok'
      call v:lua.vim.health.ok(l:msg)
    elseif l:kind ==# 'warn'
      call v:lua.vim.health.warn(l:msg, l:advice)
    elseif l:kind ==# 'error'
      call v:lua.vim.health.error(l:msg, l:advice)
    else
      call v:lua.vim.health.info(l:msg)
    endif
  endfor
endfunction
