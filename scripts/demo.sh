#!/usr/bin/env bash
# Runs the example plugin (examples/hello) in headless Vim and Neovim, as a
# user's editor would load it, and prints what each editor got back from
# vigor#request('hello', 'greet', ['CI']).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
vim_bin=${VIGOR_TEST_VIM:-vim}
nvim_bin=${VIGOR_TEST_NVIM:-nvim}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

script="$out/demo.vim"
cat >"$script" <<VIM
function! s:done() abort
  try
    let l:r = vigor#request('hello', 'greet', ['CI'])
  catch
    let l:r = 'ERROR: ' . v:exception
  endtry
  call writefile([l:r], '$out/' . (has('nvim') ? 'nvim' : 'vim') . '.txt')
  qa!
endfunction
autocmd VimEnter * call timer_start(0, {-> s:done()})
VIM

status=0
for editor in vim nvim; do
  bin=$([ "$editor" = vim ] && echo "$vim_bin" || echo "$nvim_bin")
  start=$(date +%s.%N)
  if [ "$editor" = vim ]; then
    # Ex mode reads commands from stdin: keep it open until Vim quits.
    mkfifo "$out/stdin"
    sleep 600 >"$out/stdin" &
    keep=$!
    timeout 300 "$bin" -N -u NONE -i NONE -n -es \
      --cmd "set rtp^=$root,$root/examples/hello" --cmd "runtime plugin/vigor.vim" -S "$script" <"$out/stdin" || true
    kill "$keep" 2>/dev/null || true
  else
    timeout 300 "$bin" --headless -u NONE -i NONE -n \
      --cmd "set rtp^=$root,$root/examples/hello" --cmd "runtime plugin/vigor.vim" -S "$script" </dev/null || true
  fi
  secs=$(echo "$(date +%s.%N) - $start" | bc)
  got=$(cat "$out/$editor.txt" 2>/dev/null || echo "ERROR: no answer")
  version=$("$bin" --version | head -1)
  printf '%-5s %-40s %6.2fs  %s\n' "$editor" "($version)" "$secs" "$got"
  [ "$got" = "Hello, CI!" ] || status=1
done
exit $status
