" The editor's side of std/helper: messages that reach the screen from
" asynchronous context, input() with a cancel that differs from an empty
" answer, and scripts sourced once per plugin process.

" Echo shows a:msg from a timer, after a redraw: from a channel request
" or notification the editors redraw after the call, wiping what it
" echoed. a:hl is 'None' or 'ErrorMsg'; a:keep echoes with :echomsg, so
" that the message is in :messages too, a line each. A message of several
" lines is shown whole by one :echo, with the editor's hit-enter prompt
" when it is taller than the command line, as any :echo of several lines:
" from a timer each :echomsg overwrites the one before it on the screen.
function! vigor#_internal#helper#echo(msg, hl, keep) abort
  call timer_start(0, function('s:echo', [a:msg, a:hl, a:keep]))
endfunction

function! s:echo(msg, hl, keep, timer) abort
  redraw
  execute 'echohl' a:hl
  try
    if !a:keep
      echo a:msg
      return
    endif
    let l:lines = split(a:msg, "\n", 1)
    for l:line in l:lines
      echomsg l:line
    endfor
    if len(l:lines) > 1
      redraw
      echo a:msg
    endif
  finally
    echohl None
  endtry
endfunction

" s:cancelled is set by the <Esc> and CTRL-C mappings that input() has
" while it waits, and read and cleared by it: only input() writes it.
let s:cancelled = 0

function! s:cancel() abort
  let s:cancelled = 1
  return "\<C-U>\<CR>"
endfunction

" Asks the user as input() does, with a:opts' prompt, default and
" completion (and the typeahead kept away with savetypeahead), and
" returns [answer, 1], or ['', 0] when the user cancels with <Esc> or
" CTRL-C (which input() alone reports as an empty answer).
" The cancel keys are buffer-local command-line mappings while it waits;
" what the buffer had for them is put back.
function! vigor#_internal#helper#input(opts) abort
  let l:saved = {}
  for l:key in ['<Esc>', '<C-C>']
    let l:saved[l:key] = maparg(l:key, 'c', 0, 1)
    execute 'cnoremap <buffer> <expr> <nowait>' l:key '<SID>cancel()'
  endfor
  let s:cancelled = 0
  let l:save = get(a:opts, 'savetypeahead', v:false)
  if l:save
    call inputsave()
  endif
  try
    if empty(a:opts.completion)
      let l:answer = input(a:opts.prompt, a:opts.default)
    else
      let l:answer = input(a:opts.prompt, a:opts.default, a:opts.completion)
    endif
  finally
    if l:save
      call inputrestore()
    endif
    for [l:key, l:map] in items(l:saved)
      if !empty(l:map) && get(l:map, 'buffer', 0)
        call mapset('c', 0, l:map)
      else
        execute 'silent! cunmap <buffer>' l:key
      endif
    endfor
  endtry
  let l:cancelled = s:cancelled
  let s:cancelled = 0
  return l:cancelled ? ['', 0] : [l:answer, 1]
endfunction

" s:complete holds, for each pending input() with a Go completion, the
" expression that calls it (lambda's Request form of a:lead, a:line and
" a:pos) and the latest error it threw ('' for none). Only
" vigor#_internal#helper#input_go adds and removes entries, and only
" vigor#_internal#helper#complete sets an entry's error.
let s:complete = []

" An error of the completion offers nothing and is kept, to be shown as
" one line (the error's own, "[vigor] plugin.method: ...") once input()
" has ended: thrown out of a customlist function it would show the
" function's trace, and a message echoed while the command line waits is
" covered by the command line at once, on both editors.
function! vigor#_internal#helper#complete(lead, line, pos) abort
  if empty(s:complete)
    return []
  endif
  try
    return eval(s:complete[-1].expr)
  catch
    let s:complete[-1].err = v:exception
    return []
  endtry
endfunction

" input() whose completion is a:expr, an expression that calls Go.
function! vigor#_internal#helper#input_go(opts, expr) abort
  call add(s:complete, {'expr': a:expr, 'err': ''})
  try
    return vigor#_internal#helper#input(extend(copy(a:opts),
          \ {'completion': 'customlist,vigor#_internal#helper#complete'}))
  finally
    let l:err = remove(s:complete, -1).err
    if !empty(l:err)
      call vigor#_internal#helper#echo(l:err, 'ErrorMsg', 1)
    endif
  endtry
endfunction

" s:loaded are the scripts that vigor#_internal#helper#load() sourced, by
" a:key (the plugin, its process and the file): only it writes them.
let s:loaded = {}

function! vigor#_internal#helper#load(key, path) abort
  if has_key(s:loaded, a:key)
    return 0
  endif
  execute 'source' fnameescape(a:path)
  let s:loaded[a:key] = 1
  return 1
endfunction
