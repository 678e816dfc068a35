" The answers that plugins hand back to the editor's requests, through the
" functions the SDK calls by name (internal/protocol: FuncReply,
" FuncPending), on both editors. How each editor sends a request and waits
" for its answer is its transport's (transport/vim.vim, transport/nvim.vim)
" and its fast path's (autoload/vigor.vim; on Vim
" _internal/vim9/autoload/vigor.vim).

" Answers to vigor#request(), by token, until the waiting request takes
" them. This file owns it: reply() adds, and the fast paths of
" vigor#request(), which hold it (replies()), only look up and remove
" their own token. Tokens whose wait ended without an answer, whose late
" answers are dropped, are this file's alone.
let s:replies = {}

" Called by the plugin (protocol.FuncReply) with [result, error], or on
" Neovim with result and error as two arguments (one level less deep,
" for Neovim's limit on nesting).
"
" On Neovim the wait of vigor#request() is in Lua
" (lua/vigor/_internal/request.lua), which keeps the abandoned tokens:
" arrived() tells the wait that the answer is here, or says to drop it.
if has('nvim')
  let s:lua_arrived = luaeval('require("vigor._internal.request").arrived')
  let s:lua_abandon = luaeval('require("vigor._internal.request").abandon')
  function! vigor#_internal#host#reply(token, ...) abort
    if s:lua_arrived(a:token) | let s:replies[a:token] = a:0 == 1 ? a:1 : a:000 | endif
  endfunction

  " A request that will not take its answer (its wait ended): the answer
  " is dropped when it comes.
  function! vigor#_internal#host#abandon(token) abort
    call s:lua_abandon(a:token)
  endfunction
else
  let s:abandoned = {}
  function! vigor#_internal#host#reply(token, ...) abort
    if has_key(s:abandoned, a:token)
      unlet s:abandoned[a:token]
      return
    endif
    let s:replies[a:token] = a:0 == 1 ? a:1 : a:000
  endfunction

  function! vigor#_internal#host#abandon(token) abort
    let s:abandoned[a:token] = 1
  endfunction
endif

" The answers, for vigor#request(), which waits on them and takes its own.
function! vigor#_internal#host#replies() abort
  return s:replies
endfunction

" Called by the plugin (protocol.FuncPending), on Vim only: whether it
" still runs the request of {token} (or the request_async call of that
" success id). transport/vim.vim asked, and keeps the answer.
function! vigor#_internal#host#pending(token, running) abort
  call vigor#_internal#transport#vim#answered(a:token, a:running)
endfunction
