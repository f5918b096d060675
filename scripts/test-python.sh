#!/usr/bin/env bash
# Makes .build/test-python, the virtual environment the browser and IIIF
# tests run in, from Tests/Python/requirements.txt, and prints its python.
# It needs Python 3.12 or later (iiif-validator-ng uses 3.12 syntax); Debian
# bookworm's python3 is 3.11, so it looks for python3.12/python3.13 on PATH
# and in pyenv's versions. A venv already made from the same requirements
# is kept: the stamp file holds the requirements' hash.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.build/test-python
req=Tests/Python/requirements.txt
say() { printf 'test-python: %s\n' "$*" >&2; }

find_python() {
  local c
  for c in python3.13 python3.12 python3; do
    if command -v "$c" >/dev/null 2>&1 && "$c" -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null; then
      command -v "$c"; return 0
    fi
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
  say "needs Python 3.12 or later (python3.12 on PATH, or pyenv's); Debian bookworm has 3.11"
  exit 1
fi
say "making $venv with $py"
rm -rf "$venv"
"$py" -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$req"
echo "$stamp" > "$venv/.stamp"
echo "$PWD/$venv/bin/python"
