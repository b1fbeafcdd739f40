"""Bytes: the Play animation's figure, and everything a browser fetches on first load.

Run from the repository root::

    python -m bench.payload                 # both parts
    python -m bench.payload --part figure   # the animation only (no browser, no nginx)
    python -m bench.payload --part page     # first load: direct, and behind nginx

*figure*: the step-through lesson in its *Play* view, run through Streamlit's
AppTest on noisy blobs (not separable, so a run has far more than 1,000
updates and the animation holds its cap of 1,000 frames: the start and the
first 999 updates, as ui/step_view.py's animation_view builds it with
viz.plane.animation_figure). The size is the Plotly JSON Streamlit puts in the
chart's protobuf (``PlotlyChart.spec``), split into its parts, and gzipped.
For comparison, the size if every frame carried every trace (the data
points too), estimated as frames x one such frame.

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


def animation_spec(data: str, n: int) -> tuple[str, list[str]]:
    """The Plotly JSON the Play view sends for this data, and the page's captions."""
    from streamlit.testing.v1 import AppTest

    app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    app.query_params.update({"data": data, "n": str(n)})
    app.session_state["step_through.view"] = "Play"
    app.run()
    if app.exception:
        raise RuntimeError([e.value for e in app.exception])
    charts = app.get("plotly_chart")
    if len(charts) != 1:
        raise RuntimeError(f"expected the animation alone, found {len(charts)} charts")
    return charts[0].proto.spec, [caption.value for caption in app.caption]


def kb(value) -> float:
    """Size in KB (1,000 bytes) of a str/bytes, or of an object as compact JSON."""
    if not isinstance(value, (str, bytes)):
        value = json.dumps(value, separators=(",", ":"))
    return len(value.encode() if isinstance(value, str) else value) / 1000


def figure_rows(data: str, sizes: list[int]) -> list[str]:
    """One markdown row per size."""
    rows = []
    for n in sizes:
        spec, captions = animation_spec(data, n)
        figure = json.loads(spec)
        frames = figure.get("frames", [])
        layout = dict(figure["layout"])
        template = layout.pop("template", {})
        sliders = layout.pop("sliders", [])
        every_trace = kb(dict(data=figure["data"], name="0")) * len(frames)
        # what the frames would weigh without the "type" Plotly's validation adds to each trace
        untyped = kb(spec) - kb(frames) + kb([
            dict(frame, data=[{k: v for k, v in trace.items() if k != "type"}
                              for trace in frame["data"]]) for frame in frames])
        rows.append(
            f"| {n:,} | {len(frames):,} | {kb(spec):.1f} | {kb(gzip.compress(spec.encode())):.1f}"
            f" | {kb(figure['data']):.1f} | {kb(frames):.1f} | {kb(sliders):.1f} "
            f"| {kb(template):.1f} | {kb(layout):.1f} | {untyped:.1f} "
            f"| {every_trace / 1000:.1f} MB |")
        rows[-1] += " " + next((c for c in captions if "animation shows" in c
                                or "Every step" in c), "") + " |"
    return rows


def figure_report(data: str, sizes: list[int]) -> str:
    """The animation's size table."""
    head = ("| points | frames | figure JSON (KB) | gzipped (KB) | data traces | frames "
            "| slider steps | template | rest of layout | without the frames' \"type\" keys "
            "| if frames carried every trace | the page says |\n"
            "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: "
            "| --- |")
    return head + "\n" + "\n".join(figure_rows(data, sizes))


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
    parser.add_argument("--part", choices=["figure", "page", "both"], default="both")
    parser.add_argument("--sizes", type=int, nargs="+", default=[200, 1000])
    parser.add_argument("--data", default="noisy-blobs-generator")
    parser.add_argument("--query", default="?data=separable-generator&n=1000",
                        help="the link opened for the first-load measurement")
    args = parser.parse_args()
    print(f"Machine: {machine()}\n")
    if args.part in ("figure", "both"):
        print(f"Play animation of a run on {args.data} (target: figure JSON <= 150 KB)\n")
        print(figure_report(args.data, args.sizes))
    if args.part in ("page", "both"):
        print(f"\nFirst load of /{args.query} in a fresh Chromium (no cache)\n")
        print(page_report(args.query))


if __name__ == "__main__":
    main()
