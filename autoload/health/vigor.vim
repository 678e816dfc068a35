" :checkhealth vigor (Neovim). In either editor, :call vigor#health#show()
" echoes the same report.
function! health#vigor#check() abort
  for [l:kind, l:msg] in vigor#health#report()
    if l:kind ==# 'start'
      call v:lua.vim.health.start(l:msg)
    elseif l:kind ==# 'ok'
      call v:lua.vim.health.ok(l:msg)
    elseif l:kind ==# 'warn'
      call v:lua.vim.health.warn(l:msg)
    elseif l:kind ==# 'error'
      call v:lua.vim.health.error(l:msg)
    else
      call v:lua.vim.health.info(l:msg)
    endif
  endfor
endfunction
