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
    elseif l:kind ==# 'warn' || l:kind ==# 'error'
      " An empty List would reach Lua as an empty table, which Neovim
      " shows as an ADVICE heading with nothing under it.
      if l:kind ==# 'warn' && empty(l:advice)
        call v:lua.vim.health.warn(l:msg)
      elseif l:kind ==# 'warn'
        call v:lua.vim.health.warn(l:msg, l:advice)
      elseif empty(l:advice)
        call v:lua.vim.health.error(l:msg)
      else
        call v:lua.vim.health.error(l:msg, l:advice)
      endif
    else
      call v:lua.vim.health.info(l:msg)
    endif
  endfor
endfunction
