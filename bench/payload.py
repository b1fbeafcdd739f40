"""Bytes: the run each stepping view sends on opening, and everything a browser fetches.

Run from the repository root::

    python -m bench.payload                 # both parts
    python -m bench.payload --part runs     # the stepper's packed runs (no browser)
    python -m bench.payload --part page     # first load: direct, and behind nginx

*runs*: each lesson that steps in the browser, opened through Streamlit's
AppTest from a link, sends its run once as bytes (ui/stepper/wire.py's ``pack``: a
JSON header with the figure's skeleton, then typed columns). The table gives
the bytes Streamlit puts in the element's protobuf, split into the header and
each column, and gzipped (what a compressing proxy would move). Target for
the page-open payload: 150 KB.

*page*: a fresh headless Chromium opens the lesson and waits until the
charts are drawn and the script is idle; Chrome's own network events (CDP)
give each response's body size and the bytes on the wire, and the WebSocket
frames' sizes. Once straight from Streamlit, once behind nginx
(deploy/run.sh: static files pre-compressed), once behind nginx gzipping on
the fly (PRECOMPRESS=0). The last column fetches the largest file (Plotly's
bundle) ten more times, asking for gzip: the server's cost of serving it.
"""

from __future__ import annotations

import argparse
import base64
import gzip
import json

from bench._server import CHROMIUM_ARGS, ROOT, machine, streamlit_server, system_chromium

# (view, page, link, the stepper's key): the views whose runs step in the browser
VIEWS = [
    ("Step through, 1,000 points, 2 epochs", "step_through",
     {"data": "noisy-blobs-generator", "n": "1000", "epochs": "2"}, "step_through"),
    ("Variants, averaged and voted, noisy blobs (the notes' 50 epochs)", "variants",
     {"data": "noisy-blobs-generator", "n": "200", "spread": "0.7"}, "variants.avg"),
    ("Variants, kernel perceptron, moons (RBF)", "variants",
     {"part": "kernel", "data": "moons-generator", "n": "200", "noise": "0.1",
      "kernel": "rbf", "width": "0.4"}, "variants.dual"),
    ("Perceptron vs SVM, side by side (the SVM's run)", "svm",
     {"part": "Train side by side", "data": "separable-generator", "n": "200"},
     "svm.svm_run"),
    ("Perceptron vs SVM, side by side (the perceptron's run beside it)", "svm",
     {"part": "Train side by side", "data": "separable-generator", "n": "200"}, "svm"),
    ("Non-separable, Iris versicolor vs virginica", "nonseparable",
     {"data": "iris-versicolor-vs-virginica-petal"}, "nonseparable"),
]


def packed_run(page: str, link: dict, key: str) -> bytes:
    """The bytes the stepper ``key`` sends when ``page`` opens from ``link``."""
    from streamlit.testing.v1 import AppTest

    from testkit.apptest import stepper_element, switch

    app = switch(AppTest.from_file(str(ROOT / "app.py"), default_timeout=300), page)
    app.query_params.update(link)
    app.run()
    if app.exception:
        raise RuntimeError([e.value for e in app.exception])
    return stepper_element(app, key).proto.bytes


def kb(value) -> float:
    """Size in KB (1,000 bytes) of a str/bytes, or of an object as compact JSON."""
    if not isinstance(value, (str, bytes)):
        value = json.dumps(value, separators=(",", ":"))
    return len(value.encode() if isinstance(value, str) else value) / 1000


def runs_report() -> str:
    """One markdown row per stepping view: its packed run, split, and gzipped."""
    rows = ["| view | steps | packed run (KB) | gzipped (KB) | header (KB) | columns (KB each) |",
            "| --- | ---: | ---: | ---: | ---: | --- |"]
    for name, page, link, key in VIEWS:
        blob = packed_run(page, link, key)
        head = int.from_bytes(blob[:4], "little")  # the wire format: docs/ARCHITECTURE.md
        header = json.loads(blob[4:4 + head])
        sizes = {column: size * {"f8": 8, "f4": 4, "i4": 4, "i2": 2}.get(code, 1)
                 for column, (code, _, size, _) in header["columns"].items()}
        columns = ", ".join(f"{column} {b / 1000:.1f}" for column, b in
                            sorted(sizes.items(), key=lambda item: -item[1]) if b >= 500)
        rows.append(f"| {name} | {header['steps']:,} | **{kb(blob):.1f}** "
                    f"| {kb(gzip.compress(blob)):.1f} | {head / 1000:.1f} | {columns} |")
    return "\n".join(rows)


FINISHED_JS = """() => document.querySelector('[data-testid="stApp"]')
                   ?.getAttribute('data-test-script-state') === 'notRunning'
               && document.querySelectorAll('.js-plotly-plot').length >= 2"""


def first_load(url: str) -> dict:
    """Open ``url`` in a fresh Chromium; sum what came over HTTP and the WebSocket."""
    from playwright.sync_api import sync_playwright

    responses: dict[str, dict] = {}
    ws_bytes = [0]
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(headless=True, executable_path=system_chromium(),
                                             args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")

        def received(event):
            responses[event["requestId"]] = dict(
                url=event["response"]["url"], body=0, wire=0,
                encoding=event["response"]["headers"].get(
                    "content-encoding", event["response"]["headers"].get("Content-Encoding",
                                                                         "")))

        def data(event):
            if event["requestId"] in responses:
                responses[event["requestId"]]["body"] += event["dataLength"]

        def finished(event):
            if event["requestId"] in responses:
                responses[event["requestId"]]["wire"] = event["encodedDataLength"]

        def frame(event):
            payload = event["response"]["payloadData"]
            ws_bytes[0] += (len(base64.b64decode(payload)) if event["response"]["opcode"] == 2
                            else len(payload))

        cdp.on("Network.responseReceived", received)
        cdp.on("Network.dataReceived", data)
        cdp.on("Network.loadingFinished", finished)
        cdp.on("Network.webSocketFrameReceived", frame)
        page.set_default_timeout(60_000)
        page.goto(url)
        page.wait_for_function(FINISHED_JS)
        page.wait_for_timeout(1500)
        browser.close()
    return dict(responses=list(responses.values()), ws=ws_bytes[0])


def fetch_times(url: str, repeats: int = 10) -> float:
    """Median seconds to fetch ``url`` asking for gzip, one request after another."""
    import statistics
    import time
    import urllib.request

    times = []
    for _ in range(repeats):
        request = urllib.request.Request(url, headers={"Accept-Encoding": "gzip"})
        start = time.perf_counter()
        with urllib.request.urlopen(request, timeout=60) as response:
            response.read()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def page_row(name: str, load: dict) -> str:
    """One markdown row of the first-load table."""
    rs = load["responses"]
    body, wire = sum(r["body"] for r in rs), sum(r["wire"] for r in rs)
    gz = sum(1 for r in rs if r["encoding"] == "gzip")
    biggest = max(rs, key=lambda r: r["wire"])
    seconds = fetch_times(biggest["url"])
    return (f"| {name} | {len(rs)} | {gz} | {body / 1e6:.2f} | {wire / 1e6:.2f} "
            f"| {load['ws'] / 1000:.0f} | {biggest['url'].rsplit('/', 1)[-1][:40]}: "
            f"{biggest['body'] / 1e6:.2f} MB -> {biggest['wire'] / 1e6:.2f} MB "
            f"| {seconds * 1000:.0f} |")


def page_report(query: str) -> str:
    """First load straight from Streamlit and through nginx."""
    from bench._nginx import balanced

    rows = ["| served by | HTTP responses | gzipped | HTTP bodies (MB) | HTTP on the wire (MB) "
            "| WebSocket, first run (KB) | largest response "
            "| fetching it again (ms, median of 10) |",
            "| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: |"]
    with streamlit_server(name="payload") as (url, _):
        rows.append(page_row("Streamlit alone", first_load(f"{url}/{query}")))
    with balanced(2) as (url, _):
        rows.append(page_row("nginx (2 processes), pre-compressed static files",
                             first_load(f"{url}/{query}")))
    with balanced(2, precompress=False) as (url, _):
        rows.append(page_row("nginx (2 processes), gzip on the fly",
                             first_load(f"{url}/{query}")))
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=["runs", "page", "both"], default="both")
    parser.add_argument("--query", default="?data=separable-generator&n=1000",
                        help="the link opened for the first-load measurement")
    args = parser.parse_args()
    print(f"Machine: {machine()}\n")
    if args.part in ("runs", "both"):
        print("The run each stepping view sends on opening (target: <= 150 KB)\n")
        print(runs_report())
    if args.part in ("page", "both"):
        print(f"\nFirst load of /{args.query} in a fresh Chromium (no cache)\n")
        print(page_report(args.query))


if __name__ == "__main__":
    main()
