" A plugin process's stderr and its log: what a failure message quotes, and
" the SDK's lines that say who closed the channel. process.vim passes the
" lines on (on_lines()) and asks how a process ended (ended(), hint(),
" closed_why()); everyone logs through log().
"
" The fields of the registry entry (plugin.vim) that this file owns, and
" only it writes: 'stderr' (the last lines), 'err_in_log', 'log_start'
" (reset by begin() at each spawn).

" What the SDK writes to stderr when its channel ends before an unload
" began (protocol.ClosedByEditor, protocol.ClosedByPlugin; a test checks).
let s:CLOSED_BY_EDITOR = 'vigor: the editor closed the channel'
let s:CLOSED_BY_PLUGIN = 'vigor: the plugin closed its channel'
" Neovim reports a process that a signal ended as 128 + its number; the
" numbers that Linux and macOS share.
let s:SIGNALS = {1: 'HUP', 2: 'INT', 3: 'QUIT', 4: 'ILL', 5: 'TRAP', 6: 'ABRT', 8: 'FPE',
      \ 9: 'KILL', 11: 'SEGV', 13: 'PIPE', 14: 'ALRM', 15: 'TERM'}
" How much of the end of a plugin's log a failure message looks at, and
" the line after which the SDK writes its stderr to the log itself (keep it
" equal to protocol.StderrInLog; a test checks).
let s:TAIL = 16384
let s:STDERR_IN_LOG = 'vigor: the rest of stderr is in the log'

" A new process of p starts: its stderr begins afresh, and its log output
" from the log's size now.
function! vigor#_internal#stderr#begin(p) abort
  let a:p.stderr = []
  let a:p.err_in_log = 0
  let a:p.log_start = max([getfsize(a:p.log), 0])
endfunction

" Appends lines to p's log; a log that cannot be written is no error.
function! vigor#_internal#stderr#log(p, lines) abort
  try
    call vigor#_internal#file#log(a:p.log, a:lines)
  catch
  endtry
endfunction

" The lines of the process's stderr pipe. An SDK plugin writes its stderr
" to the log itself once it has sent s:STDERR_IN_LOG (stderrToLog in the
" SDK); what comes before is copied here line by line (a few lines, and
" all of a program that is not a Vigor plugin); what comes after it
" is Go's report of a fatal panic or error (also in the log) and the SDK's
" lines saying who closed the channel (protocol.ClosedByEditor). The last
" lines are kept for the failure message. Returns the closed_why() of a
" line that says the channel ended, or [].
function! vigor#_internal#stderr#on_lines(p, lines) abort
  let l:lines = a:lines
  if !a:p.err_in_log
    let l:i = index(l:lines, s:STDERR_IN_LOG)
    if l:i >= 0
      let a:p.err_in_log = 1
      if l:i > 0
        call vigor#_internal#stderr#log(a:p, map(l:lines[: l:i - 1], '"stderr: " . v:val'))
      endif
      let l:lines = l:lines[l:i + 1 :]
    else
      call vigor#_internal#stderr#log(a:p, map(copy(l:lines), '"stderr: " . v:val'))
    endif
  endif
  let a:p.stderr += l:lines
  if len(a:p.stderr) > 30
    call remove(a:p.stderr, 0, len(a:p.stderr) - 31)
  endif
  for l:line in [s:CLOSED_BY_PLUGIN, s:CLOSED_BY_EDITOR]
    if index(l:lines, l:line) >= 0
      return s:closed_why(l:line)
    endif
  endfor
  return []
endfunction

" The closed_why() of the SDK's line about a closed channel among the
" stderr lines kept, or [].
function! vigor#_internal#stderr#closed_line(p) abort
  for l:line in [s:CLOSED_BY_PLUGIN, s:CLOSED_BY_EDITOR]
    if index(a:p.stderr, l:line) >= 0
      return s:closed_why(l:line)
    endif
  endfor
  return []
endfunction

" What the runtime tells about a plugin whose SDK wrote {line} (its
" channel ended, and it did not close it): [for the crash warning, for a
" call under way].
function! s:closed_why(line) abort
  if a:line ==# s:CLOSED_BY_PLUGIN
    return ['closed its channel', 'the plugin process closed its channel during the call; it is restarted']
  elseif has('nvim')
    return ['sent something that Neovim rejected (not msgpack-RPC, or a reply out of order), and Neovim closed its channel',
          \ 'Neovim closed the channel during the call: the plugin sent something that Neovim rejected (not msgpack-RPC, or a reply out of order); it is restarted']
  endif
  return ['lost its channel', 'the plugin''s channel closed during the call; it is restarted']
endfunction

" How a process ended, for messages: "exited with status 3", "was killed by
" signal KILL". {signal} is Vim's name of the signal, or ''.
function! vigor#_internal#stderr#ended(status, signal) abort
  if !empty(a:signal)
    return 'was killed by signal ' . toupper(a:signal)
  elseif has('nvim') && has_key(s:SIGNALS, a:status - 128)
    return printf('was killed by signal %s (status %d)', s:SIGNALS[a:status - 128], a:status)
  endif
  return printf('exited with status %d', a:status)
endfunction

" The line of stderr that a failure message quotes: " (panic: ...)", or the
" last one, or ''.
function! vigor#_internal#stderr#hint(p) abort
  let l:lines = a:p.stderr + (a:p.err_in_log ? s:log_output(a:p) : [])
  for l:line in l:lines
    if l:line =~# '^\%(panic\|fatal error\):'
      return ' (' . l:line . ')'
    endif
  endfor
  return empty(l:lines) ? '' : ' (' . l:lines[-1] . ')'
endfunction

" The last lines written to the log's end since the process started that
" are neither the SDK's records nor lines indented under them (a recovered
" panic's stack) nor copied by the runtime: what the plugin wrote to its
" stderr after stderrToLog. (The same plugin in another editor, sharing
" the log, may have written some of them.)
function! s:log_output(p) abort
  let l:size = getfsize(a:p.log)
  " A log smaller than at the start: the SDK moved a large one aside.
  let l:start = l:size < a:p.log_start ? 0 : a:p.log_start
  let l:from = max([l:start, l:size - s:TAIL])
  if l:size <= l:from
    return []
  endif
  try
    let l:bytes = filter(blob2list(readblob(a:p.log, l:from, l:size - l:from)), 'v:val != 0')
  catch
    return []
  endtry
  " list2str() makes each byte the character of that code point, and
  " iconv() turns each such character back into its byte.
  let l:text = list2str(l:bytes, 1)
  if has('iconv')
    let l:text = iconv(l:text, 'utf-8', 'latin1')
  endif
  let l:lines = split(l:text, "\n")
  if l:from > l:start && !empty(l:lines)
    " The first line began before the part read.
    call remove(l:lines, 0)
  endif
  return filter(l:lines, 'v:val !~# ''^\%(time=\S\+ level=\u\+ \|\s\|stderr: \)''')
endfunction
