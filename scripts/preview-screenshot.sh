#!/usr/bin/env bash
# Makes docs/preview.png, the README's picture of the preview page: the
# example bundle built with mcpack, its page opened in headless Chromium by
# Tests/Browser/test_preview.py (which checks it on the way) with a clause
# chosen, and the screenshot saved as a palette PNG by libvips, to keep the
# repository small. Needs what `make test` installs.
set -euo pipefail
cd "$(dirname "$0")/.."
mcpack="${MCPACK:-.build/release/mcpack}"
py="$(scripts/test-python.sh)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$mcpack" build --output "$work/dist" >/dev/null
page="$("$mcpack" preview --no-open "$work/dist/magna-carta-1.0.0.zip")"
bag="${page%/data/preview/index.html}"
"$py" Tests/Browser/test_preview.py "$bag" "$work/shots" --viewport 1200x760 --readme-screenshot "$work/preview.png" >/dev/null
vips copy "$work/preview.png" "docs/preview.png[palette,Q=85,compression=9]"
rm -rf "$(dirname "$bag")"
echo docs/preview.png
