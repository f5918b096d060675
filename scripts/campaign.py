#!/usr/bin/env python3
"""Corruption campaign for `mcpack verify` (issue 7).

Builds the example bundle (bundle.toml and the files it names) with
`mcpack build` in a private temporary copy of the project, once per archive
format ([bundle] format rewritten in the copy; the repository's dist/ and
.mcpack-cache/ are never touched), then damages the archive in seeded random
ways (single-byte changes that always change the byte, and truncations, each
on a fresh copy) and runs `mcpack verify --json` on every damaged copy twice:

  with .sha256     the archive with its .sha256 beside it, as handed over
  archive alone    the archive without it, as a recipient who got only the
                   archive; only mcpack's own reading stands between the
                   damage and the kiosk

Outcomes, by verify's exit status:

  detected    exit 1 (problems found)
  refused     exit 2 (could not be read at all)
  missed      exit 0 although the damage matters: with .sha256 every exit 0
              is a miss (the .sha256 covers every byte); alone, an exit 0 is
              a miss unless the archive still reads, with Python's strict
              readers (zipfile, tarfile, gzip, zstd), as exactly the
              original's entries: same names, types and contents, in order.
              Strict means: zip CRC-32s and local names that match the
              central directory's, gzip CRC-32 and length, a whole stream.
  unchanged   exit 0 alone, and the entries are exactly the original's (the
              byte was a time, a permission, a version field, padding...)
  crashed     killed by a signal, exit > 2, or no answer within --timeout

"names entry" is the share of detected cases whose report has an error
naming a path inside the bag (bagit.txt, data/...), not only the archive,
its .sha256 or the top folder.

Every miss and crash is saved (damaged archive, its .sha256 when that mode
failed, verify's output, case.json) under --findings/seed-N/, and printed
with the offset and byte changed, grouped by the field or region it hit. Exit 0 nothing missed or crashed, 1 something was,
2 the campaign could not run (build failed, the undamaged archive does not
verify clean, ...).

Where the damage goes (--targeting): `mixed` (default) puts half the byte
changes anywhere in the archive and half on its structure, and half the
truncations anywhere and half in the last 4 KiB; `anywhere` puts all of them
anywhere. Uniform damage alone mostly lands in image data (a zip's headers
are about 0.3% of its bytes). Structure is these kinds of region, each kind
as likely as the others (then a region of that kind, then a byte in it):
  zip:      local headers, the tag files' data (bagit.txt, manifests...),
            data descriptors, central directory records, the end record
  tar.gz:   the gzip header and trailer, the first 16 KiB (tag files and
            the first tar headers) and the last 4 KiB (the tar's end)
  tar.zst:  the zstd frame and block headers, the first 16 KiB and the
            last 4 KiB
Each format and kind of damage has its own random stream derived from
--seed: one format alone, or more --flips, repeat the cases of a smaller run.

Reading .tar.zst needs Python 3.14's compression.zstd or the zstd command;
with neither, tar.zst exits 0 cannot be classified and are counted as
"unclassified" (not as misses), which the summary says.

Python standard library only. Run from anywhere: the defaults name files
of this repository (options given relative paths take them from the current
folder).

    python3 scripts/campaign.py                      # all three formats
    python3 scripts/campaign.py --formats zip --flips 50 --truncations 20
"""

from __future__ import annotations

import argparse
import concurrent.futures
import dataclasses
import gzip
import hashlib
import io
import json
import os
import random
import re
import shlex
import shutil
import signal
import struct
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
import zipfile
from pathlib import Path

if sys.version_info < (3, 11):
    sys.exit("campaign.py needs Python 3.11 or newer (for tomllib)")
import tomllib  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
FORMATS = ("zip", "tar.gz", "tar.zst")
MODES = ("with .sha256", "archive alone")
OUTCOMES = ("detected", "refused", "missed", "unchanged", "unclassified", "crashed")

try:  # Python 3.14+
    from compression import zstd as zstd_module  # type: ignore
except ImportError:
    zstd_module = None
ZSTD_COMMAND = shutil.which("zstd")


class CampaignError(Exception):
    """The campaign cannot run: exit 2."""


def say(message: str) -> None:
    print(f"campaign: {message}", file=sys.stderr, flush=True)


# --- building the example bundle ---------------------------------------------


def project_paths(config: dict) -> set[str]:
    """First path components of every string in bundle.toml that names a file
    or folder of the project: what a private copy must hold to build."""
    found: set[str] = set()

    def walk(value):
        if isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, str) and value and not value.startswith("/") and ".." not in value.split("/"):
            first = value.split("/")[0]
            if (ROOT / first).exists() and first not in (".", ""):
                found.add(first)

    walk(config)
    return found


def build_archives(mcpack: Path, formats: list[str], work: Path) -> dict[str, Path]:
    """Builds the example bundle once per format in a private copy of the
    project (so the repository's dist/ and .mcpack-cache/ are never
    touched); returns the archive path for each format."""
    config_text = (ROOT / "bundle.toml").read_text()
    config = tomllib.loads(config_text)
    output = config.get("bundle", {}).get("output", "dist")
    project = work / "project"
    project.mkdir()
    shutil.copy2(ROOT / "bundle.toml", project / "bundle.toml")
    for name in sorted(project_paths(config) - {output}):
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, project / name, symlinks=True)
        else:
            shutil.copy2(source, project / name)
    # The same inputs give the same bytes only with the same stamp: a
    # SOURCE_DATE_EPOCH in the caller's environment would change the archive
    # and so what each seed's offsets hit.
    env = dict(os.environ, SWIFT_BACKTRACE="enable=no", NO_COLOR="1")
    env.pop("SOURCE_DATE_EPOCH", None)
    archives = {}
    name = config["bundle"]["name"]
    version = config["bundle"]["version"]
    # [bundle] format, and only that table's: from "[bundle]" to the next
    # table header.
    section = re.search(r"(?ms)^\[bundle\][^\n]*\n(.*?)(?=^\s*\[|\Z)", config_text)
    if section is None:
        raise CampaignError("bundle.toml has no [bundle] table")
    for fmt in formats:
        body, count = re.subn(r'(?m)^(\s*format\s*=\s*)"[^"]*"', lambda m: f'{m.group(1)}"{fmt}"', section.group(1))
        if count == 0:
            body = f'format = "{fmt}"\n' + body
        text = config_text[:section.start(1)] + body + config_text[section.end(1):]
        if tomllib.loads(text)["bundle"].get("format") != fmt:
            raise CampaignError(f"could not set [bundle] format = \"{fmt}\" in a copy of bundle.toml")
        (project / "bundle.toml").write_text(text)
        out = work / "built" / fmt
        started = time.monotonic()
        result = subprocess.run([str(mcpack), "build", "--output", str(out)], cwd=project, env=env,
                                capture_output=True, text=True)
        if result.returncode != 0:
            raise CampaignError(f"mcpack build ({fmt}) failed with exit {result.returncode}:\n{result.stdout}{result.stderr}")
        archive = out / f"{name}-{version}.{fmt}"
        if not archive.is_file() or not Path(f"{archive}.sha256").is_file():
            raise CampaignError(f"mcpack build ({fmt}) did not write {archive} and its .sha256")
        say(f"built {archive.name} ({archive.stat().st_size:,} bytes) in {time.monotonic() - started:.1f} s")
        archives[fmt] = archive
    return archives


# --- the archive's layout: where each byte belongs ---------------------------


@dataclasses.dataclass
class Region:
    start: int
    end: int  # exclusive
    what: str  # e.g. "local header", "data", "central directory record"
    entry: str | None  # the entry's name as stored, if the region belongs to one
    fields: list[tuple[str, int]] = dataclasses.field(default_factory=list)  # (field name, length), in order
    structure: bool = True  # a target of the "structure" half of --targeting mixed

    def describe(self, offset: int) -> str:
        text = self.what + (f" of {self.entry}" if self.entry else "")
        position = offset - self.start
        for name, length in self.fields:
            if position < length:
                return f"{text}, field {name} (byte {position + 1} of {length})"
            position -= length
        return f"{text}, byte {offset - self.start} of {self.end - self.start}"


ZIP_LOCAL = [("signature", 4), ("version needed", 2), ("flags", 2), ("method", 2), ("time", 2), ("date", 2),
             ("crc-32", 4), ("compressed size", 4), ("size", 4), ("name length", 2), ("extra length", 2)]
ZIP_CENTRAL = [("signature", 4), ("version made by", 2), ("version needed", 2), ("flags", 2), ("method", 2),
               ("time", 2), ("date", 2), ("crc-32", 4), ("compressed size", 4), ("size", 4), ("name length", 2),
               ("extra length", 2), ("comment length", 2), ("disk", 2), ("internal attributes", 2),
               ("external attributes", 4), ("local header offset", 4)]
ZIP_END = [("signature", 4), ("disk", 2), ("directory disk", 2), ("entries on disk", 2), ("entries", 2),
           ("directory size", 4), ("directory offset", 4), ("comment length", 2)]


def zip_layout(data: bytes) -> list[Region]:
    """Walks the zip as mcpack writes it (local header, data, data descriptor
    per entry, then the central directory and the end record)."""
    regions: list[Region] = []
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        infos = archive.infolist()
        start_dir = archive.start_dir
    for index, info in enumerate(infos):
        at = info.header_offset
        name_length, extra_length = struct.unpack_from("<HH", data, at + 26)
        header_end = at + 30 + name_length + extra_length
        regions.append(Region(at, header_end, "local header", info.filename,
                              ZIP_LOCAL + [("name", name_length), ("extra", extra_length)]))
        data_end = header_end + info.compress_size
        tag = not info.filename.split("/", 1)[-1].startswith("data/")
        regions.append(Region(header_end, data_end, "stored data" if info.compress_type == 0 else "deflated data",
                              info.filename, structure=tag))
        following = infos[index + 1].header_offset if index + 1 < len(infos) else start_dir
        if following > data_end:
            fields = [("crc-32", 4), ("compressed size", 4), ("size", 4)]
            if data[data_end:data_end + 4] == b"PK\x07\x08":
                fields.insert(0, ("signature", 4))
            regions.append(Region(data_end, following, "data descriptor", info.filename, fields))
    at = start_dir
    for info in infos:
        if data[at:at + 4] != b"PK\x01\x02":
            break
        n, m, k = struct.unpack_from("<HHH", data, at + 28)
        end = at + 46 + n + m + k
        regions.append(Region(at, end, "central directory record", info.filename,
                              ZIP_CENTRAL + [("name", n), ("extra", m), ("comment", k)]))
        at = end
    if at < len(data):
        regions.append(Region(at, len(data), "end of central directory", None, ZIP_END + [("comment", len(data) - at - 22)]))
    return regions


def gzip_layout(data: bytes) -> list[Region]:
    flags = data[3]
    header = [("magic", 2), ("method", 1), ("flags", 1), ("mtime", 4), ("extra flags", 1), ("os", 1)]
    regions = [Region(0, 10, "gzip header", None, header)]
    if flags & ~0x02:  # mcpack writes none of FEXTRA/FNAME/FCOMMENT; say so rather than guess
        regions[0].what = "gzip header (with optional fields)"
    regions.append(Region(10, len(data) - 8, "deflate stream", None, structure=False))
    regions.append(Region(len(data) - 8, len(data), "gzip trailer", None, [("crc-32", 4), ("size mod 2^32", 4)]))
    return regions


def zstd_layout(data: bytes) -> list[Region]:
    """Frame header, each block header and block, and the checksum if any
    (RFC 8878); skippable frames as one region."""
    regions: list[Region] = []
    at = 0
    frame = 0
    while at + 4 <= len(data):
        magic = struct.unpack_from("<I", data, at)[0]
        if magic & 0xFFFFFFF0 == 0x184D2A50:
            size = struct.unpack_from("<I", data, at + 4)[0]
            regions.append(Region(at, min(len(data), at + 8 + size), "skippable frame", None))
            at += 8 + size
            continue
        if magic != 0xFD2FB528:
            regions.append(Region(at, len(data), "bytes after the last frame", None))
            break
        frame += 1
        descriptor = data[at + 4]
        single_segment = (descriptor >> 5) & 1
        checksum = (descriptor >> 2) & 1
        fields = [("magic", 4), ("frame header descriptor", 1)]
        if not single_segment:
            fields.append(("window descriptor", 1))
        dictionary = [0, 1, 2, 4][descriptor & 3]
        if dictionary:
            fields.append(("dictionary id", dictionary))
        content_size = [1 if single_segment else 0, 2, 4, 8][descriptor >> 6]
        if content_size:
            fields.append(("content size", content_size))
        length = sum(size for _, size in fields)
        regions.append(Region(at, at + length, f"zstd frame {frame} header", None, fields))
        at += length
        block = 0
        while at + 3 <= len(data):
            header = int.from_bytes(data[at:at + 3], "little")
            last, kind, size = header & 1, (header >> 1) & 3, header >> 3
            block += 1
            regions.append(Region(at, at + 3, f"zstd block {block} header", None, [("last/type/size", 3)]))
            payload = 1 if kind == 1 else size
            regions.append(Region(at + 3, min(len(data), at + 3 + payload), f"zstd block {block} ({['raw', 'rle', 'compressed', 'reserved'][kind]})",
                                  None, structure=False))
            at += 3 + payload
            if last:
                break
        if checksum and at + 4 <= len(data):
            regions.append(Region(at, at + 4, "zstd content checksum", None, [("xxh64 low 32 bits", 4)]))
            at += 4
    return regions


def layout(fmt: str, data: bytes) -> list[Region]:
    regions = {"zip": zip_layout, "tar.gz": gzip_layout, "tar.zst": zstd_layout}[fmt](data)
    if fmt != "zip":
        # The tag files come first and the tar's end comes last; in a
        # compressed tar those are the bytes whose damage is worth aiming at.
        regions.append(Region(0, min(len(data), 16 << 10), "first 16 KiB", None))
        regions.append(Region(max(0, len(data) - (4 << 10)), len(data), "last 4 KiB", None))
    return regions


def region_at(regions: list[Region], offset: int) -> Region | None:
    for region in regions:
        if region.start <= offset < region.end and not region.what.startswith(("first ", "last ")):
            return region
    return None


def kind_at(regions: list[Region], offset: int, field: bool = True) -> str:
    """What sort of byte this is, without entry names or numbers, to group
    cases: "central directory record: name", "gzip trailer: crc-32"."""
    region = region_at(regions, offset)
    if region is None:
        return "no known region"
    kind = re.sub(r"\d+", "N", region.what)
    position = offset - region.start
    for name, length in region.fields if field else []:
        if position < length:
            return f"{kind}: {name}"
        position -= length
    return kind


def describe(regions: list[Region], offset: int) -> str:
    region = region_at(regions, offset)
    return region.describe(offset) if region else "no known region"


def hit_entry(regions: list[Region], offset: int) -> str | None:
    for region in regions:
        if region.start <= offset < region.end and region.entry:
            return region.entry
    return None


def structure_kinds(regions: list[Region]) -> list[list[tuple[int, int]]]:
    """The structure regions grouped by kind (every zip local header is one
    kind, every zstd block header another, ...)."""
    kinds: dict[str, list[tuple[int, int]]] = {}
    for r in regions:
        if r.structure and r.end > r.start:
            kinds.setdefault(re.sub(r"\d+", "N", r.what), []).append((r.start, r.end))
    return list(kinds.values())


def pick_in(kinds: list[list[tuple[int, int]]], rng: random.Random) -> int:
    # A kind, a region of that kind, a byte in it: the 8-byte gzip trailer
    # and the 22-byte zip end record get as many hits as the 336 local
    # headers, which would otherwise take nearly all.
    spans = kinds[rng.randrange(len(kinds))]
    start, end = spans[rng.randrange(len(spans))]
    return rng.randrange(start, end)


# --- what a strict reader gets out of an archive ------------------------------


class Unreadable(Exception):
    pass


def zstd_decompress(data: bytes) -> bytes:
    if zstd_module is not None:
        return zstd_module.decompress(data)
    result = subprocess.run([ZSTD_COMMAND, "-d", "-c", "-q"], input=data, capture_output=True)
    if result.returncode != 0:
        raise Unreadable(f"zstd -d: {result.stderr.decode(errors='replace').strip()}")
    return result.stdout


def entries(fmt: str, data: bytes) -> tuple[list[tuple], list[tuple]]:
    """The archive's entries as Python's strict readers see them:
    (name, type, SHA-256 of contents) in order, and per entry the metadata
    that does not change content (times, modes, owners, versions). Raises
    Unreadable when a reader refuses the archive (bad CRC, truncated stream,
    a local name that differs from the central directory's, ...)."""
    try:
        if fmt == "zip":
            content, meta = [], []
            with zipfile.ZipFile(io.BytesIO(data)) as archive:
                for info in archive.infolist():
                    # Unix made-by: the type bits of the mode; otherwise (as
                    # unzip and libarchive do) a file unless the DOS
                    # directory bit or a trailing / says folder.
                    mode = (info.external_attr >> 16) & 0o170000
                    if info.create_system == 3 and mode:
                        kind = {0o100000: "file", 0o040000: "dir", 0o120000: "symlink"}.get(mode, oct(mode))
                    else:
                        kind = "dir" if info.filename.endswith("/") or info.external_attr & 0x10 else "file"
                    # read() checks the CRC-32 and that the local header's
                    # name matches the central directory's.
                    content.append((info.filename, kind, hashlib.sha256(archive.read(info)).hexdigest()))
                    meta.append((info.filename, info.external_attr, info.date_time, info.extra, info.create_system,
                                 info.create_version, info.extract_version, info.flag_bits, info.compress_type,
                                 info.internal_attr, info.comment))
            return content, meta
        if fmt == "tar.gz":
            raw = gzip.decompress(data)  # checks the trailer's CRC-32 and size
        elif fmt == "tar.zst":
            raw = zstd_decompress(data)
        else:
            raw = data
        content, meta = [], []
        # tarfile stops quietly at a header with a bad checksum after the
        # first: the entries then differ from the original's, which counts.
        with tarfile.open(fileobj=io.BytesIO(raw), mode="r:") as archive:
            for member in archive:
                digest = ""
                if member.isreg():
                    digest = hashlib.sha256(archive.extractfile(member).read()).hexdigest()
                content.append((member.name, member.type, digest, member.linkname))
                meta.append((member.name, member.mode, member.mtime, member.uid, member.gid, member.uname,
                             member.gname, tuple(sorted(member.pax_headers.items()))))
        return content, meta
    except Unreadable:
        raise
    except Exception as error:  # zipfile, tarfile, gzip, zlib and EOF errors alike
        raise Unreadable(f"{type(error).__name__}: {error}") from None


# --- running verify ------------------------------------------------------------


@dataclasses.dataclass
class Case:
    fmt: str
    kind: str  # "flip" or "truncate"
    index: int
    where: str  # "anywhere", "structure", "last 4 KiB"
    offset: int  # flip: the byte changed; truncate: the new length
    old: int = -1
    new: int = -1

    @property
    def name(self) -> str:
        return f"{self.fmt}-{self.kind}-{self.index:04d}"

    def damage(self, regions: list[Region], size: int) -> str:
        if self.kind == "flip":
            return f"byte {self.offset:,} 0x{self.old:02x} -> 0x{self.new:02x} ({describe(regions, self.offset)})"
        cut = f"{size - self.offset:,} bytes cut" if self.offset else "everything cut"
        return f"truncated to {self.offset:,} of {size:,} bytes ({cut}; ends in {describe(regions, max(0, self.offset - 1))})"


@dataclasses.dataclass
class Run:
    status: str  # "exit N", "signal N", "timeout"
    code: int | None
    stdout: str
    stderr: str
    report: dict | None


LIVE: set[subprocess.Popen] = set()
LIVE_LOCK = threading.Lock()


def run_verify(mcpack: Path, archive: Path, timeout: float) -> Run:
    # The Swift backtracer can hang a crashing process for minutes.
    env = dict(os.environ, SWIFT_BACKTRACE="enable=no", NO_COLOR="1")
    process = subprocess.Popen([str(mcpack), "verify", "--json", str(archive)], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, env=env, start_new_session=True)
    with LIVE_LOCK:
        LIVE.add(process)
    try:
        stdout, stderr = process.communicate(timeout=timeout)
        code = process.returncode
        status = f"signal {-code}" if code < 0 else f"exit {code}"
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        stdout, stderr = process.communicate()
        code, status = None, "timeout"
    finally:
        with LIVE_LOCK:
            LIVE.discard(process)
    try:
        report = json.loads(stdout) if stdout.strip() else None
    except ValueError:
        report = None
    return Run(status, code, stdout.decode(errors="replace"), stderr.decode(errors="replace"), report)


def names_entry(report: dict | None, archive_name: str, top: str) -> bool:
    """Does an error in the report name a path inside the bag? The archive's
    own name, its .sha256, the top folder and globs are not entries."""
    if not report:
        return False
    for problem in report.get("problems", []):
        if problem.get("severity") != "error":
            continue
        path = str(problem.get("path", "")).rstrip("/")
        if path in ("", archive_name, archive_name + ".sha256", top) or "*" in path:
            continue
        return True
    return False


def named_paths(report: dict | None, top: str) -> set[str]:
    paths = set()
    for problem in (report or {}).get("problems", []):
        path = str(problem.get("path", ""))
        paths.add(path[len(top) + 1:] if path.startswith(top + "/") else path)
    return paths


# --- the campaign -------------------------------------------------------------


@dataclasses.dataclass
class Result:
    case: Case
    mode: str
    outcome: str
    run: Run
    named: bool = False
    named_hit: bool | None = None  # zip: did the report name the entry the damage is in?
    note: str = ""

    @property
    def odd(self) -> bool:
        """Exit 0 or 1 must come with --json's object, "ok" true for 0 and
        false for 1."""
        if self.run.code not in (0, 1):
            return False
        return not isinstance(self.run.report, dict) or self.run.report.get("ok") is not (self.run.code == 0)


class Format:
    """One format's original archive and what is known about it."""

    def __init__(self, fmt: str, archive: Path):
        self.fmt = fmt
        self.archive = archive
        self.data = archive.read_bytes()
        self.sha256_file = Path(f"{archive}.sha256").read_bytes()
        self.top = archive.name[: -len(fmt) - 1]
        self.regions = layout(fmt, self.data)
        self.structure = structure_kinds(self.regions)
        self.classifiable = fmt != "tar.zst" or zstd_module is not None or ZSTD_COMMAND is not None
        self.content, self.meta = entries(fmt, self.data) if self.classifiable else (None, None)

    def cases(self, seed: int, flips: int, truncations: int, targeting: str) -> list[Case]:
        # One stream per format and kind: --flips does not move the
        # truncations, and one format alone repeats its cases in a run of all.
        rng = random.Random(f"mcpack-campaign:{seed}:{self.fmt}:flip")
        size = len(self.data)
        cases = []
        for index in range(flips):
            aimed = targeting == "mixed" and index % 2 == 1
            offset = pick_in(self.structure, rng) if aimed else rng.randrange(size)
            old = self.data[offset]
            new = old ^ rng.randrange(1, 256)  # never 0: the byte always changes
            cases.append(Case(self.fmt, "flip", index, "structure" if aimed else "anywhere", offset, old, new))
        rng = random.Random(f"mcpack-campaign:{seed}:{self.fmt}:truncate")
        for index in range(truncations):
            aimed = targeting == "mixed" and index % 2 == 1
            length = rng.randrange(max(0, size - 4096), size) if aimed else rng.randrange(size)
            cases.append(Case(self.fmt, "truncate", index, "last 4 KiB" if aimed else "anywhere", length))
        return cases

    def write_damaged(self, case: Case, path: Path) -> None:
        # copyfile is a kernel copy (sendfile): no 25 MB string per case.
        shutil.copyfile(self.archive, path)
        with open(path, "r+b") as file:
            if case.kind == "truncate":
                file.truncate(case.offset)
            else:
                file.seek(case.offset)
                file.write(bytes([case.new]))

    def damaged(self, case: Case) -> bytes:
        if case.kind == "truncate":
            return self.data[: case.offset]
        return self.data[: case.offset] + bytes([case.new]) + self.data[case.offset + 1:]


def run_case(fmt: Format, case: Case, mcpack: Path, work: Path, timeout: float) -> list[Result]:
    folder = work / "cases" / case.name
    folder.mkdir(parents=True)
    # Named like the original: verify checks the top folder against it.
    archive = folder / fmt.archive.name
    checksum = Path(f"{archive}.sha256")
    fmt.write_damaged(case, archive)
    checksum.write_bytes(fmt.sha256_file)
    results = []
    readback: tuple | Unreadable | None = None
    hit = hit_entry(fmt.regions, case.offset) if case.kind == "flip" and fmt.fmt == "zip" else None
    for mode in MODES:
        if mode == "archive alone":
            checksum.unlink()
        run = run_verify(mcpack, archive, timeout)
        result = Result(case, mode, "", run)
        if run.code is None or run.code < 0 or run.code > 2:
            result.outcome = "crashed"
        elif run.code == 1:
            result.outcome = "detected"
            result.named = names_entry(run.report, fmt.archive.name, fmt.top)
            if hit is not None:
                result.named_hit = hit.split("/", 1)[-1] in named_paths(run.report, fmt.top) or hit in named_paths(run.report, fmt.top)
        elif run.code == 2:
            result.outcome = "refused"
        else:
            if readback is None and fmt.classifiable:
                try:
                    readback = entries(fmt.fmt, fmt.damaged(case))
                except Unreadable as error:
                    readback = error
            if isinstance(readback, Unreadable):
                result.note = f"Python's strict reader refuses it: {readback}"
            elif readback is not None:
                content, meta = readback
                if content == fmt.content:
                    result.note = "same entries; metadata differs" if meta != fmt.meta else "same entries and metadata"
                else:
                    result.note = content_difference(fmt.content, content)
            if mode == "with .sha256":
                # The .sha256 covers every byte: passing it is a miss whatever
                # the entries say.
                result.outcome = "missed"
            elif readback is None:
                result.outcome = "unclassified"
            elif not isinstance(readback, Unreadable) and readback[0] == fmt.content:
                result.outcome = "unchanged"
            else:
                result.outcome = "missed"
        results.append(result)
    shutil.rmtree(folder)
    return results


def content_difference(original: list[tuple], damaged: list[tuple]) -> str:
    if len(original) != len(damaged):
        return f"Python reads {len(damaged)} entries, the original has {len(original)}"
    for before, after in zip(original, damaged):
        if before != after:
            what = "name" if before[0] != after[0] else "type" if before[1] != after[1] else "contents"
            return f"entry {before[0]}: {what} differs ({after[0]})"
    return "entries in another order"


def save_finding(fmt: Format, result: Result, findings: Path) -> Path:
    case = result.case
    folder = findings / f"{case.name}-{'with-sha256' if result.mode == 'with .sha256' else 'alone'}-{result.outcome}"
    folder.mkdir(parents=True, exist_ok=True)
    archive = folder / fmt.archive.name
    fmt.write_damaged(case, archive)
    if result.mode == "with .sha256":
        Path(f"{archive}.sha256").write_bytes(fmt.sha256_file)
    (folder / "verify.stdout").write_text(result.run.stdout)
    (folder / "verify.stderr").write_text(result.run.stderr)
    (folder / "case.json").write_text(json.dumps({
        "format": case.fmt, "kind": case.kind, "index": case.index, "where": case.where,
        "offset" if case.kind == "flip" else "length": case.offset,
        **({"old": case.old, "new": case.new} if case.kind == "flip" else {}),
        "damage": case.damage(fmt.regions, len(fmt.data)),
        "mode": result.mode, "outcome": result.outcome, "verify": result.run.status, "note": result.note,
        "original_sha256": hashlib.sha256(fmt.data).hexdigest(),
    }, indent=2) + "\n")
    return folder


def group_key(fmt: Format, result: Result) -> str:
    """The sort of damage: a byte change by the field it hit, a truncation
    by the region it ends in."""
    case = result.case
    if case.kind == "flip":
        return "byte changed in " + kind_at(fmt.regions, case.offset)
    if case.offset == 0:
        return "truncated to nothing"
    return "truncated in " + kind_at(fmt.regions, case.offset - 1, field=False)


def count_by(rows: list, key) -> list[tuple[str, int]]:
    counts: dict[str, int] = {}
    for row in rows:
        counts[key(row)] = counts.get(key(row), 0) + 1
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))


def percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f}%" if whole else "-"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--formats", default=",".join(FORMATS),
                        help="comma-separated archive formats to build and damage (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=7, help="seed of the damage (default: %(default)s)")
    parser.add_argument("--flips", type=int, default=200, help="single-byte changes per format (default: %(default)s)")
    parser.add_argument("--truncations", type=int, default=80, help="truncations per format (default: %(default)s)")
    parser.add_argument("--targeting", choices=("mixed", "anywhere"), default="mixed",
                        help="mixed: half the damage on the archive's structure; anywhere: all of it uniform (default: %(default)s)")
    parser.add_argument("--timeout", type=float, default=60, help="seconds per verify before it counts as hung (default: %(default)s)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="damaged copies checked at once, each by two verifies in turn (default: %(default)s, the cores)")
    parser.add_argument("--mcpack", type=Path, default=ROOT / ".build/release/mcpack",
                        help="the mcpack binary (default: .build/release/mcpack; build it with "
                        "`make build`)")
    parser.add_argument("--findings", type=Path, default=ROOT / "bench/cache/campaign/findings",
                        help="where misses and crashes are saved, in a seed-<N>/ folder replaced each run "
                        "(default: bench/cache/campaign/findings, ignored by git)")
    parser.add_argument("--keep", type=int, default=None,
                        help="save at most this many findings (each a copy of the archive, about 25 MB); "
                        "the rest are printed only (default: save all)")
    args = parser.parse_args()

    formats = [f.strip() for f in args.formats.split(",") if f.strip()]
    unknown = [f for f in formats if f not in FORMATS]
    if unknown or not formats:
        parser.error(f"unknown format {', '.join(unknown) or '(none)'}; choose from {', '.join(FORMATS)}")
    if args.flips < 0 or args.truncations < 0 or args.jobs < 1 or args.timeout <= 0:
        parser.error("--flips and --truncations must be >= 0, --jobs >= 1, --timeout > 0")
    # Not resolve(): .build/release is a symlink, and the printed commands
    # should name the path people type.
    mcpack = Path(os.path.abspath(args.mcpack))
    if not os.access(mcpack, os.X_OK):
        print(f"campaign: no mcpack binary at {mcpack}; build it with `make build`", file=sys.stderr)
        return 2

    started = time.monotonic()
    # Each case writes a 25 MB copy: in memory (/dev/shm) when there is
    # one, so the campaign measures verify, not the disk.
    shm = Path("/dev/shm")
    scratch = str(shm) if shm.is_dir() and os.access(shm, os.W_OK) else None
    work = Path(tempfile.mkdtemp(prefix="mcpack-campaign-", dir=scratch))
    try:
        return campaign(args, formats, mcpack, work, started)
    except CampaignError as error:
        print(f"campaign: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        with LIVE_LOCK:
            for process in LIVE:
                try:
                    os.killpg(process.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        print("\ncampaign: interrupted", file=sys.stderr)
        return 130
    finally:
        shutil.rmtree(work, ignore_errors=True)


def campaign(args, formats: list[str], mcpack: Path, work: Path, started: float) -> int:
    archives = build_archives(mcpack, formats, work)
    states = {}
    for fmt in formats:
        state = Format(fmt, archives[fmt])
        # A campaign against an archive that does not verify clean says nothing.
        for mode in MODES:
            probe = work / "probe" / mode.replace(" ", "-").replace(".", "")
            probe.mkdir(parents=True)
            shutil.copy2(state.archive, probe / state.archive.name)
            if mode == "with .sha256":
                shutil.copy2(f"{state.archive}.sha256", probe)
            run = run_verify(mcpack, probe / state.archive.name, args.timeout)
            if run.code != 0 or not run.report or run.report.get("problems"):
                print(f"campaign: the undamaged {state.archive.name} ({mode}) does not verify clean: {run.status}\n{run.stdout}{run.stderr}",
                      file=sys.stderr)
                return 2
            shutil.rmtree(probe)
        states[fmt] = state

    findings = args.findings.resolve() / f"seed-{args.seed}"
    shutil.rmtree(findings, ignore_errors=True)
    results: dict[str, list[Result]] = {fmt: [] for fmt in formats}
    for fmt in formats:
        state = states[fmt]
        cases = state.cases(args.seed, args.flips, args.truncations, args.targeting)
        say(f"{fmt}: {len(cases)} damaged copies x 2 modes, {args.jobs} at a time")
        phase = time.monotonic()
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            futures = [pool.submit(run_case, state, case, mcpack, work, args.timeout) for case in cases]
            done = 0
            for future in concurrent.futures.as_completed(futures):
                results[fmt].extend(future.result())
                done += 1
                if done % max(1, len(cases) // 4) == 0 and done < len(cases):
                    say(f"{fmt}: {done}/{len(cases)}")
        say(f"{fmt}: done in {time.monotonic() - phase:.0f} s")

    # --- the figures ---
    print()
    print(f"mcpack verify corruption campaign: seed {args.seed}, {args.flips} byte changes and {args.truncations} "
          f"truncations per format, targeting {args.targeting}")
    # Others may rebuild the binary between runs: say which one this was.
    binary = hashlib.sha256(mcpack.read_bytes()).hexdigest()
    built = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(mcpack.stat().st_mtime))
    print(f"mcpack: {mcpack} (sha256 {binary[:16]}..., built {built})")
    for fmt in formats:
        print(f"  {states[fmt].archive.name}: {len(states[fmt].data):,} bytes, sha256 {hashlib.sha256(states[fmt].data).hexdigest()}")
    print()
    header = f"{'format':<8} {'mode':<14} {'damage':<11} {'tried':>5} {'detected':>8} {'refused':>7} {'missed':>6} {'unchanged':>9} {'crashed':>7}  names entry"
    print(header)
    print("-" * len(header))
    bad: list[Result] = []
    unclassified = 0
    for fmt in formats:
        for mode in MODES:
            for kind in ("all", "flip", "truncate"):
                rows = [r for r in results[fmt] if r.mode == mode and (kind == "all" or r.case.kind == kind)]
                count = {outcome: sum(r.outcome == outcome for r in rows) for outcome in OUTCOMES}
                named = sum(r.named for r in rows if r.outcome == "detected")
                label = {"all": "all", "flip": "byte changes", "truncate": "truncations"}[kind]
                print(f"{fmt if kind == 'all' else '':<8} {mode if kind == 'all' else '':<14} {label:<11} {len(rows):>5} "
                      f"{count['detected']:>8} {count['refused']:>7} {count['missed']:>6} {count['unchanged']:>9} {count['crashed']:>7}  "
                      f"{percent(named, count['detected']):>4} ({named}/{count['detected']})")
                if kind == "all":
                    unclassified += count["unclassified"]
                    bad += [r for r in rows if r.outcome in ("missed", "crashed")]
        print()

    # Where the exits 0 came from: what "unchanged" hid, and what the
    # misses have in common.
    for fmt in formats:
        for mode in MODES:
            for outcome in ("unchanged", "missed"):
                rows = [r for r in results[fmt] if r.mode == mode and r.outcome == outcome]
                if rows:
                    groups = count_by(rows, lambda r: group_key(states[fmt], r))
                    print(f"{fmt} {mode}, {outcome}: " + "; ".join(f"{n} {k}" for k, n in groups))
        if fmt == "zip":
            for mode in MODES:
                aimed = [r for r in results[fmt] if r.mode == mode and r.named_hit is not None]
                hits = sum(r.named_hit for r in aimed)
                print(f"zip {mode}: of {len(aimed)} detected byte changes inside one entry's header, data or "
                      f"directory record, {hits} ({percent(hits, len(aimed))}) name that entry")
    odd = [r for fmt in formats for r in results[fmt] if r.odd]
    if odd:
        print(f"{len(odd)} verify runs whose --json output is missing or disagrees with the exit status: "
              + ", ".join(f"{r.case.name} ({r.mode})" for r in odd[:20]) + (" ..." if len(odd) > 20 else ""))
    if unclassified:
        print(f"{unclassified} tar.zst exits 0 were not classified: neither compression.zstd (Python 3.14+) nor the zstd command is available")
    elif "tar.zst" in formats:
        print(f"tar.zst read with {'compression.zstd' if zstd_module else ZSTD_COMMAND + ' (no compression.zstd module in this Python)'}")

    if bad:
        shown = findings.relative_to(ROOT) if findings.is_relative_to(ROOT) else findings
        print()
        print(f"{len(bad)} misses and crashes, by format, mode and where the damage is; saved under {shown}/:")
        saved = 0
        ordered = sorted(bad, key=lambda r: (r.case.fmt, MODES.index(r.mode), r.outcome, group_key(states[r.case.fmt], r), r.case.kind, r.case.index))
        previous = None
        for r in ordered:
            state = states[r.case.fmt]
            group = (r.case.fmt, r.mode, r.outcome, group_key(state, r))
            if group != previous:
                size = sum(1 for o in ordered if (o.case.fmt, o.mode, o.outcome, group_key(states[o.case.fmt], o)) == group)
                print(f"  {r.case.fmt}, {r.mode}: {size} {r.outcome.upper()}, {group[3]}")
                previous = group
            print(f"    {r.case.name}: verify {r.run.status}; {r.case.damage(state.regions, len(state.data))}")
            if r.note:
                print(f"      {r.note}")
            if args.keep is None or saved < args.keep:
                folder = save_finding(state, r, findings)
                saved += 1
                print(f"      saved: {folder.name}/  (repro: SWIFT_BACKTRACE=enable=no {shlex.quote(str(mcpack))} verify "
                      f"--json {shlex.quote(str(shown / folder.name / state.archive.name))})")
            else:
                print(f"      not saved (--keep {args.keep}); the repeat command below makes it again")

    command = ["python3", "scripts/campaign.py", "--formats", ",".join(formats), "--seed", str(args.seed),
               "--flips", str(args.flips), "--truncations", str(args.truncations), "--targeting", args.targeting]
    if mcpack != ROOT / ".build/release/mcpack":
        command += ["--mcpack", str(mcpack)]
    print()
    print(f"repeat: {shlex.join(command)}")
    print(f"time: {time.monotonic() - started:.0f} s; {'FAIL' if bad else 'ok'}: {len(bad)} missed or crashed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
