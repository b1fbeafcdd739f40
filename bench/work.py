"""What a student's identity and vote cost now that an identity costs a proof of work, and
what a script pays for many identities; the hall of 300 joining at once.

Run from the repository root::

    python -m bench.work                     # 300 joins, 3 rounds of each

Four measures:

* a script's cost: one proof at ``WORK_BITS`` made by Python's hashlib (OpenSSL's PBKDF2) on
  one core, over ``--proofs`` proofs: identities a second per core;
* a page's cost: ``work.js``'s ``prove`` in headless Chromium on a loopback page (a secure
  context: WebCrypto), as is and with the CPU slowed 4x (DevTools' "mid-tier mobile"), and
  without WebCrypto (the JavaScript PBKDF2 a plain-http page falls back to), over ``--proofs``
  proofs each;
* a server's CPU per join and per vote: the class routes on uvicorn in a process of their own;
  ``--joins`` pages at one loopback address (a hall's NAT), each with a proof made beforehand
  (as each phone makes its own), POST its proof, open its stream with the class's ticket, and
  then vote once; the server process's CPU (psutil) over each phase, its idle rate taken off,
  divided by the pages. The server checks one try of a proof whatever its bits, so the
  proofs here are made at 4 bits, which changes the pages' cost and not the server's;
* the hall joining at once: the wall time from the first request to the last stream open.
"""

from __future__ import annotations

import argparse
import asyncio
import http.server
import statistics
import threading
import time
from concurrent.futures import ProcessPoolExecutor

import psutil

from bench._server import (
    CHROMIUM_ARGS,
    ROOT,
    class_server,
    cpu_of,
    free_port,
    load_average,
    machine,
    system_chromium,
)
from classroom import codes, limits
from classroom.follower import Follower, Lecturer

SERVER = """
import os, uvicorn
from classroom import limits
from classroom.http import Classroom
from classroom.store import MemoryStore
from testkit.classroom import app_of
limits.WORK_BITS = int(os.environ["WORK_BITS"])
room = Classroom(MemoryStore(), secret=b"b" * 32)
uvicorn.run(app_of(room), host="127.0.0.1", port=int(os.environ["PORT"]), log_level="warning")
"""
SERVER_BITS = 4


def script_proofs(n: int) -> list[tuple[float, int]]:
    """(seconds, tries) of each proof at WORK_BITS, hashlib on this core."""
    out = []
    for _ in range(n):
        began = time.perf_counter()
        _, nonce = codes.solve_work(limits.WORK_BITS, limits.WORK_ITERATIONS)
        out.append((time.perf_counter() - began, nonce + 1))
    return out


def page_proofs(n: int) -> dict[str, list[tuple[float, int]]]:
    """(seconds, tries) of each proof in headless Chromium: WebCrypto, WebCrypto with the CPU
    slowed 4x, and the JavaScript PBKDF2."""
    from playwright.sync_api import sync_playwright

    work_js = (ROOT / "ui" / "classroom_assets" / "work.js").read_text()
    module = work_js.replace("export ", "") + "\nwindow.prove = prove;"
    port = free_port()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), _Blank)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    work = {"bits": limits.WORK_BITS, "iterations": limits.WORK_ITERATIONS,
            "salt": codes.WORK_SALT.decode()}
    timed = """async ([work, webcrypto]) => {
      const began = performance.now();
      const { nonce } = await window.prove(work, webcrypto ? crypto.subtle : null);
      return [(performance.now() - began) / 1000, nonce + 1];
    }"""
    out: dict[str, list[tuple[float, int]]] = {}
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(headless=True, args=CHROMIUM_ARGS,
                                                 executable_path=system_chromium())
            page = browser.new_page()
            page.goto(f"http://127.0.0.1:{port}/")
            page.add_script_tag(content=module, type="module")
            page.wait_for_function("() => window.prove !== undefined")
            assert page.evaluate("() => window.isSecureContext && !!crypto.subtle")
            cdp = page.context.new_cdp_session(page)
            for name, rate, webcrypto, count in (("WebCrypto", 1, True, n),
                                                 ("WebCrypto, CPU 4x slower", 4, True, n),
                                                 ("JavaScript PBKDF2", 1, False, max(2, n // 3))):
                cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
                out[name] = [tuple(page.evaluate(timed, [work, webcrypto]))
                             for _ in range(count)]
            browser.close()
    finally:
        server.shutdown()
    return out


class _Blank(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = b"<!doctype html><title>work</title>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_args):
        pass


def _proof(_: int) -> tuple[str, int]:
    return codes.solve_work(SERVER_BITS, limits.WORK_ITERATIONS)


async def hall(base: str, proofs: list[tuple[str, int]], process: psutil.Process,
               idle_rate: float) -> dict[str, float]:
    lecturer = Lecturer(base)
    await lecturer.start("data=xor")
    followers = [Follower(base, lecturer.code, ticket=lecturer.ticket, proof=proof,
                          source="127.0.1.1") for proof in proofs]
    cpu0, began = cpu_of(process), time.perf_counter()
    statuses = await asyncio.gather(*(f.connect(timeout=60) for f in followers))
    joined = time.perf_counter() - began
    join_cpu = cpu_of(process) - cpu0 - idle_rate * joined
    if set(statuses) != {200}:
        raise SystemExit(f"streams refused: { {s: statuses.count(s) for s in set(statuses)} }")
    _, body = await lecturer.act("ask", kind="mistake", step=1)
    question = body["state"]["question"]["id"]
    await asyncio.sleep(0.5)
    cpu0, began = cpu_of(process), time.perf_counter()
    votes = await asyncio.gather(*(f.answer(question, "mistake") for f in followers))
    voted = time.perf_counter() - began
    vote_cpu = cpu_of(process) - cpu0 - idle_rate * voted
    if {status for status, _ in votes} != {204}:
        raise SystemExit("votes refused")
    for follower in followers:
        await follower.close()
    n = len(followers)
    return {"join ms": join_cpu / n * 1000, "vote ms": vote_cpu / n * 1000,
            "joined s": joined, "voted s": voted}


def server_round(proofs: list[tuple[str, int]]) -> dict[str, float]:
    with class_server(SERVER, WORK_BITS=str(SERVER_BITS)) as (base, process, idle_rate):
        return asyncio.run(hall(base, proofs, process, idle_rate))


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):.2f} ({min(values):.2f}-{max(values):.2f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--joins", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--proofs", type=int, default=10)
    args = parser.parse_args()
    print(machine(), f"load {load_average():.1f}",
          f"WORK_BITS {limits.WORK_BITS}, WORK_ITERATIONS {limits.WORK_ITERATIONS}")
    made = {"a script: Python hashlib, one core": script_proofs(args.proofs),
            **{f"headless Chromium, {name}": times
               for name, times in page_proofs(args.proofs).items()}}
    expected = 2 ** limits.WORK_BITS
    print(f"\n| who makes the proof | ms per try | s per proof (x {expected:,} tries) | proofs |")
    print("| --- | ---: | ---: | ---: |")
    for name, times in made.items():
        per_try = sum(t for t, _ in times) / sum(n for _, n in times)
        print(f"| {name} | {per_try * 1000:.2f} | {per_try * expected:.1f} | {len(times)} |")
    with ProcessPoolExecutor(2) as pool:
        proofs = list(pool.map(_proof, range(args.joins)))
    rows = [server_round(proofs) for _ in range(args.rounds)]
    print(f"\n| {args.joins} pages at one address, server (one process) | median (min-max) |")
    print("| --- | ---: |")
    for key, label in (("join ms", "CPU per join: proof checked, cookie, stream (ms)"),
                       ("vote ms", "CPU per vote (ms)"),
                       ("joined s", "all joined, first request to last stream (s)"),
                       ("voted s", "all voted (s)")):
        print(f"| {label} | {spread([r[key] for r in rows])} |")


if __name__ == "__main__":
    main()
