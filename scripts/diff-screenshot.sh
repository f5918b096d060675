#!/usr/bin/env bash
# Makes docs/diff.png, the README's picture of the diff page: the example
# project built as 1.0.0, its master retouched (a 600 x 400 px area
# brightened) and saved again as JPEG, as an editor would, built as 1.0.1;
# `mcpack diff --html` of the two opened in headless Chromium by
# Tests/Browser/test_diff.py (which checks it on the way), and the
# screenshot saved as a palette PNG by libvips, to keep the repository
# small. Needs what `make test` installs.
set -euo pipefail
cd "$(dirname "$0")/.."
mcpack="${MCPACK:-$PWD/.build/release/mcpack}"
py="$(scripts/test-python.sh)"
root="$PWD"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir "$work/project"
cp -R bundle.toml assets MagnaCarta "$work/project/"
cd "$work/project"
"$mcpack" build >/dev/null
# pyvips, from the test environment: the retouch is test data, not mcpack's work.
"$py" - assets/document/magna-carta.jpg <<'PY'
import sys, pyvips
path = sys.argv[1]
master = pyvips.Image.new_from_file(path, access="random")
x, y, w, h = 1700, 1200, 600, 400
patch = (master.crop(x, y, w, h) * 1.25 + 12).cast("uchar")
master.insert(patch, x, y).jpegsave(path + ".new.jpg", Q=90)
PY
mv assets/document/magna-carta.jpg.new.jpg assets/document/magna-carta.jpg
sed -i.bak 's/^version = "1.0.0"/version = "1.0.1"/' bundle.toml
"$mcpack" build >/dev/null
status=0
"$mcpack" diff 1.0.0 1.0.1 --html "$work/diff.html" >/dev/null || status=$?
[ "$status" = 1 ] || { echo "diff-screenshot: mcpack diff exited $status, expected 1 (differences)" >&2; exit 1; }
cd "$root"
"$py" Tests/Browser/test_diff.py "$work/diff.html" "$work/shots" --viewport 1200x760 --readme-screenshot "$work/diff.png" >/dev/null
vips copy "$work/diff.png" "docs/diff.png[palette,Q=85,compression=9]"
echo docs/diff.png
