"""Headless Chromium for mcpack's page tests (the preview page, the diff
page), through Playwright for Python.

Playwright is pointed at a browser already on the machine (Debian's
`chromium`, or Google Chrome on macOS): it never downloads one. A page is
opened from file://, and everything it does that a test may assert on is
recorded: console messages, uncaught errors, every request, and the
screenshots taken, which are kept under the run's output folder.

    from browser import PageRun, Checks
    with PageRun(out_dir, root=bag_dir) as run:
        page = run.open(page_path)
        checks.expect(not run.errors(), "no console errors", run.errors())
        run.screenshot("opened")
"""

import os
import shutil
import sys
from pathlib import Path
from urllib.parse import unquote, urlparse

from playwright.sync_api import sync_playwright

MAC_CHROME = "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome"


def find_chromium():
    """The browser to drive: $MCPACK_CHROMIUM, else chromium on PATH, else
    Google Chrome's app on macOS, else the Chromium Playwright installed
    (`python -m playwright install chromium`, which scripts/install-deps.sh
    runs where the system has no Chromium package, as on Ubuntu, whose
    chromium is a snap); None when there is none."""
    chosen = os.environ.get("MCPACK_CHROMIUM")
    if chosen:
        return chosen
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        # Ubuntu's chromium-browser is a script that asks for the snap.
        if found and "snap" not in Path(found).resolve().as_posix() and not _is_snap_stub(found):
            return found
    if os.path.exists(MAC_CHROME):
        return MAC_CHROME
    with sync_playwright() as playwright:
        own = playwright.chromium.executable_path
    return own if own and os.path.exists(own) else None


def _is_snap_stub(path):
    try:
        with open(path, "rb") as file:
            head = file.read(4096)
    except OSError:
        return True
    return head.startswith(b"#!") and b"snap" in head


def file_path(url):
    """The local path of a file:// URL, or None for any other URL."""
    parsed = urlparse(url)
    if parsed.scheme != "file":
        return None
    return Path(unquote(parsed.path))


class PageRun:
    """One headless browser with one page, recording what the page does.

    `root`: the folder every request must stay inside (the bag); `out_dir`:
    where screenshots go, made if missing."""

    def __init__(self, out_dir, root=None, viewport=(1280, 860), scale=1, touch=False):
        self.out_dir = Path(out_dir)
        self.root = Path(root).resolve() if root else None
        self.viewport = viewport
        self.scale = scale
        self.touch = touch
        self.console = []
        self.page_errors = []
        self.requests = []
        self.failed = []
        self.screenshots = []

    def __enter__(self):
        executable = find_chromium()
        if executable is None:
            raise RuntimeError("no Chromium found: install Debian's chromium (apt-get install chromium), "
                               "or set MCPACK_CHROMIUM to a Chromium or Chrome executable")
        self.out_dir.mkdir(parents=True, exist_ok=True)
        self._playwright = sync_playwright().start()
        # --no-sandbox: the tests run as root in containers, where Chromium's
        # sandbox cannot start.
        self.browser = self._playwright.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        self.context = self.browser.new_context(
            viewport={"width": self.viewport[0], "height": self.viewport[1]}, device_scale_factor=self.scale,
            has_touch=self.touch)
        self.page = self.context.new_page()
        self.page.on("console", lambda message: self.console.append((message.type, message.text)))
        self.page.on("pageerror", lambda error: self.page_errors.append(str(error)))
        self.page.on("request", lambda request: self.requests.append(request.url))
        self.page.on("requestfailed", lambda request: self.failed.append(request.url))
        return self

    def __exit__(self, *exc):
        self.context.close()
        self.browser.close()
        self._playwright.stop()
        return False

    def open(self, path):
        """Opens a local file and waits until it and what it loads have loaded."""
        self.page.goto(Path(path).resolve().as_uri(), wait_until="load")
        self.settle()
        return self.page

    def settle(self):
        """Waits until no request is pending and every image has decoded."""
        self.page.wait_for_load_state("networkidle")
        self.page.wait_for_function(
            "Array.from(document.images).filter(i => i.loading !== 'lazy' || i.getBoundingClientRect().top < innerHeight)"
            ".every(i => i.complete)")

    def touch_gesture(self, paths, steps=8):
        """Moves fingers as a touch screen would: `paths` holds one
        ((x0, y0), (x1, y1)) a finger, in page coordinates. One finger
        drags, two pinch. Sent through the DevTools protocol, as Playwright
        has no multi-touch of its own."""
        cdp = self.page.context.new_cdp_session(self.page)

        def points(t):
            return [{"x": a[0] + (b[0] - a[0]) * t, "y": a[1] + (b[1] - a[1]) * t, "id": i} for i, (a, b) in enumerate(paths)]

        cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": points(0)})
        for step in range(1, steps + 1):
            cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": points(step / steps)})
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        cdp.detach()

    def errors(self):
        """Console errors and uncaught exceptions, as text."""
        return [text for kind, text in self.console if kind == "error"] + self.page_errors

    def outside(self):
        """The requests that left `root`: another scheme, or a file elsewhere."""
        found = []
        for url in self.requests:
            if url.startswith("data:"):
                continue
            path = file_path(url)
            if path is None or self.root is None or not path.resolve().is_relative_to(self.root):
                found.append(url)
        return found

    def screenshot(self, name, full_page=False, path=None):
        """Saves a PNG of the page as it is now, under out_dir unless `path` is given."""
        target = Path(path) if path else self.out_dir / f"{len(self.screenshots) + 1:02d}-{name}.png"
        self.page.screenshot(path=str(target), full_page=full_page)
        self.screenshots.append(str(target))
        return target


class Checks:
    """Named checks of one run: each prints as it is made, and the run
    exits 1 if any failed, naming them."""

    def __init__(self):
        self.failed = []
        self.count = 0

    def expect(self, ok, name, detail=None):
        self.count += 1
        if ok:
            print(f"ok      {name}")
        else:
            self.failed.append(name)
            print(f"FAILED  {name}" + (f": {detail}" if detail is not None else ""))
        return ok

    def finish(self):
        print(f"{self.count - len(self.failed)} of {self.count} checks passed")
        sys.exit(1 if self.failed else 0)


if __name__ == "__main__":
    # `python browser.py --find`: the browser the tests would drive, or why there is none.
    if sys.argv[1:] == ["--find"]:
        found = find_chromium()
        if found:
            print(found)
        else:
            print("no Chromium: install Debian's chromium (apt-get install chromium), or run "
                  "`python -m playwright install chromium`, or set MCPACK_CHROMIUM", file=sys.stderr)
        sys.exit(0 if found else 1)
