#!/usr/bin/env bash
# Makes the README's pictures of the preview page: the example bundle built
# with mcpack, its page opened in headless Chromium by the browser test that
# checks it on the way, and the screenshot saved as a palette PNG by libvips,
# to keep the repository small. Needs what `make test` installs.
#
#   scripts/preview-screenshot.sh           docs/preview.png: a clause chosen
#                                           (Tests/Browser/test_preview.py)
#   scripts/preview-screenshot.sh measure   docs/measure.png: Measure mode,
#                                           zoomed in with a clause picked and a
#                                           rectangle drawn (test_measure.py)
set -euo pipefail
cd "$(dirname "$0")/.."
shot="${1:-preview}"
case "$shot" in preview | measure) ;; *) echo "usage: $0 [preview|measure]" >&2; exit 2 ;; esac
mcpack="${MCPACK:-.build/release/mcpack}"
py="$(scripts/test-python.sh)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$mcpack" build --output "$work/dist" >/dev/null
page="$("$mcpack" preview --no-open "$work/dist/magna-carta-1.0.0.zip")"
bag="${page%/data/preview/index.html}"
"$py" "Tests/Browser/test_$shot.py" "$bag" "$work/shots" --viewport 1200x760 --readme-screenshot "$work/$shot.png" >/dev/null
vips copy "$work/$shot.png" "docs/$shot.png[palette,Q=85,compression=9]"
rm -rf "$(dirname "$bag")"
echo "docs/$shot.png"
