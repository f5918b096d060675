"""The page `mcpack diff --html` writes, in headless Chromium.

    python test_diff.py PAGE OUT_FOLDER [--picture PATH]... [--readme-screenshot shot.png --viewport 1200x760]

Opens PAGE from file:// and checks what issue 21 asks of it: no console
errors and no request but the page itself (its pictures are embedded);
the three pictures of the document found by their accessible names; the
before/after pairs found by theirs; a click on a changed area brings its
full-resolution pair into view, decoded. A screenshot of each state goes
to OUT_FOLDER. Prints one line a check; exits 1 if any failed. Run by
DiffPageBrowserTests (Tests/MCPackTests), which makes the two bundles.
"""

import argparse
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from browser import Checks, PageRun  # noqa: E402


def decoded(locator):
    """True when every image the locator finds has loaded with pixels."""
    return locator.count() > 0 and all(
        locator.nth(i).evaluate("i => i.complete && i.naturalWidth > 0") for i in range(locator.count()))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("page")
    parser.add_argument("out")
    parser.add_argument("--readme-screenshot", help="also save the README's screenshot here")
    parser.add_argument("--viewport", default="1280x860", help="the window's size in CSS pixels, WxH")
    parser.add_argument("--picture", action="append", default=[],
                        help="a changed picture's path, whose before/after pair the page must show")
    args = parser.parse_args()

    page_path = Path(args.page).resolve()
    checks = Checks()
    viewport = tuple(int(v) for v in args.viewport.split("x"))
    with PageRun(args.out, root=page_path.parent, viewport=viewport) as run:
        page = run.open(page_path)
        run.screenshot("opened")
        if args.readme_screenshot:
            run.screenshot("readme", path=args.readme_screenshot)

        checks.expect(not run.errors(), "the page opens with no console errors", run.errors())
        own = page_path.as_uri()
        others = [url for url in run.requests if url != own and not url.startswith("data:")]
        checks.expect(not others, "the page loads nothing but itself (its pictures are embedded)", others)

        for name in ("the document before, whole", "the document after, whole",
                     "the document after, its visibly changed areas marked"):
            picture = page.get_by_role("img", name=name, exact=True)
            checks.expect(picture.count() == 1 and decoded(picture), f"the picture {name!r} is there, decoded")

        for path in args.picture:
            pair = page.get_by_role("group", name=path, exact=True)
            checks.expect(pair.count() == 1, f"a before/after pair for {path}")
            if pair.count() == 1:
                before = pair.get_by_role("img", name=re.compile(r"^before: "))
                after = pair.get_by_role("img", name=re.compile(r"^after: "))
                checks.expect(decoded(before) and decoded(after), f"{path}: before and after are decoded pictures")

        areas = page.get_by_role("link", name=re.compile(r"^changed area \d+"))
        checks.expect(areas.count() >= 1, "the map has at least one changed area to choose", areas.count())
        if areas.count():
            first = areas.first
            target = first.get_attribute("href") or ""
            first.click()
            run.settle()
            region = page.locator(target) if target.startswith("#") else None
            shown = region is not None and region.count() == 1
            checks.expect(shown and region.evaluate("e => e.matches(':target')"), "a click on a changed area goes to its region", target)
            if shown:
                box = region.bounding_box()
                checks.expect(box is not None and box["y"] < page.viewport_size["height"] and box["y"] + box["height"] > 0,
                              "the region is in view after the click", box)
                pictures = region.get_by_role("img")
                names = [pictures.nth(i).get_attribute("alt") or "" for i in range(pictures.count())]
                checks.expect(any(n.startswith("before: ") for n in names) and any(n.startswith("after: ") for n in names),
                              "the region shows old and new side by side", names)
                checks.expect(decoded(pictures), "the region's pictures are decoded")
            run.screenshot("changed-area")

    checks.finish()


if __name__ == "__main__":
    main()
