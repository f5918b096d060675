#!/usr/bin/env python3
"""Corruption campaign for `mcpack verify`: damage the example archive at
random (seeded) and count what verify detects and misses. docs/robustness.md
says more.

Builds the example bundle in each format with the mcpack binary, in a
private copy of the project, then makes --trials damaged copies per format,
each with one kind of damage drawn at random:

  flip-anywhere      one byte of the archive file
  flip-framing       one byte of the zip's central directory or end record,
                     or of a tar.gz's or tar.zst's first 16 or last 8 bytes
  flip-header        one byte of an entry's header (zip local header, tar header)
  flip-data          one byte of a payload file's stored data
  flip-manifest      one byte of the payload manifest
  flip-tag           one byte of bagit.txt, bag-info.txt or the tag manifest
  truncate-anywhere  the archive file cut anywhere
  truncate-end       the archive file cut within its last 4 KiB
  remove-entry       a file entry left out
  duplicate-entry    a file entry stored twice

Entries are found with zipfile and tarfile; a tar.gz or tar.zst is damaged
inside (decompressed with gzip or the zstd command, changed, compressed
again), a zip loses or repeats an entry by being rewritten with zipfile.
Every copy is verified twice, with its .sha256 and alone. Outcomes: detected
(exit 1), refused (exit 2), crashed (a signal, an exit above 2, a timeout);
an exit 0 alone is "unchanged" when Python's strict readers read the
original entries, else "missed" (with the .sha256, every exit 0 is missed).
Misses and crashes are saved under --findings/seed-N/. Exit 0 none missed or
crashed, 1 some, 2 the campaign could not run. Needs the zstd command for
tar.zst (skipped, with a note, without it).

    python3 scripts/campaign.py                          # make campaign
    python3 scripts/campaign.py --formats zip --trials 60 --seed 3
"""

from __future__ import annotations

import argparse
import concurrent.futures
import copy
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
import struct
import subprocess
import sys
import tarfile
import tempfile
import time
import tomllib
import warnings
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FORMATS = ("zip", "tar.gz", "tar.zst")
MODES = ("with .sha256", "alone")
OUTCOMES = ("detected", "refused", "missed", "unchanged", "crashed")
KINDS = ("flip-anywhere", "flip-framing", "flip-header", "flip-data", "flip-manifest", "flip-tag",
         "truncate-anywhere", "truncate-end", "remove-entry", "duplicate-entry")
ZSTD = shutil.which("zstd")
warnings.filterwarnings("ignore", "Duplicate name", UserWarning)  # duplicate-entry means it


class CampaignError(Exception):
    """The campaign cannot run: exit 2."""


def say(message: str) -> None:
    print(f"campaign: {message}", file=sys.stderr, flush=True)


# --- the example archives ----------------------------------------------------


def build_archives(mcpack: Path, formats: list[str], work: Path) -> dict[str, Path]:
    """Builds the example bundle once per format in a private copy of the
    project: bundle.toml with [bundle] format rewritten, and every top-level
    file or folder a string in bundle.toml names."""
    text = (ROOT / "bundle.toml").read_text()
    config = tomllib.loads(text)
    project = work / "project"
    project.mkdir()

    def strings(value) -> list[str]:
        if isinstance(value, dict):
            value = list(value.values())
        if isinstance(value, list):
            return [s for item in value for s in strings(item)]
        return [value] if isinstance(value, str) else []

    names = {s.split("/")[0] for s in strings(config) if not s.startswith("/")}
    for name in sorted(n for n in names if n not in ("", ".", "..", config["bundle"].get("output")) and (ROOT / n).exists()):
        (shutil.copytree if (ROOT / name).is_dir() else shutil.copy2)(ROOT / name, project / name)
    # SOURCE_DATE_EPOCH would change the archive's bytes, and so what each seed hits.
    env = {k: v for k, v in os.environ.items() if k != "SOURCE_DATE_EPOCH"}
    archives = {}
    for fmt in formats:
        changed = re.sub(r'(?m)^(format\s*=\s*)"[^"]*"', lambda m: f'{m.group(1)}"{fmt}"', text, count=1)
        if tomllib.loads(changed)["bundle"].get("format") != fmt:
            raise CampaignError(f'could not set [bundle] format = "{fmt}" in a copy of bundle.toml')
        (project / "bundle.toml").write_text(changed)
        out = work / "built" / fmt
        result = subprocess.run([str(mcpack), "build", "--output", str(out)], cwd=project, env=env,
                                capture_output=True, text=True)
        archive = out / f"{config['bundle']['name']}-{config['bundle']['version']}.{fmt}"
        if result.returncode != 0 or not archive.is_file():
            raise CampaignError(f"mcpack build ({fmt}) failed, exit {result.returncode}:\n{result.stdout}{result.stderr}")
        say(f"built {archive.name} ({archive.stat().st_size:,} bytes)")
        archives[fmt] = archive
    return archives


# --- reading, rewriting and damaging archives --------------------------------


def decompress(fmt: str, data: bytes) -> bytes:
    if fmt == "tar.gz":
        return gzip.decompress(data)  # checks the trailer's CRC-32 and length
    result = subprocess.run([ZSTD, "-d", "-q", "-c"], input=data, capture_output=True)
    if result.returncode != 0:
        raise ValueError(f"zstd -d: {result.stderr.decode(errors='replace').strip()}")
    return result.stdout


def compress(fmt: str, tar: bytes) -> bytes:
    if fmt == "tar.gz":
        return gzip.compress(tar, compresslevel=1, mtime=0)  # fast; verify does not care
    return subprocess.run([ZSTD, "-q", "-c", "-3"], input=tar, capture_output=True, check=True).stdout


def read_entries(fmt: str, data: bytes) -> list[tuple] | str:
    """(name, type, SHA-256 of contents) of every entry, as Python's strict
    readers see them; or why they refuse the archive."""
    try:
        if fmt == "zip":
            with zipfile.ZipFile(io.BytesIO(data)) as archive:
                return [(i.filename, (i.external_attr >> 16) & 0o170000, i.is_dir(),
                         hashlib.sha256(archive.read(i)).hexdigest()) for i in archive.infolist()]
        with tarfile.open(fileobj=io.BytesIO(decompress(fmt, data)), mode="r:") as archive:
            return [(m.name, m.type, m.linkname,
                     hashlib.sha256(archive.extractfile(m).read()).hexdigest() if m.isreg() else "") for m in archive]
    except Exception as error:  # zipfile, tarfile, gzip, zlib and zstd errors alike
        return f"{type(error).__name__}: {error}"


def rewrite_zip(data: bytes, drop: str | None = None, twice: str | None = None) -> bytes:
    """The zip written again by zipfile, entry by entry, with `drop` left out
    and `twice` stored twice."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(out, "w") as target:
        for info in source.infolist():
            body = source.read(info)
            for _ in range(0 if info.filename == drop else 2 if info.filename == twice else 1):
                target.writestr(copy.copy(info), body)  # writestr rewrites the info's offsets
    return out.getvalue()


@dataclasses.dataclass
class Entry:
    name: str
    role: str  # "data", "manifest", "tag", or "other" (folders, links)
    header: tuple[int, int]  # [start, end) of its header in the zip or the tar
    body: tuple[int, int]  # of its stored data
    span: tuple[int, int]  # tar: header, data and padding (what remove/duplicate moves)


def role(name: str, is_file: bool) -> str:
    inside = name.split("/", 1)[-1]
    if not is_file:
        return "other"
    return "data" if inside.startswith("data/") else "manifest" if re.fullmatch(r"manifest-\w+\.txt", inside) else "tag"


class Original:
    """One format's undamaged archive, its entries and where they lie."""

    def __init__(self, fmt: str, path: Path):
        self.fmt, self.path = fmt, path
        self.data = path.read_bytes()
        self.sha256_file = Path(f"{path}.sha256").read_bytes()
        self.content = read_entries(fmt, self.data)
        if isinstance(self.content, str):
            raise CampaignError(f"Python cannot read the undamaged {path.name}: {self.content}")
        self.entries: list[Entry] = []
        if fmt == "zip":
            self.inner = self.data  # zip damage is done in place
            with zipfile.ZipFile(io.BytesIO(self.data)) as archive:
                self.framing = [(archive.start_dir, len(self.data))]
                for info in archive.infolist():
                    at = info.header_offset
                    name_length, extra_length = struct.unpack_from("<HH", self.data, at + 26)
                    start = at + 30 + name_length + extra_length
                    self.entries.append(Entry(info.filename, role(info.filename, not info.is_dir()), (at, start),
                                              (start, start + info.compress_size), (at, start + info.compress_size)))
        else:
            self.inner = decompress(fmt, self.data)  # the tar
            self.framing = [(0, 16), (len(self.data) - 8, len(self.data))]
            with tarfile.open(fileobj=io.BytesIO(self.inner), mode="r:") as archive:
                for m in archive:
                    end = m.offset_data + (m.size if m.isreg() else 0)
                    padded = m.offset_data + -(-(end - m.offset_data) // 512) * 512
                    self.entries.append(Entry(m.name, role(m.name, m.isreg()), (m.offset, m.offset_data),
                                              (m.offset_data, end), (m.offset, padded)))

    def rewritten(self) -> bytes:
        """The archive rewritten as the entry-level damage rewrites it, undamaged."""
        return rewrite_zip(self.data) if self.fmt == "zip" else compress(self.fmt, self.inner)


@dataclasses.dataclass
class Case:
    fmt: str
    index: int
    kind: str
    entry: str | None = None  # the entry aimed at
    offset: int = 0  # flips: the byte changed; truncations: the length kept
    xor: int = 0

    @property
    def name(self) -> str:
        return f"{self.fmt}-{self.index:04d}-{self.kind}"

    def describe(self, original: Original) -> str:
        if self.kind.startswith("truncate"):
            return f"cut to {self.offset:,} of {len(original.data):,} bytes"
        if self.kind in ("remove-entry", "duplicate-entry"):
            return self.entry
        inner = self.kind not in ("flip-anywhere", "flip-framing") and self.fmt != "zip"
        where = f"byte {self.offset:,} of the {'tar' if inner else 'file'}"
        return f"{where} xor 0x{self.xor:02x}" + (f" ({self.entry})" if self.entry else "")


def pick(original: Original, rng: random.Random, index: int) -> Case:
    kind = rng.choice(KINDS)
    case = Case(original.fmt, index, kind)
    size = len(original.data)
    if kind == "truncate-anywhere":
        case.offset = rng.randrange(size)
    elif kind == "truncate-end":
        case.offset = rng.randrange(max(0, size - 4096), size)
    elif kind == "flip-anywhere":
        case.offset = rng.randrange(size)
    elif kind == "flip-framing":
        case.offset = rng.randrange(*rng.choice(original.framing))
    else:
        wanted = {"flip-data": "data", "flip-manifest": "manifest", "flip-tag": "tag"}.get(kind)
        if wanted:
            choices = [e for e in original.entries if e.role == wanted and e.body[1] > e.body[0]]
        else:  # flip-header: any entry; remove and duplicate: a file
            choices = [e for e in original.entries if kind == "flip-header" or e.role != "other"]
        entry = rng.choice(choices)
        case.entry = entry.name
        if kind.startswith("flip"):
            case.offset = rng.randrange(*(entry.header if kind == "flip-header" else entry.body))
    if kind.startswith("flip"):
        case.xor = rng.randrange(1, 256)  # never 0: the byte always changes
    return case


def damaged(original: Original, case: Case) -> bytes:
    if case.kind.startswith("truncate"):
        return original.data[:case.offset]
    if original.fmt == "zip" and case.kind in ("remove-entry", "duplicate-entry"):
        return rewrite_zip(original.data, drop=case.entry if case.kind == "remove-entry" else None,
                           twice=case.entry if case.kind == "duplicate-entry" else None)
    if case.kind in ("remove-entry", "duplicate-entry"):
        start, end = next(e.span for e in original.entries if e.name == case.entry)
        tar = original.inner
        copies = 0 if case.kind == "remove-entry" else 2
        return compress(original.fmt, tar[:start] + tar[start:end] * copies + tar[end:])
    outer = original.fmt == "zip" or case.kind in ("flip-anywhere", "flip-framing")
    changed = bytearray(original.data if outer else original.inner)
    changed[case.offset] ^= case.xor
    return bytes(changed) if outer else compress(original.fmt, bytes(changed))


# --- running verify ------------------------------------------------------------


@dataclasses.dataclass
class Result:
    case: Case
    mode: str
    outcome: str
    status: str  # "exit N", "signal N", "timeout"
    named: bool | None = None  # detected and aimed at an entry: does the report name it?
    odd: bool = False  # exit 0 or 1 without a --json object that agrees
    note: str = ""
    saved: Path | None = None


def verify(mcpack: Path, archive: Path, timeout: float) -> tuple[int | None, str, dict | None, str, str]:
    # The Swift backtracer can hang a crashing process for minutes.
    env = dict(os.environ, SWIFT_BACKTRACE="enable=no", NO_COLOR="1")
    try:
        run = subprocess.run([str(mcpack), "verify", "--json", str(archive)], capture_output=True, text=True,
                             errors="replace", env=env, timeout=timeout)
    except subprocess.TimeoutExpired as expired:  # run() has killed it
        return None, "timeout", None, str(expired.stdout or ""), str(expired.stderr or "")
    try:
        report = json.loads(run.stdout)
    except ValueError:
        report = None
    status = f"signal {-run.returncode}" if run.returncode < 0 else f"exit {run.returncode}"
    return run.returncode, status, report if isinstance(report, dict) else None, run.stdout, run.stderr


def run_case(original: Original, case: Case, mcpack: Path, work: Path, findings: Path, timeout: float) -> list[Result]:
    folder = work / "cases" / case.name
    folder.mkdir(parents=True)
    archive = folder / original.path.name  # named like the original: verify checks the top folder against it
    checksum = Path(f"{archive}.sha256")
    data = damaged(original, case)
    archive.write_bytes(data)
    results = []
    for mode in MODES:
        if mode == "with .sha256":
            checksum.write_bytes(original.sha256_file)
        else:
            checksum.unlink()
        code, status, report, stdout, stderr = verify(mcpack, archive, timeout)
        result = Result(case, mode, "", status)
        result.odd = code in (0, 1) and (report is None or report.get("ok") is not (code == 0))
        if code is None or code < 0 or code > 2:
            result.outcome = "crashed"
        elif code == 1:
            result.outcome = "detected"
            if case.entry:  # reports name entries with or without the top folder
                inside = lambda path: path.rstrip("/").removeprefix(original.path.name[:-len(case.fmt) - 1] + "/")
                result.named = inside(case.entry) in {inside(str(p.get("path", ""))) for p in (report or {}).get("problems", [])}
        elif code == 2:
            result.outcome = "refused"
        else:
            content = read_entries(case.fmt, data)
            result.note = content if isinstance(content, str) else (
                "Python reads the original entries" if content == original.content else "Python reads other entries")
            result.outcome = "unchanged" if mode == "alone" and content == original.content else "missed"
        if result.outcome in ("missed", "crashed"):
            result.saved = findings / f"{case.name}-{mode.replace(' .', '-')}"
            result.saved.mkdir(parents=True, exist_ok=True)
            shutil.copy2(archive, result.saved)
            if mode == "with .sha256":
                shutil.copy2(checksum, result.saved)
            (result.saved / "verify.stdout").write_text(stdout)
            (result.saved / "verify.stderr").write_text(stderr)
            (result.saved / "case.json").write_text(json.dumps(
                {**dataclasses.asdict(case), "damage": case.describe(original), "mode": mode,
                 "outcome": result.outcome, "verify": status, "note": result.note,
                 "original_sha256": hashlib.sha256(original.data).hexdigest()}, indent=2) + "\n")
        results.append(result)
    shutil.rmtree(folder)
    return results


# --- the campaign ----------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--formats", default=",".join(FORMATS), help="comma-separated (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=7, help="seed of the damage (default: %(default)s)")
    parser.add_argument("--trials", type=int, default=200, help="damaged copies per format (default: %(default)s)")
    parser.add_argument("--timeout", type=float, default=60, help="seconds per verify before it counts as hung (default: %(default)s)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="damaged copies checked at once (default: the cores)")
    parser.add_argument("--mcpack", type=Path, default=ROOT / ".build/release/mcpack",
                        help="the mcpack binary (default: .build/release/mcpack, made by `make build`)")
    parser.add_argument("--findings", type=Path, default=ROOT / "bench/cache/campaign/findings",
                        help="misses and crashes go to seed-N/ here, replaced each run (default: bench/cache/campaign/findings)")
    args = parser.parse_args()
    formats = [f.strip() for f in args.formats.split(",") if f.strip()]
    if not formats or any(f not in FORMATS for f in formats) or args.trials < 0 or args.jobs < 1 or args.timeout <= 0:
        parser.error(f"--formats takes {', '.join(FORMATS)}; --trials >= 0, --jobs >= 1, --timeout > 0")
    skipped = "tar.zst" in formats and not ZSTD
    if skipped:
        formats.remove("tar.zst")
    mcpack = Path(os.path.abspath(args.mcpack))  # not resolve(): name the path people type
    if not os.access(mcpack, os.X_OK):
        say(f"no mcpack binary at {mcpack}; build it with `make build`")
        return 2
    # Each case writes a 25 MB copy: in memory (/dev/shm) when there is one.
    shm = Path("/dev/shm")
    work = Path(tempfile.mkdtemp(prefix="mcpack-campaign-", dir=shm if os.access(shm, os.W_OK) else None))
    try:
        return campaign(args, formats, skipped, mcpack, work)
    except CampaignError as error:
        say(str(error))
        return 2
    finally:
        shutil.rmtree(work, ignore_errors=True)


def campaign(args, formats: list[str], skipped: bool, mcpack: Path, work: Path) -> int:
    started = time.monotonic()
    originals = {fmt: Original(fmt, path) for fmt, path in build_archives(mcpack, formats, work).items()}
    # A campaign against an archive that does not verify clean, or whose
    # rewriting alone verify objects to, says nothing.
    for original in originals.values():
        for what, data, sha256 in (("undamaged", original.data, True), ("undamaged", original.data, False),
                                   ("rewritten, undamaged,", original.rewritten(), False)):
            probe = work / "probe"
            probe.mkdir()
            (probe / original.path.name).write_bytes(data)
            if sha256:
                (probe / f"{original.path.name}.sha256").write_bytes(original.sha256_file)
            code, status, report, stdout, stderr = verify(mcpack, probe / original.path.name, args.timeout)
            if code != 0 or not report or report.get("problems"):
                raise CampaignError(f"the {what} {original.path.name} ({'with .sha256' if sha256 else 'alone'}) "
                                    f"does not verify clean: {status}\n{stdout}{stderr}")
            shutil.rmtree(probe)

    findings = args.findings.resolve() / f"seed-{args.seed}"
    shutil.rmtree(findings, ignore_errors=True)
    results: list[Result] = []
    for fmt, original in originals.items():
        rng = random.Random(f"mcpack-campaign:{args.seed}:{fmt}")
        cases = [pick(original, rng, index) for index in range(args.trials)]
        say(f"{fmt}: {len(cases)} damaged copies, each verified with and without its .sha256, {args.jobs} at a time")
        phase = time.monotonic()
        pool = concurrent.futures.ThreadPoolExecutor(args.jobs)
        try:
            for future in [pool.submit(run_case, original, case, mcpack, work, findings, args.timeout) for case in cases]:
                results += future.result()
        finally:  # on Ctrl-C, run no more cases
            pool.shutdown(cancel_futures=True)
        say(f"{fmt}: done in {time.monotonic() - phase:.0f} s")

    print(f"\nmcpack verify corruption campaign: seed {args.seed}, {args.trials} damaged copies per format")
    print(f"mcpack: {mcpack} (sha256 {hashlib.sha256(mcpack.read_bytes()).hexdigest()[:16]}...)")
    for original in originals.values():
        print(f"  {original.path.name}: {len(original.data):,} bytes, sha256 {hashlib.sha256(original.data).hexdigest()}")
    for mode in MODES:
        print(f"\n{mode}:")
        header = f"{'format':<8} {'damage':<18} {'tried':>5} " + " ".join(f"{o:>9}" for o in OUTCOMES) + "  names entry"
        print(header + "\n" + "-" * len(header))
        for fmt in formats:
            label = fmt
            for kind in KINDS + ("all",):
                rows = [r for r in results if r.mode == mode and r.case.fmt == fmt and kind in ("all", r.case.kind)]
                if not rows:
                    continue
                aimed = [r.named for r in rows if r.named is not None]
                named = f"{sum(aimed)}/{len(aimed)}" if aimed else "-"
                print(f"{label:<8} {kind:<18} {len(rows):>5} "
                      + " ".join(f"{sum(r.outcome == o for r in rows):>9}" for o in OUTCOMES) + f"  {named:>11}")
                label = ""
    odd = [r for r in results if r.odd]
    if odd:
        print(f"\n{len(odd)} verify runs whose --json object is missing or disagrees with the exit status: "
              + ", ".join(f"{r.case.name} ({r.mode})" for r in odd[:10]))
    if skipped:
        print("\ntar.zst skipped: no zstd command (apt-get install zstd, brew install zstd)")
    bad = [r for r in results if r.outcome in ("missed", "crashed")]
    if bad:
        print(f"\n{len(bad)} missed or crashed, saved under {findings}/:")
        for r in sorted(bad, key=lambda r: (r.case.fmt, r.case.index, r.mode)):
            print(f"  {r.case.name} ({r.mode}): {r.outcome.upper()}, verify {r.status}; "
                  f"{r.case.describe(originals[r.case.fmt])}" + (f"; {r.note}" if r.note else ""))
            print(f"    repro: SWIFT_BACKTRACE=enable=no {shlex.quote(str(mcpack))} verify --json "
                  f"{shlex.quote(str(r.saved / originals[r.case.fmt].path.name))}")
    command = ["python3", "scripts/campaign.py", "--formats", ",".join(formats), "--seed", str(args.seed),
               "--trials", str(args.trials)] + (["--mcpack", str(mcpack)] if mcpack != ROOT / ".build/release/mcpack" else [])
    print(f"\nrepeat: {shlex.join(command)}")
    print(f"time: {time.monotonic() - started:.0f} s; {'FAIL' if bad else 'ok'}: {len(bad)} missed or crashed")
    return 1 if bad else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:  # subprocess.run has killed its verify
        sys.exit(130)
