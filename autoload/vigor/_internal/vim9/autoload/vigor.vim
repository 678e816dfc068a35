" Vim only: autoload/vigor.vim sources this file on Vim, and Neovim never
" does. vigor#request() as a def function: in legacy script each line of
" it costs microseconds. (Vim wants a def function named vigor#... in a
" file named autoload/vigor.vim, hence the path.)

let s:plugins = vigor#_internal#plugin#all()
let s:none = {'state': ''}
let s:state = vigor#_internal#request#state()
let s:DEPTH_CHECK = vigor#_internal#request#depth_check()
let s:replies = vigor#_internal#host#replies()
let s:screen = vigor#_internal#echo#screen()
" How long the wait blocks in ch_read() at a time, in ms: the longest that
" CTRL-C and timers wait while a request runs.
let s:TICK = 20
" A ch_read() id that no message has.
let s:NO_ID = 0x7fffffff

" The plugin answers with a command that stores the answer (host#reply),
" then the wake-up [token, 0], which ends ch_read() at once if it is
" waiting; the command is then still queued, and the second ch_read() runs
" it (no message has that id: it only runs what is queued). Between reads,
" :sleep runs timers and sees CTRL-C. A wake-up that a nested wait drops
" (ch_read() drops a response nobody waits for) costs only time: the
" command is never dropped, and the next turn finds the answer. ('drop':
" 'never' would keep the response, but Vim then spins in the nested wait.)
" A request whose answer has not come a second after its first read, or
" that got a wake-up without the answer, asks the plugin whether it still
" runs it, in case Vim dropped the answer (transport#vim#probe()); the clock
" starts after that read, so that a request answered at once pays for
" none of it.
"
" params comes as varargs: Vim, calling a def function, infers the type of
" each declared argument by recursing through it, and overflows its stack
" on arguments nested some 57,000 deep; it builds the varargs List without
" looking into it. Before the arguments are encoded, a compiled loop looks
" for Lists and Dicts among them, and only if it finds one does
" depth#first() walk them (json_encode() recurses too).
def vigor#request(name: any, method: any, ...rest: list<any>): any
  if len(rest) != 1
    throw printf('[vigor] vigor#request() takes 3 arguments (the plugin, the method and a List of arguments), not %d', len(rest) + 2)
  endif
  var params: any = rest[0]
  var p: dict<any> = get(s:plugins, name, s:none)
  if p.state != 'loaded' || type(params) != v:t_list || type(method) != v:t_string
      || get(g:, 'vigor#disabled', 0) || s:state.depth >= s:DEPTH_CHECK
    try
      p = vigor#_internal#request#target(name, method, params)
    catch /^\[vigor\]/
      throw v:exception
    endtry
    if empty(p)
      return 0
    endif
  endif
  var t: number
  for a in params
    t = type(a)
    if t == v:t_list || t == v:t_dict
      t = vigor#_internal#depth#first(params)
      if t >= 0
        throw printf('[vigor] %s.%s: argument %d: %s', name, method, t + 1, vigor#_internal#depth#error())
      endif
      break
    endif
  endfor
  var h: dict<any> = p.handle
  s:state.token += 1
  var token: number = s:state.token
  var msg: string
  try
    msg = json_encode([token, [method, params]]) .. "\n"
  catch
    throw vigor#_internal#request#unsendable(name, method, params,
      printf('[vigor] %s.%s: the arguments cannot be sent to the plugin: %s', name, method, v:exception))
  endtry
  try
    ch_sendraw(h.chan, msg)
  catch /^Vim\%((\a\+)\)\=:E\%(630\|631\|906\|912\):/
    try
      return vigor#_internal#request#resend(p, method, params)
    catch /^\[vigor\]/
      throw v:exception
    endtry
  endtry
  s:state.depth += 1
  var stopped = false
  var since: list<number> = []
  var woke: bool
  # After each second without the answer, a line says what it waits for
  # (request#busy()); a progress line shown during the wait goes when it
  # ends (echo#screen()).
  var start = reltime()
  var next = 1.0
  try
    while true
      woke = type(ch_read(h.chan, {'id': token, 'timeout': s:TICK})) == v:t_list
      if woke
        ch_read(h.chan, {'id': s:NO_ID, 'timeout': 0})
      endif
      if has_key(s:replies, token) || has_key(h, 'closed')
          || ch_status(h.chan, {'part': 'out'}) != 'open'
        break
      endif
      if woke || !empty(since)
        since = vigor#_internal#transport#vim#probe(p, method, h, token, since, woke)
      else
        since = reltime()
      endif
      if reltimefloat(reltime(start)) >= next
        vigor#_internal#request#busy(p, method, start)
        next += 1.0
      endif
      sleep 1m
    endwhile
  catch /^Vim:Interrupt$/
    stopped = true
  catch /^Vim\%((\a\+)\)\=:E906:/
    # The channel closed between two reads: fail() says how it ended.
  finally
    s:state.depth -= 1
    if s:screen.line
      vigor#_internal#echo#progress_done()
    endif
  endtry
  if !empty(since)
    vigor#_internal#transport#vim#forget(token)
  endif
  var res: any = null
  if has_key(s:replies, token)
    res = remove(s:replies, token)
    if type(res) == v:t_list && len(res) == 2 && type(res[1]) == v:t_none
      return res[0]
    endif
  endif
  # Errors are thrown from here, not from the helper, so that the user's
  # "Error detected while processing" names vigor#request() alone.
  try
    return type(res) == v:t_none
      ? vigor#_internal#request#fail(p, method, token, h, stopped)
      : vigor#_internal#request#fail(p, method, token, h, stopped, res)
  catch /^\[vigor\]/
    throw v:exception
  endtry
  return 0  # not reached: fail() throws
enddef
