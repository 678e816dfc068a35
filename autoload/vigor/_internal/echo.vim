" Messages to the user. Every line starts with [vigor] (or [plugin] for a
" plugin's own messages) and reaches :messages.

function! vigor#_internal#echo#info(msg) abort
  call s:echo('None', '[vigor] ', a:msg)
endfunction

function! vigor#_internal#echo#warn(msg) abort
  call s:echo('WarningMsg', '[vigor] ', a:msg)
endfunction

function! vigor#_internal#echo#error(msg) abort
  call s:echo('ErrorMsg', '[vigor] ', a:msg)
endfunction

function! vigor#_internal#echo#debug(msg) abort
  if vigor#_internal#conf#get('debug')
    call s:echo('Comment', '[vigor] ', a:msg)
  endif
endfunction

" Whether a progress line is the last thing shown: set by progress(),
" cleared by any other message (s:echo()) and by progress_done(). A wait
" that ends while it is set clears the line (progress_done()), so that what
" the command that waited echoes next does not scroll it up into a
" hit-enter prompt; a message shown after the line stays. This file owns
" it and alone writes it; the fast paths of vigor#request() hold it
" (screen()) to read 'line' without a call.
let s:screen = {'line': 0}

function! vigor#_internal#echo#screen() abort
  return s:screen
endfunction

" Progress that should not pile up in :messages.
function! vigor#_internal#echo#progress(msg) abort
  if !vigor#_internal#conf#get('build_progress')
    return
  endif
  " On the command line an echo would wipe what the user is typing.
  if vigor#_internal#echo#typing() ==# 'c'
    return
  endif
  " (Where they are not allowed, the line is left out.)
  try
    redraw
    echo '[vigor] ' . a:msg
    let s:screen.line = 1
  catch /^Vim\%((\a\+)\)\=:E\d\+:/
  endtry
endfunction

" Clears the progress line once the work it showed is done, leaving
" nothing behind that looks like work going on; only while it is the last
" thing shown.
function! vigor#_internal#echo#progress_done() abort
  if !s:screen.line
    return
  endif
  let s:screen.line = 0
  if !vigor#_internal#conf#get('build_progress') || vigor#_internal#echo#typing() ==# 'c'
    return
  endif
  try
    redraw
    echo ''
  catch /^Vim\%((\a\+)\)\=:E\d\+:/
  endtry
endfunction

" A message from a plugin (Infof/Warnf/Errorf/Debugf in the SDK).
function! vigor#_internal#echo#plugin(level, name, msg) abort
  if a:level ==# 'debug' && !vigor#_internal#conf#get('debug')
    return
  endif
  let l:hl = get({'warn': 'WarningMsg', 'error': 'ErrorMsg', 'debug': 'Comment'}, a:level, 'None')
  call s:echo(l:hl, '[' . a:name . '] ', a:msg)
endfunction

function! s:echo(hl, prefix, msg) abort
  " The message takes the progress line's place, rather than pushing it
  " up into a hit-enter prompt.
  if s:screen.line
    let s:screen.line = 0
    try
      redraw
    catch /^Vim\%((\a\+)\)\=:E\d\+:/
    endtry
  endif
  execute 'echohl' a:hl
  try
    for l:line in split(a:msg, "\n")
      echomsg a:prefix . substitute(l:line, '\t', '    ', 'g')
    endfor
  finally
    echohl None
  endtry
endfunction

" What the user is typing into: 'i' in insert or replace mode, 'c' on the
" command line, '' otherwise (Ex mode, which has no screen, included).
function! vigor#_internal#echo#typing() abort
  let l:m = mode(1)
  if l:m =~# '^[iR]'
    return 'i'
  endif
  return l:m =~# '^c' && l:m !~# '^c[ev]' ? 'c' : ''
endfunction
