"""The preview page of an unpacked bag, in headless Chromium.

    python test_preview.py BAG_FOLDER OUT_FOLDER
    python test_preview.py BAG_FOLDER OUT_FOLDER --readme-screenshot shot.png --viewport 1200x760

Opens BAG_FOLDER/data/preview/index.html from file:// and checks what
issue 18 asks of it, against the bag's own clauses.json, categories.json
and Contents.json; a screenshot of each state goes to OUT_FOLDER. Prints
one line a check; exits 1 if any failed. Run by PreviewBrowserTests
(Tests/MCPackTests), which builds the bag with mcpack first.
"""

import argparse
import json
import math
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from browser import Checks, PageRun, file_path  # noqa: E402


def rgb(colour):
    """'#8B1E1EB3' -> 'rgb(139, 30, 30)', as getComputedStyle writes it."""
    return "rgb({}, {}, {})".format(*(int(colour[i:i + 2], 16) for i in (1, 3, 5)))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("bag")
    parser.add_argument("out")
    parser.add_argument("--readme-screenshot", help="also save the README's screenshot here")
    parser.add_argument("--viewport", default="1280x860", help="the window's size in CSS pixels, WxH")
    args = parser.parse_args()

    bag = Path(args.bag).resolve()
    data = bag / "data"
    clauses = json.loads((data / "clauses.json").read_text())
    categories = json.loads((data / "categories.json").read_text())
    bundle = json.loads((data / "bundle.json").read_text())
    contents_path = data / "Assets.xcassets/AppIcon.appiconset/Contents.json"
    icons = json.loads(contents_path.read_text())["images"] if contents_path.exists() else []
    launch = sorted((data / "launch/preview").glob("*.png")) if (data / "launch/preview").exists() else []
    width, height = clauses["master"]["width"], clauses["master"]["height"]
    checks = Checks()

    viewport = tuple(int(v) for v in args.viewport.split("x"))
    with PageRun(args.out, root=bag, viewport=viewport) as run:
        page = run.open(data / "preview/index.html")
        run.screenshot("opened")

        # Opens from file:// with nothing outside the bag and no errors.
        checks.expect(not run.errors(), "the page opens with no console errors", run.errors())
        checks.expect(run.requests and not run.outside(), "every request stays inside the bag", run.outside())
        checks.expect(not run.failed, "every request succeeds", run.failed)
        text = page.inner_text("body")
        info = bundle["bundle"]
        for fact in (info["name"], info["version"], info["source_date"], "sha256sum -c", "mcpack verify"):
            checks.expect(fact in text, f"the page says {fact!r}")

        # The overlays drawn are the rectangles of clauses.json, in their colours.
        plane = page.locator("#plane").bounding_box()
        scale = plane["width"] / width
        tolerance = max(1.0, 1.0 / scale)
        overlays = page.locator("button.overlay")
        expected = [(c, rect) for c in clauses["clauses"] for rect in (o["pixels"] for o in c["overlays"])]
        checks.expect(overlays.count() == len(expected), f"{len(expected)} overlays are drawn", overlays.count())
        worst = 0.0
        wrong = []
        for index, (clause, rect) in enumerate(expected[:overlays.count()]):
            button = overlays.nth(index)
            box = button.bounding_box()
            drawn = [(box["x"] - plane["x"]) / scale, (box["y"] - plane["y"]) / scale, box["width"] / scale, box["height"] / scale]
            error = max(abs(a - b) for a, b in zip(drawn, rect))
            worst = max(worst, error)
            colour = button.evaluate("b => getComputedStyle(b).borderTopColor")
            if error > tolerance or button.get_attribute("data-clause") != clause["id"] or colour != rgb(clause["colour"]):
                wrong.append((clause["id"], rect, [round(v, 1) for v in drawn], colour))
        checks.expect(not wrong, f"each overlay is its clause's rectangle (within {tolerance:.1f} master px; worst {worst:.2f}) "
                      "in its colour", wrong[:5])

        # Every overlay is a control with the clause's title as its name.
        unnamed = [c["id"] for c in clauses["clauses"]
                   if page.get_by_role("button", name=c["title"], exact=True).count() < 1]
        checks.expect(not unnamed, "every clause has a button named by its title", unnamed)
        page.focus("#viewer")
        page.keyboard.press("Tab")
        focused = page.evaluate("document.activeElement.dataset.clause || null")
        checks.expect(focused == clauses["clauses"][0]["id"], "Tab from the document reaches the first clause's overlay", focused)

        # A click on an overlay shows that clause in the panel.
        clause = max(clauses["clauses"], key=lambda c: c["overlays"][0]["pixels"][2] * c["overlays"][0]["pixels"][3])
        page.get_by_role("button", name=clause["title"], exact=True).click()
        panel = page.locator("#panel")
        panel.wait_for(state="visible")
        page.wait_for_timeout(300)  # the panel slides in
        run.screenshot("clause-panel")
        shown = {
            "number": page.inner_text("#panel-number"), "title": page.inner_text("#panel-title"),
            "translation": page.text_content("#panel-translation"), "context": page.text_content("#panel-context"),
            "categories": page.locator("#panel-categories li").all_inner_texts(),
        }
        checks.expect(clause["id"] in shown["number"] or clause["id"].lower() in shown["number"].lower(),
                      f"the panel shows clause {clause['id']}'s number", shown["number"])
        checks.expect(shown["title"] == clause["title"], "the panel shows its title", shown["title"])
        checks.expect(shown["translation"] == clause["translation"], "the panel shows its translation")
        checks.expect(shown["context"] == clause["context"], "the panel shows its context")
        checks.expect(shown["categories"] == clause["categories"], "the panel shows its categories", shown["categories"])
        if args.readme_screenshot:
            run.screenshot("readme", path=args.readme_screenshot)
        page.keyboard.press("Escape")
        panel.wait_for(state="hidden")
        checks.expect(True, "Escape closes the panel")

        # The filter: one button a category, named by it, with its icon.
        names = [c["name"] for c in categories]
        buttons = page.locator("#filters button")
        checks.expect(buttons.all_inner_texts() == names, f"the filter lists the {len(names)} categories in order",
                      buttons.all_inner_texts())
        icons_loaded = buttons.locator("img").evaluate_all("imgs => imgs.map(i => i.complete && i.naturalWidth > 0)")
        checks.expect(icons_loaded and all(icons_loaded), "every category's icon is shown")

        def visible_clauses():
            ids = overlays.evaluate_all("bs => bs.filter(b => !b.hidden && b.offsetParent !== null).map(b => b.dataset.clause)")
            return set(ids)

        everything = {c["id"] for c in clauses["clauses"]}
        content = [c for c in categories if not c["filter"]]
        tagged = {c["name"]: {x["id"] for x in clauses["clauses"] if c["name"] in x["categories"]} for c in content}
        chosen = max(content, key=lambda c: 0 < len(tagged[c["name"]]) < len(everything) and len(tagged[c["name"]]))
        page.get_by_role("button", name=chosen["name"], exact=True).click()
        run.screenshot("filter")
        checks.expect(visible_clauses() == tagged[chosen["name"]],
                      f"the filter \"{chosen['name']}\" shows its {len(tagged[chosen['name']])} clauses and hides the others",
                      sorted(visible_clauses() ^ tagged[chosen["name"]]))
        pressed = page.get_by_role("button", name=chosen["name"], exact=True).get_attribute("aria-pressed")
        checks.expect(pressed == "true", "the chosen filter is marked pressed", pressed)
        for special, want in (("none", set()), ("all", everything)):
            for category in (c for c in categories if c["filter"] == special):
                page.get_by_role("button", name=category["name"], exact=True).click()
                checks.expect(visible_clauses() == want, f"the \"{special}\" filter \"{category['name']}\" shows "
                              f"{len(want)} clauses", len(visible_clauses()))

        # Zooming in to the deepest level loads that level's tiles in view, and only those.
        document = json.loads(page.text_content("#bundle-data"))["document"]
        deepest = document["max_level"]
        before = len(run.requests)
        for _ in range(deepest + 2):
            if int(page.get_attribute("#viewer", "data-level")) == deepest:
                break
            page.click("#zoom-in")
        run.settle()
        run.screenshot("deepest-level")
        level = int(page.get_attribute("#viewer", "data-level"))
        checks.expect(level == deepest, f"zooming in reaches the deepest level, {deepest}", level)
        view = page.evaluate("""() => { const v = document.getElementById('viewer');
            return {scale: +v.dataset.scale, x: +v.dataset.x, y: +v.dataset.y, w: v.clientWidth, h: v.clientHeight}; }""")
        requested = set()
        tiles_url = (data / "preview" / document["tiles"]).resolve()
        for url in run.requests[before:]:
            path = file_path(url)
            if path is None or not path.resolve().is_relative_to(tiles_url):
                continue
            tile = tile_of(path.resolve().relative_to(tiles_url).as_posix(), document)
            if tile and tile[0] == deepest:
                requested.add(tile[1:])
        in_view = tiles_in_view(document, view)
        ts = document["tile_size"]
        total = math.ceil(width / ts) * math.ceil(height / ts)
        checks.expect(requested and requested == in_view,
                      f"the deepest level's tiles loaded are the {len(in_view)} in view, of its {total}",
                      {"requested, not in view": sorted(requested - in_view), "in view, not requested": sorted(in_view - requested)})
        checks.expect(len(in_view) < total, "the view at the deepest level shows part of the document, not all of it")
        drawn = page.locator("#tiles img").evaluate_all("imgs => imgs.map(i => i.complete && i.naturalWidth > 0)")
        checks.expect(drawn and all(drawn), f"the {len(drawn)} tiles drawn have loaded")

        # Dragging pans and the wheel zooms (mouse and trackpad alike).
        box = page.locator("#viewer").bounding_box()
        cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        x0 = float(page.get_attribute("#viewer", "data-x"))
        page.mouse.move(cx, cy)
        page.mouse.down()
        page.mouse.move(cx - 120, cy - 60, steps=6)
        page.mouse.up()
        x1 = float(page.get_attribute("#viewer", "data-x"))
        checks.expect(abs((x1 - x0) + 120) < 2, "a drag pans the document", x1 - x0)
        page.click("#zoom-fit")
        s0 = float(page.get_attribute("#viewer", "data-scale"))
        page.mouse.move(cx, cy)
        page.mouse.wheel(0, -300)
        page.wait_for_timeout(100)
        s1 = float(page.get_attribute("#viewer", "data-scale"))
        checks.expect(s1 > s0, "the wheel zooms in", (s0, s1))
        page.click("#zoom-fit")

        # The icon and launch sections show every file, at its size.
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        for img in page.locator("img[loading=lazy]").all():
            img.scroll_into_view_if_needed()
        run.settle()
        run.screenshot("icons-and-launch", full_page=True)
        images = page.evaluate("""() => Object.fromEntries(Array.from(document.images).map(
            i => [new URL(i.src).pathname, [i.complete, i.naturalWidth, i.naturalHeight]]))""")
        missing = []
        for icon in icons:
            side = round(float(icon["size"].split("x")[0]) * float(icon.get("scale", "1x").rstrip("x")))
            key = (data / "Assets.xcassets/AppIcon.appiconset" / icon["filename"]).as_posix()
            if images.get(key) != [True, side, side]:
                missing.append((icon["filename"], images.get(key)))
        checks.expect(icons and not missing, f"the icon section shows each of the {len(icons)} icons at its size", missing)
        captions = page.locator("section[aria-labelledby=icons-heading] figcaption").all_inner_texts()
        checks.expect(all(any(i["filename"] in c for c in captions) for i in icons),
                      "each icon is named with its idiom, size and pixels", captions[:3])
        missing = []
        for screen in launch:
            w, h = (int(v) for v in screen.stem.split("x"))
            if images.get(screen.as_posix()) != [True, w, h]:
                missing.append((screen.name, images.get(screen.as_posix())))
        checks.expect(launch and not missing, f"the launch section shows each of the {len(launch)} screens", missing)
        checks.expect(not run.errors() and not run.outside(), "still no console errors or requests outside the bag",
                      run.errors() + run.outside())

        print(json.dumps({"screenshots": run.screenshots, "requests": len(run.requests)}))

    # Touch: a tap on an overlay opens its clause; one finger pans, two pinch.
    with PageRun(args.out, root=bag, viewport=viewport, touch=True) as run:
        page = run.open(data / "preview/index.html")
        clause = clauses["clauses"][-1]
        page.get_by_role("button", name=clause["title"], exact=True).tap()
        page.locator("#panel").wait_for(state="visible")
        checks.expect(page.inner_text("#panel-title") == clause["title"], "a tap on an overlay opens its clause")
        page.keyboard.press("Escape")
        box = page.locator("#viewer").bounding_box()
        cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        x0 = float(page.get_attribute("#viewer", "data-x"))
        run.touch_gesture([((cx, cy), (cx + 80, cy))])
        x1 = float(page.get_attribute("#viewer", "data-x"))
        checks.expect(abs((x1 - x0) - 80) < 2, "one finger pans", x1 - x0)
        s0 = float(page.get_attribute("#viewer", "data-scale"))
        run.touch_gesture([((cx - 40, cy), (cx - 120, cy)), ((cx + 40, cy), (cx + 120, cy))])
        s1 = float(page.get_attribute("#viewer", "data-scale"))
        checks.expect(2.5 < s1 / s0 < 3.5, "two fingers moving apart zoom in by their spread (80 px to 240 px)", s1 / s0)
        run.screenshot("touch", path=Path(args.out) / "06-touch-pinched.png")
        checks.expect(not run.errors() and not run.outside(), "no console errors or requests outside the bag with touch",
                      run.errors() + run.outside())

    # The keyboard alone: Enter on an overlay opens it, Escape gives focus back.
    with PageRun(args.out, root=bag, viewport=viewport) as run:
        page = run.open(data / "preview/index.html")
        page.focus("#viewer")
        page.keyboard.press("Tab")
        page.keyboard.press("Enter")
        page.locator("#panel").wait_for(state="visible")
        first = clauses["clauses"][0]
        checks.expect(page.inner_text("#panel-title") == first["title"], "Enter on the focused overlay opens its clause")
        run.screenshot("keyboard", path=Path(args.out) / "07-keyboard-enter.png")
        page.keyboard.press("Escape")
        back = page.evaluate("document.activeElement.dataset.clause || null")
        checks.expect(back == first["id"], "Escape gives focus back to the overlay", back)
        s0 = float(page.get_attribute("#viewer", "data-scale"))
        page.focus("#viewer")
        page.keyboard.press("+")
        s1 = float(page.get_attribute("#viewer", "data-scale"))
        checks.expect(abs(s1 / s0 - 2) < 1e-6, "+ zooms in", s1 / s0)
    checks.finish()


def tile_of(relative, document):
    """(level, column, row) of a tile path under the tiles folder."""
    if document["layout"] == "iiif3":
        match = re.match(r"(\d+),(\d+),(\d+),(\d+)/(\d+),(\d+)/0/default\.", relative)
        if not match:
            return None
        x, y, w, h, sw, sh = (int(v) for v in match.groups())
        # A tile scaled by 2^k shows a region 2^k times its size (rounded up).
        factor = 1 if (w, h) == (sw, sh) else 2 ** max(1, round(math.log2(max(w / sw, h / sh))))
        level = document["max_level"] - int(math.log2(factor))
        span = document["tile_size"] * factor
        return (level, x // span, y // span)
    match = re.match(r"(\d+)/(\d+)_(\d+)\.", relative)
    return tuple(int(v) for v in match.groups()) if match else None


def tiles_in_view(document, view):
    """The deepest level's tiles that any part of the viewer shows: a tile's
    own square (its overlap aside) meets the master rectangle in view."""
    ts = document["tile_size"]
    s = view["scale"]
    x0, y0 = max(0, -view["x"] / s), max(0, -view["y"] / s)
    x1 = min(document["width"], (view["w"] - view["x"]) / s)
    y1 = min(document["height"], (view["h"] - view["y"]) / s)
    columns = range(math.ceil(document["width"] / ts))
    rows = range(math.ceil(document["height"] / ts))
    return {(c, r) for c in columns for r in rows
            if c * ts < x1 and (c + 1) * ts > x0 and r * ts < y1 and (r + 1) * ts > y0}


if __name__ == "__main__":
    main()
