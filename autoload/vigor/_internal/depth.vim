" Vim only: Neovim never calls into this file.
"
" Vim's json_encode() recurses once per level of Lists and Dicts and
" overflows its stack (a segfault) on a value nested some 52,000 deep, so
" the runtime measures the depth of what it is about to encode: a
" request's arguments (vigor#request(), vigor#notify(),
" vigor#request_async()) and the result of a plugin's call. The limit is
" what a plugin reads (wire.MaxDepth, "Lists and Dicts nested more than
" 10000 deep, more than Vigor reads"): a deeper value would fail there
" anyway, and the limit leaves room on Vim's stack for the frames below
" json_encode(). The walk is iterative, so that it cannot overflow itself,
" and compiled, to cost little on the call path (BENCHMARKS.md).

" How deeply Lists and Dicts may nest in one value ([[1]] nests 2 deep).
const s:MAX = 10000

" The error text for a value nested more than s:MAX deep, as the plugin
" words it (wire.ErrTooDeep).
function! vigor#_internal#depth#error() abort
  return printf('Lists and Dicts nested more than %d deep, more than Vigor reads', s:MAX)
endfunction

" The values of a Dict, taken in legacy script: in a def function,
" values(), keys() and d[k] infer the type of the Dict by recursing
" through it.
function! vigor#_internal#depth#values(dict) abort
  return values(a:dict)
endfunction

" A List longer than this is first given to flat(): a def function's
" loop over a List copies each String it holds, which costs more than the
" legacy call.
const s:LONG = 16

" 1 if the List holds no List or Dict, found by max(), which in legacy
" script takes Strings as Numbers, and fails on the first List or Dict
" (also on a Float, a Blob or a Funcref: the walk then looks at each item).
function! vigor#_internal#depth#flat(list) abort
  try
    call max(a:list)
    return 1
  catch /^Vim\%((\a\+)\)\=:E/
    return 0
  endtry
endfunction

" The index of the first item of the List values[0] whose Lists and Dicts
" nest more than s:MAX deep, or -1. The List comes as the one item of
" varargs because Vim, calling a def function, infers the type of each
" declared argument by recursing through it (it overflows its stack on a
" value nested some 57,000 deep, even for an argument of type any), and
" builds the varargs List without looking into it.
"
" Depth first, with a stack of the containers to visit and their depths;
" path[d] is the container at depth d on the way to the one visited.
" json_encode() writes a List or Dict that holds itself as [] or {} where
" it repeats, so a container that is its own ancestor ends its branch:
" comparing each with one ancestor, at the power of two below its depth,
" finds every such cycle within a few rounds of it (Brent), for one
" comparison a container. The walk is iterative, so that it cannot
" overflow Vim's stack itself.
def vigor#_internal#depth#first(...values: list<any>): number
  var i = -1
  var t: number
  var stack: list<any>
  var depths: list<number>
  var path: list<any>
  var n: any
  var d: number
  var p: number
  for v in values[0]
    i += 1
    t = type(v)
    if t != v:t_list && t != v:t_dict
        || t == v:t_list && len(v) > s:LONG && vigor#_internal#depth#flat(v)
      continue
    endif
    # The Lists and Dicts that v holds; most hold none, and need no walk.
    stack = []
    depths = []
    for x in t == v:t_list ? v : vigor#_internal#depth#values(v)
      t = type(x)
      if t == v:t_list || t == v:t_dict
        add(stack, x)
        add(depths, 2)
      endif
    endfor
    path = [null, v]
    while !empty(stack)
      n = remove(stack, -1)
      d = remove(depths, -1)
      if d > s:MAX
        return i
      endif
      if d < len(path)
        path[d] = n
      else
        add(path, n)
      endif
      p = 1
      while p * 2 < d
        p *= 2
      endwhile
      if type(path[p]) == type(n) && n is path[p]
        continue
      endif
      if type(n) == v:t_list
        if len(n) > s:LONG && vigor#_internal#depth#flat(n)
          continue
        endif
        for x in n
          t = type(x)
          if t == v:t_list || t == v:t_dict
            add(stack, x)
            add(depths, d + 1)
          endif
        endfor
      else
        for x in vigor#_internal#depth#values(n)
          t = type(x)
          if t == v:t_list || t == v:t_dict
            add(stack, x)
            add(depths, d + 1)
          endif
        endfor
      endif
    endwhile
  endfor
  return -1
enddef
