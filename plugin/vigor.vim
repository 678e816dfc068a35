" Vigor: Vim and Neovim plugins written in Go.
" Maintainer: the Vigor authors.  License: MIT.
if exists('g:loaded_vigor')
  finish
endif
let g:loaded_vigor = 1

if has('nvim')
  if !has('nvim-0.10')
    echohl WarningMsg
    echomsg '[vigor] Vigor needs Neovim 0.10 or newer; this is an older Neovim, so Vigor is off.'
    echohl None
    finish
  endif
elseif v:version < 900 || !has('patch-9.0.1378')
  echohl WarningMsg
  echomsg '[vigor] Vigor needs Vim 9.0.1378 or newer; this is an older Vim, so Vigor is off.'
  echohl None
  finish
elseif !has('job') || !has('channel') || !has('timers')
  echohl WarningMsg
  echomsg '[vigor] Vigor needs a Vim built with +job, +channel and +timers; this one lacks one, so Vigor is off.'
  echohl None
  finish
endif

augroup vigor_default
  autocmd!
  " No-op handlers, so that firing these events never prints
  " 'No matching autocommands'.
  autocmd User VigorReady :
  autocmd User VigorPluginPre:* :
  autocmd User VigorPluginPost:* :
  autocmd User VigorPluginFail:* :
  autocmd User VigorPluginUnloadPre:* :
  autocmd User VigorPluginUnloadPost:* :
  autocmd User VigorPluginUnloadFail:* :
augroup END

command! -nargs=* -complete=customlist,vigor#_internal#command#complete Vigor
      \ call vigor#_internal#command#run(<q-args>)

augroup vigor_startup
  autocmd!
  autocmd VimLeavePre * call vigor#_internal#process#exiting()
augroup END

" A repository that :packadd (or a plugin manager) puts on 'runtimepath'
" after startup is discovered when one of its plugin/ files is sourced
" (discover#refresh(), one String comparison; before discovery has been
" loaded, exists() alone, which loads nothing). A repository with no
" plugin/ file is found by the first request to one of its plugins, or
" by what lists the plugins.
function! s:start() abort
  call vigor#_internal#bootstrap#start(1)
endfunction

augroup vigor_startup
  autocmd SourcePost */plugin/* if exists('*vigor#_internal#discover#refresh') | call vigor#_internal#discover#refresh() | endif
augroup END

if v:vim_did_enter
  call s:start()
else
  augroup vigor_startup
    autocmd VimEnter * call vigor#_internal#bootstrap#defer()
  augroup END
endif
