#!/usr/bin/env python3
"""Generate the example project's images under assets/.

Run from anywhere (paths are relative to the repository root):

    python3 scripts/make-example-assets.py

It reads assets/clauses.toml and writes

    assets/document/magna-carta.jpg    4000 x 2800 RGB "scan" of the charter;
                                       the writing sits under each clause's
                                       overlay rectangles
    assets/icon/AppIcon-1024.png       1024 x 1024 RGB app icon master
    assets/icon/AppIcon-dark.png       1024 x 1024 RGBA dark icon: the seal on
                                       a transparent background (iOS 18's dark
                                       home screen draws its own behind it)
    assets/icon/AppIcon-tinted.png     1024 x 1024 RGB tinted icon: the seal
                                       light on black, in colour on purpose so
                                       that mcpack's grey conversion shows
    assets/launch/background.png       1366 x 1366 RGB launch background
    assets/launch/text.png             900 x 300 RGBA launch text layer
    assets/categories/N.png            128 x 128 RGBA filter icons, one per
                                       [[category]] in clauses.toml

The output is deterministic: fixed seeds, no timestamps, no metadata, so
running it twice gives byte-identical files (for the same Pillow, numpy and
FreeType versions). Needs Python 3.11+ (tomllib), Pillow and numpy.
"""

import shutil
import subprocess
import sys

if sys.version_info < (3, 11):
    sys.exit("make-example-assets.py needs Python 3.11 or newer (for tomllib)")

import tomllib
from pathlib import Path


def _require(module, package):
    try:
        __import__(module)
    except ImportError:
        print(f"{package} is not installed; installing it with: "
              f"{sys.executable} -m pip install {package}", flush=True)
        try:
            subprocess.check_call([sys.executable, "-m", "pip", "install", package])
        except (subprocess.CalledProcessError, OSError) as err:
            sys.exit(f"could not install {package} ({err}); install it and run again")


_require("numpy", "numpy")
_require("PIL", "pillow")

import numpy as np  # noqa: E402
from PIL import Image, ImageDraw, ImageFilter, ImageFont  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
ASSETS = ROOT / "assets"
CLAUSES = ASSETS / "clauses.toml"

DOC_W, DOC_H = 4000, 2800
LINE_PITCH = 41          # the layout used by the overlays in clauses.toml
INK = (74, 46, 24)       # iron-gall brown
DARK_INK = (52, 32, 18)


# ---------------------------------------------------------------- parchment

def _smooth_noise(rng, w, h, cells_x, cells_y):
    """Low-frequency noise in [-1, 1]-ish: a coarse random grid, upscaled."""
    grid = rng.normal(0.0, 1.0, (cells_y, cells_x)).astype(np.float32)
    im = Image.fromarray(grid, mode="F").resize((w, h), Image.Resampling.BICUBIC)
    return np.asarray(im, dtype=np.float32)


def parchment(w, h, seed, grain=2.0, edge=0.22, folds=False):
    """A warm beige sheet: mottling at a few scales, fine grain, dark edges."""
    rng = np.random.default_rng(seed)
    scale = max(w, h) / 1000.0
    mottle = np.zeros((h, w), np.float32)
    for cells, amp in ((3, 9.0), (7, 6.0), (16, 3.5), (40, 1.8)):
        cx = max(2, round(cells * w / max(w, h)) + 1)
        cy = max(2, round(cells * h / max(w, h)) + 1)
        mottle += amp * _smooth_noise(rng, w, h, cx, cy)
    tint = 3.0 * _smooth_noise(rng, w, h, 5, 5)

    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    d = np.minimum(np.minimum(xx, w - 1 - xx), np.minimum(yy, h - 1 - yy))
    wobble = np.clip(1.0 + 0.35 * _smooth_noise(rng, w, h, 9, 9), 0.4, 2.0)
    shade = 1.0 - edge * np.exp(-d / (60.0 * scale * wobble))
    shade -= 0.05 * (((xx - w / 2) / (w / 2)) ** 2 + ((yy - h / 2) / (h / 2)) ** 2)
    if folds:
        # the faint creases of a charter that was once folded
        for fx in (w / 3, 2 * w / 3):
            shade -= 0.025 * np.exp(-((xx - fx) / (6 * scale)) ** 2)
        shade -= 0.02 * np.exp(-((yy - h / 2) / (6 * scale)) ** 2)

    base = np.array([228.0, 209.0, 170.0], np.float32)
    img = np.empty((h, w, 3), np.float32)
    for c, tint_k in enumerate((1.0, 0.2, -1.0)):
        chan = base[c] + mottle * (1.0 - 0.15 * c) + tint * tint_k
        if grain > 0:
            chan += rng.normal(0.0, grain, (h, w)).astype(np.float32)
        img[..., c] = chan * shade
    return Image.fromarray(np.clip(img + 0.5, 0, 255).astype(np.uint8), mode="RGB")


# ---------------------------------------------------------------- handwriting

def write_line(draw, rng, x0, x1, top):
    """Fill one line of writing from x0 to x1 with minim-script 'words'."""
    base = top + 27
    xh = 12                                   # x-height of the script
    x = x0 + int(rng.integers(4, 12))
    while True:
        nletters = int(rng.integers(2, 9))
        if x + nletters * 9 > x1 - 4:
            # fill what is left with a short word, if there is room
            nletters = (x1 - 4 - x) // 9
            if nletters < 1:
                break
        for _ in range(nletters):
            kind = rng.random()
            slant = 2
            if kind < 0.55:                   # one or two minims (i, n, m, u)
                for k in range(1 + (rng.random() < 0.5)):
                    draw.line([(x + slant, base - xh), (x, base)], fill=255, width=3)
                    x += 5
                draw.line([(x - 5, base - xh), (x - 2, base - xh - 2)], fill=200, width=2)
                x += 3
            elif kind < 0.72:                 # round letter (o, e, c)
                draw.ellipse([x, base - xh, x + 8, base], outline=255, width=3)
                x += 11
            elif kind < 0.87:                 # ascender (b, d, h, l, long s)
                draw.line([(x + 4, base - 25), (x, base)], fill=255, width=3)
                draw.line([(x + 4, base - 25), (x + 8, base - 23)], fill=220, width=2)
                x += 8
            else:                             # descender (p, q, long s)
                draw.line([(x + slant, base - xh), (x, base + 9)], fill=255, width=3)
                x += 7
        # abbreviation marks over some words, as scribes used
        if rng.random() < 0.15:
            draw.line([(x - 14, base - xh - 6), (x - 4, base - xh - 7)], fill=200, width=2)
        x += int(rng.integers(11, 19))
        if x >= x1 - 10:
            break


def make_document(clauses, path):
    img = parchment(DOC_W, DOC_H, seed=1215, grain=2.0, edge=0.22, folds=True)
    ink = Image.new("L", (DOC_W, DOC_H), 0)
    draw = ImageDraw.Draw(ink)
    rng = np.random.default_rng(61)
    nlines = 0
    tops = set()
    for clause in clauses:
        for x, y, w, h in clause.get("overlays", []):
            for top in range(y, y + h - 30, LINE_PITCH):
                write_line(draw, rng, x, x + w, top)
                tops.add(top)
                nlines += 1
    # faint ruling under every line of writing, as pricked and ruled by the scribe
    if tops:
        rule = Image.new("L", (DOC_W, DOC_H), 0)
        rd = ImageDraw.Draw(rule)
        left = min(x for c in clauses for x, _, _, _ in c.get("overlays", []))
        right = max(x + w for c in clauses for x, _, w, _ in c.get("overlays", []))
        for top in sorted(tops):
            rd.line([(left - 20, top + 28), (right + 20, top + 28)], fill=38, width=1)
        ink = Image.fromarray(np.maximum(np.asarray(ink), np.asarray(rule)), mode="L")
    ink = ink.filter(ImageFilter.GaussianBlur(0.6))
    # ink is not perfectly even: modulate its strength at low frequency
    rng2 = np.random.default_rng(1216)
    strength = 0.80 + 0.12 * _smooth_noise(rng2, DOC_W, DOC_H, 30, 21)
    alpha = np.clip(np.asarray(ink, np.float32) / 255.0 * strength, 0, 1)[..., None]
    page = np.asarray(img, np.float32)
    out = page * (1 - alpha) + np.array(INK, np.float32) * alpha
    Image.fromarray(np.clip(out + 0.5, 0, 255).astype(np.uint8), mode="RGB").save(
        path, "JPEG", quality=85, optimize=True, progressive=False, subsampling="4:2:0")
    return nlines


# ---------------------------------------------------------------- fonts

def font(size):
    """Pillow's bundled font (deterministic wherever Pillow runs), else DejaVu."""
    try:
        return ImageFont.load_default(size=size)
    except (TypeError, AttributeError, OSError):
        pass
    for p in ("/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf",
              "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"):
        if Path(p).exists():
            return ImageFont.truetype(p, size)
    return ImageFont.load_default()


def centred_text(draw, cx, cy, text, fnt, fill, stroke=0):
    l, t, r, b = draw.textbbox((0, 0), text, font=fnt, stroke_width=stroke)
    draw.text((cx - (l + r) / 2, cy - (t + b) / 2), text, font=fnt, fill=fill,
              stroke_width=stroke, stroke_fill=fill)


# ---------------------------------------------------------------- app icon

def make_icon(path, appearance="default"):
    """The seal on parchment (default), on nothing (dark) or on black (tinted)."""
    S = 2048                                  # drawn at 2x, then reduced
    if appearance == "default":
        img = parchment(S, S, seed=1024, grain=1.5, edge=0.30)
    else:
        img = Image.new("RGB", (S, S), (0, 0, 0))
    rng = np.random.default_rng(7)
    cx, cy, r = S / 2, S / 2 - 60, 700

    def blob(radius, jitter, n=180):
        a = np.linspace(0, 2 * np.pi, n, endpoint=False)
        wob = np.zeros(n)
        for k in (3, 5, 7, 11):
            wob += rng.normal(0, jitter / k) * np.sin(k * a + rng.uniform(0, 2 * np.pi))
        rr = radius * (1 + wob)
        return [(float(cx + rr[i] * np.cos(a[i])), float(cy + rr[i] * np.sin(a[i]))) for i in range(n)]

    d = ImageDraw.Draw(img)
    # ribbon tails under the seal
    for sgn in (-1, 1):
        x0 = cx + sgn * 150
        d.polygon([(x0 - 90, cy + 300), (x0 + 90, cy + 300),
                   (x0 + sgn * 260 + 90, S - 120), (x0 + sgn * 260, S - 200),
                   (x0 + sgn * 260 - 90, S - 120)], fill=(122, 24, 28))
    # wax: shadow, body, rim, inner field
    shadow = Image.new("L", (S, S), 0)
    ImageDraw.Draw(shadow).polygon([(x + 24, y + 30) for x, y in blob(r, 0.06)], fill=120)
    shadow = shadow.filter(ImageFilter.GaussianBlur(30))
    img = Image.composite(Image.new("RGB", (S, S), (80, 50, 30)), img, shadow)
    d = ImageDraw.Draw(img)
    d.polygon(blob(r, 0.06), fill=(150, 28, 32))
    d.ellipse([cx - r * 0.80, cy - r * 0.80, cx + r * 0.80, cy + r * 0.80], fill=(120, 18, 24))
    d.ellipse([cx - r * 0.74, cy - r * 0.74, cx + r * 0.74, cy + r * 0.74], fill=(166, 34, 38))
    # light from the upper left on the wax
    yy, xx = np.mgrid[0:S, 0:S].astype(np.float32)
    glow = np.exp(-(((xx - (cx - 250)) ** 2 + (yy - (cy - 250)) ** 2) / (2 * 420.0 ** 2)))
    arr = np.asarray(img, np.float32)
    red = (arr[..., 0] > arr[..., 1] + 60)[..., None]
    arr = np.where(red, arr + glow[..., None] * np.array([60, 25, 22], np.float32), arr)
    img = Image.fromarray(np.clip(arr + 0.5, 0, 255).astype(np.uint8), mode="RGB")
    d = ImageDraw.Draw(img)
    # a ring of dots, and the lettering
    for i in range(48):
        a = 2 * np.pi * i / 48
        px, py = cx + r * 0.87 * np.cos(a), cy + r * 0.87 * np.sin(a)
        d.ellipse([px - 14, py - 14, px + 14, py + 14], fill=(196, 70, 64))
    centred_text(d, cx, cy, "MC", font(620), (244, 226, 186), stroke=10)
    centred_text(d, cx, cy + 430, "1215", font(150), (236, 206, 160), stroke=3)
    img = img.resize((1024, 1024), Image.Resampling.LANCZOS)
    if appearance == "dark":
        # Drawn on black: how far a pixel is from black is how opaque it is,
        # so the wax and its shadow keep their edges over any background.
        arr = np.asarray(img, np.float32)
        alpha = np.clip(arr.max(axis=2) * 3.0, 0, 255)
        rgb = np.where(alpha[..., None] > 0, arr * 255.0 / np.maximum(alpha[..., None], 1), 0)
        rgba = np.dstack([np.clip(rgb + 0.5, 0, 255), alpha + 0.5]).astype(np.uint8)
        img = Image.fromarray(rgba, mode="RGBA")
    img.save(path, "PNG", optimize=True)


# ---------------------------------------------------------------- launch screen

def make_launch(bg_path, text_path):
    bg = parchment(1366, 1366, seed=1366, grain=0.0, edge=0.18)
    bg.save(bg_path, "PNG", optimize=True)

    W, H = 900, 300
    mask = Image.new("L", (W, H), 0)
    d = ImageDraw.Draw(mask)
    centred_text(d, W / 2, 105, "Magna Carta", font(118), 255, stroke=1)
    d.line([(250, 182), (650, 182)], fill=255, width=3)
    for x in (238, 662):
        d.ellipse([x - 6, 176, x + 6, 188], fill=255)
    centred_text(d, W / 2, 238, "Salisbury Cathedral", font(54), 255)
    out = Image.new("RGBA", (W, H), DARK_INK + (0,))
    out.putalpha(mask)
    out.save(text_path, "PNG", optimize=True)


# ---------------------------------------------------------------- category icons

BADGE = {
    "Key Clauses": (139, 30, 30), "Church": (91, 44, 131), "Feudal": (122, 82, 48),
    "Forest": (46, 107, 48), "Jews": (42, 127, 139), "Justice": (30, 58, 138),
    "King's Officers": (160, 82, 45), "Miscellaneous": (90, 90, 90),
    "Money": (176, 138, 24), "Peace": (59, 142, 165), "Trade": (210, 105, 30),
    "Wales & Scotland": (123, 63, 97), "Women": (194, 24, 91),
    "All": (55, 62, 70), "Hide Overlays": (55, 62, 70),
}
CREAM = (250, 241, 222, 255)


def _leaf(cx, cy, length, width, angle):
    t = np.linspace(-1, 1, 24)
    xs = np.concatenate([t, t[::-1]]) * length / 2
    ys = np.concatenate([np.sqrt(1 - t ** 2), -np.sqrt(1 - t[::-1] ** 2)]) * width / 2
    ca, sa = np.cos(angle), np.sin(angle)
    return [(float(cx + x * ca - y * sa), float(cy + x * sa + y * ca)) for x, y in zip(xs, ys)]


def glyph(d, name, bg):
    c = CREAM
    if name == "Key Clauses":                                   # a key
        d.ellipse([110, 186, 250, 326], outline=c, width=36)
        d.rectangle([244, 238, 420, 274], fill=c)
        d.rectangle([340, 274, 368, 330], fill=c)
        d.rectangle([392, 274, 420, 350], fill=c)
    elif name == "Church":                                      # a cross
        d.rectangle([226, 96, 286, 416], fill=c)
        d.rectangle([146, 170, 366, 230], fill=c)
    elif name == "Feudal":                                      # a castle
        d.rectangle([140, 210, 372, 400], fill=c)
        for x in range(140, 372, 58):
            d.rectangle([x, 160, x + 34, 212], fill=c)
        d.rectangle([226, 310, 286, 400], fill=bg)
        d.ellipse([226, 280, 286, 340], fill=bg)
    elif name == "Forest":                                      # a fir tree
        d.rectangle([236, 340, 276, 420], fill=c)
        for top, half, bot in ((92, 80, 200), (150, 115, 280), (215, 150, 360)):
            d.polygon([(256, top), (256 - half, bot), (256 + half, bot)], fill=c)
    elif name == "Jews":                                        # a scroll
        d.rectangle([160, 150, 352, 362], fill=c)
        for x in (138, 350):
            d.rounded_rectangle([x, 118, x + 24, 394], radius=12, fill=c)
            d.ellipse([x - 4, 96, x + 28, 128], fill=c)
            d.ellipse([x - 4, 384, x + 28, 416], fill=c)
        for y in range(190, 340, 36):
            d.line([(190, y), (322, y)], fill=bg, width=10)
    elif name == "Justice":                                     # scales
        d.rectangle([244, 120, 268, 392], fill=c)
        d.rectangle([176, 380, 336, 410], fill=c)
        d.rectangle([120, 150, 392, 170], fill=c)
        d.ellipse([236, 98, 276, 138], fill=c)
        for x in (150, 362):
            d.line([(x, 170), (x - 56, 292)], fill=c, width=8)
            d.line([(x, 170), (x + 56, 292)], fill=c, width=8)
            d.chord([x - 70, 236, x + 70, 340], 0, 180, fill=c)
    elif name == "King's Officers":                             # a crown
        d.polygon([(120, 360), (120, 180), (188, 270), (256, 150), (324, 270),
                   (392, 180), (392, 360)], fill=c)
        for x, y in ((120, 170), (256, 138), (392, 170)):
            d.ellipse([x - 22, y - 22, x + 22, y + 22], fill=c)
        d.rectangle([120, 372, 392, 404], fill=c)
    elif name == "Miscellaneous":                               # three dots
        for x in (150, 256, 362):
            d.ellipse([x - 38, 218, x + 38, 294], fill=c)
    elif name == "Money":                                       # coins
        for i, y in enumerate((356, 320, 284)):
            d.ellipse([112, y - 34, 292, y + 34], fill=c, outline=bg, width=8)
        d.ellipse([220, 150, 400, 330], fill=c)
        d.ellipse([248, 178, 372, 302], outline=bg, width=10)
    elif name == "Peace":                                       # an olive branch
        d.arc([110, 110, 470, 470], 150, 275, fill=c, width=14)
        for a_deg, side in ((160, 1), (180, -1), (200, 1), (220, -1), (240, 1), (258, -1)):
            a = np.radians(a_deg)
            px, py = 290 + 180 * np.cos(a), 290 + 180 * np.sin(a)
            ang = a + np.pi / 2 + side * 0.9
            d.polygon(_leaf(px + 42 * np.cos(ang), py + 42 * np.sin(ang), 90, 36, ang), fill=c)
        d.ellipse([96, 300, 140, 344], fill=c)
    elif name == "Trade":                                       # a ship
        d.polygon([(96, 318), (416, 318), (360, 396), (152, 396)], fill=c)
        d.rectangle([248, 100, 264, 320], fill=c)
        d.polygon([(272, 120), (272, 296), (392, 296)], fill=c)
        d.polygon([(240, 140), (240, 296), (140, 296)], fill=c)
        d.polygon([(264, 100), (316, 112), (264, 124)], fill=c)
    elif name == "Wales & Scotland":                            # hills
        d.polygon([(90, 380), (220, 170), (350, 380)], fill=c)
        d.polygon([(210, 380), (330, 200), (430, 380)], fill=c, outline=bg, width=10)
        d.line([(180, 236), (220, 170), (260, 236)], fill=bg, width=10)
    elif name == "Women":                                       # a ring with a stone
        d.ellipse([146, 210, 366, 430], outline=c, width=34)
        d.polygon([(256, 110), (306, 160), (256, 224), (206, 160)], fill=c)
        d.line([(206, 160), (306, 160)], fill=bg, width=6)
    elif name == "All":                                         # a grid
        for x in (136, 268):
            for y in (136, 268):
                d.rounded_rectangle([x, y, x + 108, y + 108], radius=18, fill=c)
    elif name == "Hide Overlays":                               # an eye, struck out
        d.polygon(_leaf(256, 256, 330, 190, 0.0), fill=c)
        d.ellipse([206, 206, 306, 306], fill=bg)
        d.ellipse([236, 236, 276, 276], fill=c)
        d.line([(130, 390), (382, 122)], fill=bg, width=40)
        d.line([(130, 390), (382, 122)], fill=c, width=20)
    else:                                                       # unknown: a dot
        d.ellipse([196, 196, 316, 316], fill=c)


def make_category_icon(name, path):
    S = 512
    bg = BADGE.get(name, (90, 90, 90))
    im = Image.new("RGBA", (S, S), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    d.ellipse([16, 16, S - 16, S - 16], fill=bg + (255,))
    d.ellipse([36, 36, S - 36, S - 36], outline=CREAM[:3] + (110,), width=6)
    glyph(d, name, bg + (255,))
    im.resize((128, 128), Image.Resampling.LANCZOS).save(path, "PNG", optimize=True)


# ---------------------------------------------------------------- main

def main():
    if not CLAUSES.is_file():
        sys.exit(f"{CLAUSES} not found; run from the repository that holds assets/clauses.toml")
    with CLAUSES.open("rb") as f:
        data = tomllib.load(f)
    clauses = data.get("clause", [])
    categories = data.get("category", [])

    for sub in ("document", "icon", "launch", "categories"):
        (ASSETS / sub).mkdir(parents=True, exist_ok=True)

    written = []
    doc = ASSETS / "document" / "magna-carta.jpg"
    nlines = make_document(clauses, doc)
    written.append(doc)
    icon = ASSETS / "icon" / "AppIcon-1024.png"
    make_icon(icon)
    written.append(icon)
    for appearance in ("dark", "tinted"):
        variant = ASSETS / "icon" / f"AppIcon-{appearance}.png"
        make_icon(variant, appearance)
        written.append(variant)
    bg, text = ASSETS / "launch" / "background.png", ASSETS / "launch" / "text.png"
    make_launch(bg, text)
    written += [bg, text]
    for cat in categories:
        p = ASSETS / "categories" / f"{int(cat['icon'])}.png"
        make_category_icon(cat["name"], p)
        written.append(p)

    # The app folder keeps copies of the category icons and the icon master,
    # as the seeds' Xcode project did; bundle.toml's [[copies]] pairs name
    # them, so `mcpack drift` has something to check.
    app = ASSETS.parent / "MagnaCarta" / "Images"
    app.mkdir(parents=True, exist_ok=True)
    for source in [icon] + [ASSETS / "categories" / f"{int(c['icon'])}.png" for c in categories]:
        shutil.copyfile(source, app / source.name)

    total = sum(p.stat().st_size for p in written)
    print(f"wrote {len(written)} files to assets/: document/magna-carta.jpg "
          f"({len(clauses)} clauses, {nlines} lines of writing), icon/AppIcon-1024.png, -dark.png, -tinted.png, "
          f"launch/background.png, launch/text.png, categories/1-{len(categories)}.png "
          f"({total / 1e6:.2f} MB in all)")


if __name__ == "__main__":
    main()
