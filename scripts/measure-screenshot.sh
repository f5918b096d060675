#!/usr/bin/env bash
# Makes docs/measure.png, the README's picture of the preview page's Measure
# mode: the example bundle built with mcpack, its page opened in headless
# Chromium by Tests/Browser/test_measure.py (which checks Measure mode on the
# way), zoomed in with a clause picked and a rectangle drawn, and the
# screenshot saved as a palette PNG by libvips, to keep the repository
# small. Needs what `make test` installs.
set -euo pipefail
cd "$(dirname "$0")/.."
mcpack="${MCPACK:-.build/release/mcpack}"
py="$(scripts/test-python.sh)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$mcpack" build --output "$work/dist" >/dev/null
page="$("$mcpack" preview --no-open "$work/dist/magna-carta-1.0.0.zip")"
bag="${page%/data/preview/index.html}"
"$py" Tests/Browser/test_measure.py "$bag" "$work/shots" --viewport 1200x760 --readme-screenshot "$work/measure.png" >/dev/null
vips copy "$work/measure.png" "docs/measure.png[palette,Q=85,compression=9]"
rm -rf "$(dirname "$bag")"
echo docs/measure.png
