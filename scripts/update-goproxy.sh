#!/usr/bin/env bash
# Writes third_party/goproxy: the modules that the SDK needs to build, laid
# out as a module proxy (GOPROXY=file://...), so that Vigor and plugins that
# need nothing else build offline from an empty module cache. Run it after
# changing go.mod; TestGoproxyInSync fails until then.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT
GOMODCACHE="$tmp" GOFLAGS=-modcacherw GOWORK=off go mod download
rm -rf third_party/goproxy
(cd "$tmp/cache/download" && find . -type f \( -name list -o -name '*.info' -o -name '*.mod' -o -name '*.zip' \)) |
  while read -r f; do
    mkdir -p "third_party/goproxy/$(dirname "$f")"
    cp "$tmp/cache/download/$f" "third_party/goproxy/$f"
  done
find third_party/goproxy -type f | sort
