"""What one upload costs the server, good or refused, against 1 s of CPU above idle.

Run from the repository root::

    python -m bench.loader_cost                      # the loader alone, then through a server
    python -m bench.loader_cost --no-server          # the loader alone
    python -m bench.loader_cost --root /tmp/other    # another tree's loader and app

The files, each at most the loader's 2 MB: every hostile shape of
tests/test_loader_bounds.py (``HOSTILE``: one character a line, ``#`` lines,
blank and separator lines, 330,000 tiny rows, 200,000 columns, binary...; each
refused), and three good ones: bench/budget.py's 20,000 rows ``x1,x2,label``,
20,000 rows of five columns and a label of three classes, and 10,000 rows of
100 columns of 0 and 1 (the widest file the loader takes, at its size cap); and each
spreadsheet format's worst (``workbook_files``: the largest good sheet, one refused only at
row 20,001, a million rows, a zip bomb, an encrypted workbook).

* **Loader alone**: each file is read by ``load_csv`` in a fresh Python
  process (bench/_load_one.py), ``--repeats`` times; shown is the least CPU
  time of that process around one call (work elsewhere on a shared machine
  does not add to it), the lines the loader read and what it said.
* **Through a server**: ``streamlit run app.py`` on a free port. Its idle
  rate is measured first and last (``--idle`` s with a session open and
  nothing sent: CPU seconds per second). For each file, ``--repeats`` fresh
  sessions (bench/_protocol.py, no browser) each open the app, wait 1 s, and
  upload the file as a browser does (an upload URL, the HTTP PUT, a rerun
  with the uploader's state); the server process's CPU from the request to
  1 s after the rerun finished, less the idle rate times that time, is the
  upload's cost: the PUT, the loader, and the rerun that shows the message
  or the new data. The least of the sessions is shown. A rerun with nothing
  new is measured the same way, for scale.

Budget: <= 1 s of server CPU above idle for any upload.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import psutil

from bench._protocol import Session
from bench._server import ROOT, load_average, machine, streamlit_server
from bench.budget import cpu_seconds, random_rows

BUDGET = 1.0  # s of server CPU above idle, per upload
SETTLE, AFTER = 1.0, 1.0  # s before an upload, and after its rerun finished


def good_files(folder: Path) -> dict[str, bytes]:
    """The good uploads: three columns, five columns and a label, and the widest."""
    rng = np.random.default_rng(1)
    X = rng.normal(size=(20_000, 5)).round(3)
    kinds = rng.choice(["setosa", "versicolor", "virginica"], size=20_000)
    five = "a,b,c,d,e,species\n" + "".join(
        f"{','.join(map(str, row))},{kind}\n" for row, kind in zip(X.tolist(), kinds,
                                                                    strict=True))
    return {
        "good: 20,000 rows x1,x2,label": random_rows(folder / "rows.csv", seed=0).read_bytes(),
        "good: 20,000 rows of 5 columns and 3 classes": five.encode(),
        "good: 10,000 rows of 100 columns of 0 and 1": (b"0,1," * 49 + b"0,1\n"
                                                         + b"1,0," * 49 + b"1,0\n") * 5_000,
    }


def workbook_files() -> dict[str, bytes]:
    """Each new format's worst: the largest good sheet, one refused only at row 20,001 (read
    that far), a million rows in a few bytes, a zip bomb, an encrypted workbook."""
    import io
    import zipfile

    import openpyxl

    from testkit.sheet_files import bomb, million_rows, ods

    rng = np.random.default_rng(1)

    def rows(n: int) -> list[tuple]:
        X = rng.normal(size=(n, 2)).round(3).tolist()
        return [("x1", "x2", "label"), *((a, b, "a" if i % 2 else "b")
                                         for i, (a, b) in enumerate(X))]

    def xlsx(table: list[tuple]) -> bytes:
        book = openpyxl.Workbook(write_only=True)
        sheet = book.create_sheet("Sheet1")
        for row in table:
            sheet.append(list(row))
        out = io.BytesIO()
        book.save(out)
        return out.getvalue()

    def repeated(content: bytes) -> bytes:  # the last row said a million times
        out = io.BytesIO()
        with zipfile.ZipFile(io.BytesIO(content)) as old, zipfile.ZipFile(out, "w") as new:
            for info in old.infolist():
                data = old.read(info.filename)
                if info.filename == "content.xml":
                    at = data.rfind(b"<table:table-row") + 16
                    data = data[:at] + b' table:number-rows-repeated="1000000"' + data[at:]
                new.writestr(info, data, zipfile.ZIP_DEFLATED)
        return out.getvalue()

    good = rows(20_000)
    return {
        "xlsx good: 20,000 rows x1,x2,label": xlsx(good),
        "xlsx: 50,000 rows, refused at row 20,001": xlsx(rows(50_000)),
        "xlsx: a million rows (a 0.3 MB zip)": million_rows(),
        "xlsx: a zip bomb (50 MB of blanks)": bomb(),
        "xlsx: encrypted": bytes.fromhex("d0cf11e0a1b11ae1") + bytes(504),
        "ods good: 20,000 rows x1,x2,label": ods({"Sheet1": good}),
        "ods: 50,000 rows, refused at row 20,001": ods({"Sheet1": rows(50_000)}),
        "ods: a row repeated a million times": repeated(ods({"Sheet1": good[:3]})),
    }


def hostile_files() -> dict[str, bytes]:
    """The hostile shapes the loader's tests refuse (testkit/hostile_files.py), each about
    the loader's 2 MB."""
    from testkit.hostile_files import HOSTILE

    return {name: shape.content() for name, shape in HOSTILE.items()}


def loader_alone(path: Path, repeats: int, root: Path) -> dict:
    """Read one file in a fresh process with ``root``'s loader; its CPU, lines read, message."""
    env = {**os.environ, "PYTHONPATH": str(root)}
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "_load_one.py"), str(path),
                          str(repeats)], cwd=root, env=env, capture_output=True, text=True,
                         check=True, timeout=600).stdout
    return json.loads(out.splitlines()[-1])


def unescaped(markdown: str) -> str:
    """The page's Markdown as read: escapes removed, first line only."""
    return re.sub(r"\\(.)", r"\1", markdown).split("\n")[0].strip()


async def opened(url: str) -> tuple[Session, str]:
    """A fresh session with the app open; its uploader's widget id."""
    session = await Session.open(url, timeout=120)
    first = await session.rerun(timeout=600)
    if first.exceptions or not first.uploaders:
        raise RuntimeError(f"the app did not open: {first.exceptions}")
    await asyncio.sleep(SETTLE)
    return session, next(iter(first.uploaders.values()))


async def measured(process: psutil.Process, idle: float, action) -> tuple[float, float, object]:
    """Run ``action``; the server's CPU above idle until AFTER s past it, the wall time, result."""
    cpu0, start = cpu_seconds(process), time.monotonic()
    result = await action()
    await asyncio.sleep(AFTER)
    wall = time.monotonic() - start
    return cpu_seconds(process) - cpu0 - idle * wall, wall, result


async def idle_rate(process: psutil.Process, url: str, seconds: float) -> float:
    """The server's CPU seconds per second with one session open and nothing sent."""
    session, _ = await opened(url)
    await asyncio.sleep(2.0)
    cpu0, start = cpu_seconds(process), time.monotonic()
    await asyncio.sleep(seconds)
    rate = (cpu_seconds(process) - cpu0) / (time.monotonic() - start)
    await session.close()
    return rate


async def through_server(process: psutil.Process, url: str, files: dict[str, bytes],
                         repeats: int, idle_seconds: float) -> dict:
    """Upload each file in fresh sessions; the least CPU above idle, its wall time, what showed."""
    idle = await idle_rate(process, url, idle_seconds)
    print(f"server idle: {idle:.4f} CPU s per s", file=sys.stderr, flush=True)
    results = {}
    for name in ["(a rerun with nothing new)", *files]:
        best = None
        for _ in range(repeats):
            session, uploader = await opened(url)
            if name in files:
                file_name = re.sub(r"[^\w.-]+", "-", name)[:40] + ".csv"
                cpu, wall, run = await measured(
                    process, idle,
                    lambda s=session, u=uploader, f=file_name, c=files[name]: s.upload(u, f, c))
                told = [unescaped(alert) for alert in run.alerts if file_name in unescaped(alert)]
                said = told[0].split(": ", 1)[1] if told else next(
                    (unescaped(c).split(" ·")[0] for c in run.captions if "points ·" in c), "?")
            else:
                cpu, wall, run = await measured(process, idle, lambda s=session: s.rerun())
                said = ""
            if run.exceptions:
                said = f"EXCEPTION {run.exceptions[0][:60]}"
            await session.close()
            if best is None or cpu < best[0]:
                best = (cpu, wall, said)
        results[name] = best
        print(f"{name}: {best[0]:.2f} s above idle", file=sys.stderr, flush=True)
    after = await idle_rate(process, url, idle_seconds)
    print(f"server idle after: {after:.4f} CPU s per s", file=sys.stderr, flush=True)
    results["idle"] = (idle, after)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=3, help="calls or sessions per file")
    parser.add_argument("--idle", type=float, default=10.0, help="s the idle rate is taken over")
    parser.add_argument("--no-server", action="store_true", help="the loader alone")
    parser.add_argument("--only", nargs="*", help="only the files whose names hold these")
    parser.add_argument("--root", type=Path, default=ROOT,
                        help="the tree whose loader and app are measured")
    args = parser.parse_args()
    root = args.root.resolve()

    print(machine())
    print(f"tree: {root}")
    folder = Path(tempfile.mkdtemp(prefix="loader-cost-"))
    files = {**hostile_files(), **good_files(folder), **workbook_files()}
    if args.only:
        files = {name: content for name, content in files.items()
                 if any(part in name for part in args.only)}
    alone = {}
    for i, (name, content) in enumerate(files.items()):
        path = folder / f"{i}.csv"
        path.write_bytes(content)
        alone[name] = loader_alone(path, args.repeats, root)
        path.unlink()
        print(f"{name}: loader {alone[name]['cpu']:.3f} s", file=sys.stderr, flush=True)

    server = {}
    if not args.no_server:
        with streamlit_server(name="loader_cost", root=root) as (url, process):
            server = asyncio.run(through_server(psutil.Process(process.pid), url, files,
                                                args.repeats, args.idle))
    print(f"load average at the end {load_average():.1f}")
    if server:
        before, after = server["idle"]
        print(f"Server idle: {before:.4f} CPU s per s before the uploads, {after:.4f} after; "
              "each upload is counted above the rate before.")
    print()
    print("| file | MB | the loader says | lines read | loader CPU s | "
          "server CPU s above idle | within 1 s |")
    print("| --- | ---: | --- | ---: | ---: | ---: | --- |")
    if server:
        cpu, _, _ = server["(a rerun with nothing new)"]
        print(f"| (a rerun with nothing new) | | | | | {cpu:.2f} | |")
    worst = 0.0
    for name, content in files.items():
        said = alone[name]["said"]
        page = server[name][2] if server else None
        if page is not None and page not in said:  # the page must say what the loader said
            said = f"{said} (the page said: {page})"
        said = said if len(said) <= 70 else said[:67] + "..."
        lines = alone[name]["lines"]
        cells = [name, f"{len(content) / 1e6:.2f}", said.replace("|", "\\|"),
                 "-" if lines is None else f"{lines:,}", f"{alone[name]['cpu']:.3f}"]
        if server:
            cpu = server[name][0]
            worst = max(worst, cpu)
            cells += [f"{cpu:.2f}", "yes" if cpu <= BUDGET else "**no**"]
        else:
            cells += ["", ""]
        print("| " + " | ".join(cells) + " |")
    if server:
        print()
        print(f"Every upload within {BUDGET:g} s of server CPU above idle." if worst <= BUDGET
              else f"SOME UPLOADS COST MORE THAN {BUDGET:g} s (worst {worst:.2f} s).")


if __name__ == "__main__":
    main()
