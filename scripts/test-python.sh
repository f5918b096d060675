#!/usr/bin/env bash
# Makes .build/test-python, the virtual environment the browser and IIIF
# tests run in, from Tests/Python/requirements.txt, and prints its python.
# It needs Python 3.12 or later (iiif-validator-ng uses 3.12 syntax); Debian
# bookworm's python3 is 3.11, so it looks for python3.12 (what Linux CI runs:
# Ubuntu 24.04's), then python3.13, python3.14 and python3 on PATH, in
# Homebrew's python@3.1x kegs (scripts/install-deps.sh --test installs
# python@3.12 on a Mac) and in pyenv's versions. A venv already made from the
# same requirements is kept: the stamp file holds the requirements' hash.
# Runs under macOS's own bash 3.2 too.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.build/test-python
req=Tests/Python/requirements.txt
say() { printf 'test-python: %s\n' "$*" >&2; }

new_enough() { "$1" -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null; }

find_python() {
  local c brew
  for c in python3.12 python3.13 python3.14 python3; do
    if command -v "$c" >/dev/null 2>&1 && new_enough "$c"; then
      command -v "$c"; return 0
    fi
  done
  # Homebrew's Python when its bin folder is not on PATH (a shell without
  # `brew shellenv`): its default prefixes, Apple silicon's and Intel's.
  for brew in "$(brew --prefix 2>/dev/null || true)" /opt/homebrew /usr/local; do
    [ -n "$brew" ] || continue
    for c in "$brew"/opt/python@3.1[2-9]/bin/python3.1[2-9]; do
      [ -x "$c" ] && new_enough "$c" && { echo "$c"; return 0; }
    done
  done
  for c in "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.1[2-9]*/bin/python3; do
    [ -x "$c" ] && { echo "$c"; return 0; }
  done
  return 1
}

stamp="$(cksum < "$req")"
if [ -x "$venv/bin/python" ] && [ "$(cat "$venv/.stamp" 2>/dev/null)" = "$stamp" ]; then
  echo "$PWD/$venv/bin/python"; exit 0
fi
if ! py="$(find_python)"; then
  case "$(uname -s)" in
    Darwin) say "needs Python 3.12 or later: brew install python@3.12 (scripts/install-deps.sh --test does)" ;;
    *) say "needs Python 3.12 or later (python3.12 on PATH, or pyenv's); Debian bookworm has 3.11" ;;
  esac
  exit 1
fi
say "making $venv with $py"
rm -rf "$venv"
"$py" -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$req"
echo "$stamp" > "$venv/.stamp"
echo "$PWD/$venv/bin/python"
