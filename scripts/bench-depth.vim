" The cost of the depth check on vigor#request()'s path on Vim (BENCHMARKS.md,
" "The depth check of what Vim encodes"). From the repository's root:
"   vim -Nu NONE -es --cmd 'set rtp^=.' -S scripts/bench-depth.vim
" Old is the request's encoding as a def function with a declared params
" argument, Va the same with params as varargs, New Va with the check.
def Old(name: any, method: any, params: any): string
  return json_encode([1, [method, params]])
enddef
def Va(name: any, method: any, ...rest: list<any>): string
  var params: any = rest[0]
  return json_encode([1, [method, params]])
enddef
def New(name: any, method: any, ...rest: list<any>): string
  var params: any = rest[0]
  var t: number
  for a in params
    t = type(a)
    if t == v:t_list || t == v:t_dict
      t = vigor#_internal#depth#first(params)
      if t >= 0
        throw 'too deep'
      endif
      break
    endif
  endfor
  return json_encode([1, [method, params]])
enddef
function! RunOld(p, n) abort
  let l:t = reltime()
  for l:i in range(a:n)
    call Old('x', 'm', a:p)
  endfor
  return reltimefloat(reltime(l:t)) * 1000000.0 / a:n
endfunction
function! RunVa(p, n) abort
  let l:t = reltime()
  for l:i in range(a:n)
    call Va('x', 'm', a:p)
  endfor
  return reltimefloat(reltime(l:t)) * 1000000.0 / a:n
endfunction
function! RunNew(p, n) abort
  let l:t = reltime()
  for l:i in range(a:n)
    call New('x', 'm', a:p)
  endfor
  return reltimefloat(reltime(l:t)) * 1000000.0 / a:n
endfunction
function! Median(l) abort
  let l:s = sort(copy(a:l), 'f')
  return l:s[len(l:s) / 2]
endfunction
function! s:Lo(l) abort
  return sort(copy(a:l), "f")[0]
endfunction
function! s:Hi(l) abort
  return sort(copy(a:l), "f")[-1]
endfunction
let s:cases = [
      \ ['two scalars', ['hello', 42], 100000],
      \ ['small Dict', ['hello', {'a': 1, 'b': [1, 2]}], 100000],
      \ ['100 Strings', [map(range(100), '"line " . v:val')], 100000],
      \ ['10,000 lines', [1, 0, -1, map(range(10000), '"some buffer line number " . v:val')], 300],
      \ ]
let s:out = []
for [s:case, s:p, s:n] in s:cases
  let s:old = []
  let s:va = []
  let s:new = []
  for s:r in range(7)
    call add(s:old, RunOld(s:p, s:n))
    call add(s:va, RunVa(s:p, s:n))
    call add(s:new, RunNew(s:p, s:n))
  endfor
  call add(s:out, printf('| %s | %.2f (%.2f-%.2f) | %.2f (%.2f-%.2f) | %.2f (%.2f-%.2f) | %+.2f | %+.2f |', s:case,
        \ Median(s:old), s:Lo(s:old), s:Hi(s:old), Median(s:va), s:Lo(s:va), s:Hi(s:va),
        \ Median(s:new), s:Lo(s:new), s:Hi(s:new), Median(s:new) - Median(s:va), Median(s:new) - Median(s:old)))
endfor
call writefile(s:out, '/dev/stdout')
qall!
