"""Measure mode of the preview page of an unpacked bag, in headless Chromium.

    python test_measure.py BAG_FOLDER OUT_FOLDER
    python test_measure.py BAG_FOLDER OUT_FOLDER --readme-screenshot shot.png --viewport 1200x760

Opens BAG_FOLDER/data/preview/index.html from file:// and checks what
issue 32 asks of Measure mode, against the bag's own clauses.json: a drag
over an overlay's drawn rectangle gives that clause's rectangle, within one
screen pixel's worth of master pixels, at two zoom levels, with a mouse and
with a finger; picking an overlay shows its line; a clause's rectangles are
edited and given back as its whole `overlays` line; no request leaves the
bag. Prints one line a check; exits 1 if any failed. Run by
MeasureBrowserTests (Tests/MCPackTests), which builds the bag first.
"""

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from browser import Checks, PageRun  # noqa: E402


def to_file(rect, k):
    """A master rectangle in the pixels clauses.toml is written in: each
    edge times k (the copy's width over the master's), rounded half up."""
    edge = lambda v: int(v * k + 0.5)
    x, y = edge(rect[0]), edge(rect[1])
    return [x, y, edge(rect[0] + rect[2]) - x, edge(rect[1] + rect[3]) - y]


def line(rects):
    """The clauses.toml line of some rectangles."""
    return "overlays = [" + ", ".join("[" + ", ".join(str(v) for v in r) + "]" for r in rects) + "]"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("bag")
    parser.add_argument("out")
    parser.add_argument("--readme-screenshot", help="also save the README's screenshot of Measure mode here")
    parser.add_argument("--viewport", default="1280x860", help="the window's size in CSS pixels, WxH")
    args = parser.parse_args()

    bag = Path(args.bag).resolve()
    data = bag / "data"
    clauses = json.loads((data / "clauses.json").read_text())["clauses"]
    viewport = tuple(int(v) for v in args.viewport.split("x"))
    checks = Checks()

    # The rectangle measured: the widest of at most 40% of the master's
    # width, so a drag over it is long enough to be a drag at the fitted
    # zoom and it fits in the view zoomed in once.
    master = json.loads((data / "clauses.json").read_text())["master"]
    clause, rect = max(((c, o["pixels"]) for c in clauses for o in c["overlays"] if o["pixels"][2] <= 0.4 * master["width"]),
                       key=lambda pair: pair[1][2])
    # With [clauses] measured_width the page gives the copy's pixels, as clauses.toml has them.
    page_data = (data / "preview/index.html").read_text()
    start = page_data.index('id="bundle-data">') + len('id="bundle-data">')
    measured_width = json.loads(page_data[start:page_data.index("</script>", start)]).get("measured_width")
    k = measured_width / master["width"] if measured_width else 1
    overlay_rect = rect
    rect = to_file(rect, k)
    rects = [to_file(o["pixels"], k) for o in clause["overlays"]]

    def overlay(page):
        return page.locator(f'button.overlay[data-clause="{clause["id"]}"][data-rect="{",".join(map(str, overlay_rect))}"]')

    def state(page):
        return page.evaluate("""() => { const v = document.getElementById('viewer');
            return {scale: +v.dataset.scale, line: document.getElementById('measure-line').textContent,
                    rect: document.getElementById('measure-line').dataset.rect || null,
                    clause: document.getElementById('measure-clause-line').textContent}; }""")

    def zoom_to(page, steps, run):
        """Fits the document, zooms in `steps` times, and brings the overlay into view."""
        page.click("#zoom-fit")
        for _ in range(steps):
            page.click("#zoom-in")
        # Focus pans to an overlay out of view, as Tab does.
        overlay(page).evaluate("b => b.focus()")
        page.locator("#viewer").focus()
        run.settle()

    def measured(page, label, drag):
        """Drags over the overlay's drawn box by `drag(start, end)` and checks the line given."""
        box = overlay(page).bounding_box()
        viewer = page.locator("#viewer").bounding_box()
        start, end = (box["x"], box["y"]), (box["x"] + box["width"], box["y"] + box["height"])
        inside = all(viewer["x"] <= x <= viewer["x"] + viewer["width"] and viewer["y"] <= y <= viewer["y"] + viewer["height"]
                     for x, y in (start, end))
        checks.expect(inside, f"{label}: the overlay is in view", (box, viewer))
        drag(start, end)
        now = state(page)
        got = [int(v) for v in now["rect"].split(",")] if now["rect"] else None
        # One screen pixel is 1/scale master pixels (k/scale pixels of a copy);
        # the line is rounded to whole pixels.
        tolerance = k / now["scale"]
        error = max(abs(a - b) for a, b in zip(got, rect)) if got else None
        checks.expect(got is not None and error <= tolerance,
                      f"{label}: a drag over clause {clause['id']}'s overlay at {now['scale'] * 100:.0f}% gives {rect} "
                      f"within {tolerance:.2f} {'px of the copy' if measured_width else 'master px'}", {"got": got, "error": error})
        checks.expect(got is not None and now["line"] == line([got]), f"{label}: the line is ready for clauses.toml", now["line"])
        return got

    with PageRun(args.out, root=bag, viewport=viewport) as run:
        page = run.open(data / "preview/index.html")
        toggle = page.get_by_role("button", name="Measure", exact=True)
        checks.expect(toggle.count() == 1, "a button named \"Measure\"")
        toggle.click()
        checks.expect(toggle.get_attribute("aria-pressed") == "true", "it turns Measure mode on (aria-pressed)")
        checks.expect(page.locator("#measure-panel").is_visible(), "the Measure panel shows")

        def mouse_drag(start, end):
            page.mouse.move(*start)
            page.mouse.down()
            page.mouse.move(*end, steps=8)
            page.mouse.up()

        scales = []
        for steps in (0, 1):
            zoom_to(page, steps, run)
            scales.append(state(page)["scale"])
            measured(page, f"mouse, zoom {steps}", mouse_drag)
        checks.expect(len(set(scales)) == 2, "the two zoom levels differ", scales)
        run.screenshot("drawn")
        checks.expect(not page.locator("#panel").is_visible(), "a drag in Measure mode opens no clause panel")

        # A click on an overlay picks it: its own line, and its clause's whole line.
        zoom_to(page, 0, run)
        box = overlay(page).bounding_box()
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        now = state(page)
        checks.expect(now["line"] == line([rect]), "picking an overlay shows its line", now["line"])
        checks.expect(now["clause"] == line(rects), f"and clause {clause['id']}'s whole overlays line", now["clause"])
        checks.expect(not page.locator("#panel").is_visible(), "picking opens no clause panel")
        run.screenshot("picked")

        # Editing: a drawn rectangle replaces one, is added, and one is removed.
        vbox = page.locator("#viewer").bounding_box()
        plane = page.locator("#plane").bounding_box()
        x0, y0 = max(plane["x"], vbox["x"]) + 20, max(plane["y"], vbox["y"]) + 20
        mouse_drag((x0, y0), (x0 + 60, y0 + 30))
        new = [int(v) for v in state(page)["rect"].split(",")]
        page.get_by_role("button", name="Replace rectangle 1 with the drawn one").click()
        edited = [new] + rects[1:]
        checks.expect(state(page)["clause"] == line(edited), "a drawn rectangle replaces rectangle 1 in the clause's line",
                      state(page)["clause"])
        if len(rects) < 4:
            page.get_by_role("button", name="Add the drawn rectangle").click()
            edited = edited + [new]
            checks.expect(state(page)["clause"] == line(edited), "and is added as the last", state(page)["clause"])
        page.get_by_role("button", name="Remove rectangle 1").click()
        edited = edited[1:]
        checks.expect(state(page)["clause"] == line(edited), "a rectangle is removed", state(page)["clause"])
        drafts = page.locator(".measure-draft").count()
        checks.expect(drafts == len(edited), f"the {len(edited)} rectangles of the edited clause are drawn", drafts)
        if args.readme_screenshot:
            # The README's picture: zoomed in, a clause picked, a rectangle being drawn over its overlay.
            page.get_by_role("button", name="Undo edits").click()
            zoom_to(page, 2, run)
            box = overlay(page).bounding_box()
            page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            mouse_drag((box["x"] - 4, box["y"] - 3), (box["x"] + box["width"] * 0.55, box["y"] + box["height"] + 5))
            run.settle()
            run.screenshot("readme", path=args.readme_screenshot)
        page.get_by_role("button", name="Undo edits").click()
        checks.expect(state(page)["clause"] == line(rects), "Undo edits gives the clause's own line back")

        # Copy: to the clipboard where the page may write it, selected either way.
        run.context.grant_permissions(["clipboard-read", "clipboard-write"])
        page.get_by_role("button", name="Copy the clause's line").click()
        selected = page.evaluate("String(window.getSelection())")
        checks.expect(selected == line(rects), "Copy selects the clause's line", selected)

        # The key M leaves Measure mode, and a click opens a clause again.
        page.locator("#viewer").focus()
        page.keyboard.press("m")
        checks.expect(toggle.get_attribute("aria-pressed") == "false", "the key M turns Measure mode off")
        checks.expect(not page.locator("#measure-panel").is_visible(), "and hides its panel")
        page.keyboard.press("m")
        checks.expect(toggle.get_attribute("aria-pressed") == "true", "and M turns it on again")
        page.keyboard.press("m")
        overlay(page).click()
        page.locator("#panel").wait_for(state="visible")
        checks.expect(page.inner_text("#panel-title") == clause["title"], "out of Measure mode a click opens the clause again")
        checks.expect(not run.errors(), "no console errors", run.errors())
        checks.expect(run.requests and not run.outside(), "no request outside the bag", run.outside())

    # A finger: the same drags, sent as touch through the DevTools protocol.
    with PageRun(args.out, root=bag, viewport=viewport, touch=True) as run:
        page = run.open(data / "preview/index.html")
        page.get_by_role("button", name="Measure", exact=True).tap()

        def finger(start, end):
            run.touch_gesture([(start, end)])

        scales = []
        for steps in (0, 1):
            zoom_to(page, steps, run)
            scales.append(state(page)["scale"])
            measured(page, f"touch, zoom {steps}", finger)
        checks.expect(len(set(scales)) == 2, "the two zoom levels differ (touch)", scales)
        # Two fingers still pinch, and leave the rectangle drawn as it was.
        before = state(page)
        vbox = page.locator("#viewer").bounding_box()
        cx, cy = vbox["x"] + vbox["width"] / 2, vbox["y"] + vbox["height"] / 2
        run.touch_gesture([((cx - 40, cy), (cx - 120, cy)), ((cx + 40, cy), (cx + 120, cy))])
        after = state(page)
        checks.expect(2.5 < after["scale"] / before["scale"] < 3.5, "in Measure mode two fingers pinch",
                      after["scale"] / before["scale"])
        checks.expect(after["line"] == before["line"], "and the drawn rectangle stays as it was", after["line"])
        zoom_to(page, 0, run)
        overlay(page).tap()
        now = state(page)
        checks.expect(now["line"] == line([rect]) and now["clause"] == line(rects), "a tap picks an overlay", now)
        run.screenshot("touch-picked")
        checks.expect(not run.errors(), "no console errors (touch)", run.errors())
        checks.expect(run.requests and not run.outside(), "no request outside the bag (touch)", run.outside())
    checks.finish()


if __name__ == "__main__":
    main()
