" Editor functions that the SDK calls, on both editors.

" Cmd(): runs {cmd} with the keys of {vars} as l: variables.
function! vigor#_internal#api#cmd(cmd, vars) abort
  call extend(l:, a:vars)
  execute a:cmd
endfunction

" Exec(): sources {lines} as a script. Each plugin has a script file per
" nesting depth (an Exec may run another Exec before it ends), written
" anew each time and sourced again, so that Exec adds no script to
" :scriptnames after the first; its s: variables are cleared first, so
" each Exec starts with none. The first error ends the script, and is
" thrown again with its line: "line {n}: {error}".
let s:exec_scripts = {}
let s:exec_depth = 0

function! vigor#_internal#api#exec(plugin, lines) abort
  let l:key = a:plugin . '/' . s:exec_depth
  if !has_key(s:exec_scripts, l:key)
    let s:exec_scripts[l:key] = {'file': tempname() . '-vigor-exec.vim'}
    call writefile(['call vigor#_internal#api#exec_scope(' . string(l:key) . ', s:)'], s:exec_scripts[l:key].file)
    execute 'source' fnameescape(s:exec_scripts[l:key].file)
  endif
  let l:script = s:exec_scripts[l:key]
  call writefile(a:lines, l:script.file)
  call filter(l:script.scope, 0)
  let s:exec_depth += 1
  try
    execute 'source' fnameescape(l:script.file)
  catch
    " The script's line is where the error was raised, or where the
    " function that raised it was called: "{file}, line {n}" or
    " "{file}[{n}]..." in the throwpoint.
    let l:at = matchlist(v:throwpoint, '-vigor-exec\.vim\%(\[\(\d\+\)\]\|, line \(\d\+\)\)')
    if empty(l:at)
      throw 'cannot run the lines: ' . v:exception
    endif
    throw printf('line %s: %s', empty(l:at[1]) ? l:at[2] : l:at[1], v:exception)
  finally
    let s:exec_depth -= 1
  endtry
endfunction

" Keeps the s: variables of an Exec script, so that exec() can clear them.
function! vigor#_internal#api#exec_scope(key, scope) abort
  let s:exec_scripts[a:key].scope = a:scope
endfunction

" Eval(): evaluates {expr} with the keys of {vars} as l: variables.
function! vigor#_internal#api#eval(expr, vars) abort
  call extend(l:, a:vars)
  return s:sendable(eval(a:expr))
endfunction

" Values that no channel carries: Neovim's API would send a Funcref as
" v:null without a word, Vim's JSON channel fails to encode it.
let s:unsendable = {'2': 'a Funcref', '8': 'a Job', '9': 'a Channel'}

" Returns {value}, or throws if it cannot reach a plugin.
function! s:sendable(value) abort
  let l:what = get(s:unsendable, type(a:value), '')
  if l:what !=# ''
    throw 'the result is ' . l:what . ', which cannot be sent to a plugin'
  endif
  return a:value
endfunction

" Dispatch(): calls another plugin, waiting for it to load if needed.
function! vigor#_internal#api#dispatch(plugin, method, params) abort
  return vigor#request(a:plugin, a:method, a:params)
endfunction

" Notify(): calls {fn}; nobody waits, so an error is shown to the user.
function! vigor#_internal#api#notify(plugin, fn, args) abort
  try
    call call(a:fn, a:args)
  catch
    call vigor#_internal#echo#plugin('error', a:plugin, printf('%s(): %s', a:fn, v:exception))
  endtry
endfunction

function! vigor#_internal#api#redraw(force) abort
  if a:force
    redraw!
  else
    redraw
  endif
endfunction

" Batch() in legacy script: [results, v:null] or [results, [index, error]].
" An error raised by the builtin called (or for a function that does not
" exist) reads as in the other batches and calls, "Vim:E...", not with the
" Ex command of this loop or of Vim's wrapper of builtins ("Vim(call):E...",
" "Vim(return):E...": api#vim#legacy()).
function! vigor#_internal#api#batch(calls) abort
  let l:results = []
  try
    for [l:fn, l:args] in a:calls
      call add(l:results, call(l:fn, l:args))
    endfor
  catch
    let l:err = v:exception
    if l:err =~# '^Vim(\a\+):' && v:throwpoint =~# '#api#\%(batch\|vim#legacy\|vim#call\), line \d\+$'
      let l:err = substitute(l:err, '^Vim(\a\+):', 'Vim:', '')
    endif
    return [l:results, [len(l:results), l:err]]
  endtry
  return [l:results, v:null]
endfunction
