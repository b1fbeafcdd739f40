"""One Step in the step-through lesson, from key press to the redrawn chart, in Chromium.

Run from the repository root::

    python -m bench.latency                     # 60 steps on 1,000 points
    python -m bench.latency --steps 20 --n 200  # smaller
    python -m bench.latency --profile           # also where the server's time goes

It starts ``streamlit run app.py`` on a free port, opens
``/?data=separable-generator&n=1000`` in headless Chromium (Debian's, as the
browser tests use it), and presses → (ArrowRight) ``--steps`` times. For each
press the page itself records, with ``performance.now()``:

* the key press (a capturing ``keydown`` listener),
* the rerun request leaving the browser (the ``BackMsg`` on the WebSocket),
* the server's ``script_finished`` message arriving,
* the moment the "Step t" metric shows the new value AND the first Plotly
  chart (the plane) holds a new ``_fullData`` (Plotly.react has drawn the new
  figure), checked on every DOM mutation,
* the next animation frame after that (the paint).

The server's share is BackMsg sent -> script_finished received: the whole
rerun (script, serialisation, loopback), measured at the browser. Frames are
matched to their protobuf messages through Playwright's WebSocket events, in
order. Each run also prints the CPU per Step of the server and of Chromium's
processes (psutil) and the page's main-thread time (Chrome's Performance
metrics). ``--profile`` adds where the time goes: the server sampled by
py-spy (``pip install py-spy``), and Chrome's JavaScript sampler by script.
``--script bench/_floor_app.py`` measures a trivial app the same way;
``--whatif`` and ``--app-dir`` run a patched or another copy of the app.
"""

from __future__ import annotations

import argparse
import contextlib
import signal
import statistics
import subprocess
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import psutil

from bench._server import CHROMIUM_ARGS, machine, percentile, streamlit_server, system_chromium

# Records WebSocket traffic and the key press with the page's own clock.
INIT_SCRIPT = """
(() => {
  const log = [];
  window.__benchWs = log;
  const Native = window.WebSocket;
  const send = Native.prototype.send;
  Native.prototype.send = function (data) {
    log.push(['sent', performance.now()]);
    return send.call(this, data);
  };
  function Recording(...args) {
    const socket = new Native(...args);
    socket.addEventListener('message', () => log.push(['recv', performance.now()]));
    return socket;
  }
  Recording.prototype = Native.prototype;
  Object.assign(Recording, {CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3});
  window.WebSocket = Recording;
  document.addEventListener('keydown', (event) => {
    if (event.key === 'ArrowRight') window.__benchKeyAt = performance.now();
  }, true);
})();
"""

# Arms a watcher: resolves when the metric reads `expected` and the plane chart was redrawn.
ARM_WATCHER = """
(expected) => {
  const plot = () => document.querySelector('.js-plotly-plot');
  const before = plot()?._fullData;
  window.__benchDone = null;
  window.__benchPaint = null;
  const check = () => {
    if (window.__benchDone !== null) return;
    const metric = document.querySelector('[data-testid="stMetricValue"]');
    const chart = plot();
    if (metric && metric.textContent.trim() === expected && chart && chart._fullData
        && chart._fullData !== before) {
      window.__benchDone = performance.now();
      observer.disconnect();
      requestAnimationFrame(() => { window.__benchPaint = performance.now(); });
    }
  };
  const observer = new MutationObserver(check);
  observer.observe(document.body, {subtree: true, childList: true, characterData: true,
                                   attributes: true});
}
"""

WAIT_IDLE = """() => document.querySelector('[data-testid="stApp"]')
                ?.getAttribute('data-test-script-state') === 'notRunning'"""


def measure(url: str, n: int, steps: int, warmup: int, data: str,
            on_start=contextlib.nullcontext, js_profile: bool = False
            ) -> tuple[list[dict], dict]:
    """Press → ``warmup + steps`` times; the timings of the last ``steps`` presses (ms).

    Also returns the page's main-thread work over those presses (Chrome's
    Performance metrics, and with ``js_profile`` its JavaScript samples).
    ``on_start()`` is a context manager entered after the warm-up presses and
    left after the last press (the profiler).
    """
    from playwright.sync_api import sync_playwright

    frames: list[tuple[str, bytes]] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(headless=True, executable_path=system_chromium(),
                                             args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        page = context.new_page()
        page.set_default_timeout(30_000)
        chrome = BrowserWork(context.new_cdp_session(page), js_profile)
        page.add_init_script(INIT_SCRIPT)
        page.on("websocket", lambda ws: (
            ws.on("framesent", lambda payload: frames.append(("sent", payload))),
            ws.on("framereceived", lambda payload: frames.append(("recv", payload)))))
        page.goto(f"{url}/?data={data}&n={n}")
        page.wait_for_selector(".js-plotly-plot")
        page.wait_for_function(WAIT_IDLE)
        page.wait_for_timeout(500)
        total = page.get_by_test_id("stMetricValue").first.inner_text().split("/")[1].strip()
        @contextlib.contextmanager
        def measured():
            with on_start(), chrome:
                yield

        with contextlib.ExitStack() as measuring:
            rows = presses(page, frames, total, warmup, steps, measuring, measured)
        browser.close()
    return rows, chrome.used


class BrowserWork:
    """The page's main-thread time (Chrome's Performance metrics) and, optionally, JS samples."""

    METRICS = ("TaskDuration", "ScriptDuration", "RecalcStyleDuration", "LayoutDuration")

    def __init__(self, cdp, js_profile: bool):
        self.cdp, self.js_profile, self.used = cdp, js_profile, {}
        cdp.send("Performance.enable")

    def _metrics(self) -> dict:
        return {m["name"]: m["value"] for m in self.cdp.send("Performance.getMetrics")["metrics"]}

    def __enter__(self):
        self.start = self._metrics()
        if self.js_profile:
            self.cdp.send("Profiler.enable")
            self.cdp.send("Profiler.setSamplingInterval", {"interval": 250})
            self.cdp.send("Profiler.start")
        return self

    def __exit__(self, *exc):
        end = self._metrics()
        self.used = {name: end[name] - self.start[name] for name in self.METRICS}
        if self.js_profile:
            profile = self.cdp.send("Profiler.stop")["profile"]
            nodes = {node["id"]: node["callFrame"] for node in profile["nodes"]}
            by_script: Counter[str] = Counter()
            for sample, delta in zip(profile["samples"], profile["timeDeltas"], strict=True):
                frame = nodes[sample]
                name = frame["url"].rsplit("/", 1)[-1] or frame["functionName"] or "(native)"
                by_script[name] += delta / 1e6
            self.used["js"] = by_script


def presses(page, frames, total, warmup, steps, measuring, on_start) -> list[dict]:
    """The presses themselves; see :func:`measure`."""
    rows = []
    for press in range(warmup + steps):
        if press == warmup:
            measuring.enter_context(on_start())
        row = one_press(page, frames, f"{press + 1} / {total}")
        if press >= warmup:
            rows.append(row)
    return rows


def one_press(page, frames, expected: str) -> dict:
    """Press → once; the timings of that press in ms, and the bytes it brought."""
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    page.wait_for_function(WAIT_IDLE, polling=25)
    start = len(page.evaluate("window.__benchWs"))
    page.evaluate(ARM_WATCHER, expected)
    page.keyboard.press("ArrowRight")
    page.wait_for_function("window.__benchPaint !== null", polling=25)
    page.wait_for_function(WAIT_IDLE, polling=25)
    page.wait_for_timeout(50)
    log = page.evaluate("window.__benchWs")
    key, done, paint = page.evaluate(
        "[window.__benchKeyAt, window.__benchDone, window.__benchPaint]")
    if len(log) != len(frames):
        raise RuntimeError(f"{len(log)} frames in the page, {len(frames)} seen: "
                           "was there a second WebSocket?")
    sent = next(t for (kind, t) in log[start:] if kind == "sent")
    finished = None
    for (kind, t), (_, payload) in zip(log[start:], frames[start:], strict=True):
        if kind == "recv" and isinstance(payload, bytes):
            message = ForwardMsg()
            message.ParseFromString(payload)
            if message.WhichOneof("type") == "script_finished":
                finished = t
                break
    received = sum(len(payload) for kind, payload in frames[start:] if kind == "recv")
    return dict(total=paint - key, dom=done - key, before=sent - key, server=finished - sent,
                after=paint - finished, bytes=received)


def browser_report(work: dict, steps: int) -> str:
    """The page's main thread per step; with a JS profile, the scripts that ran."""
    per = {name: value / steps * 1000 for name, value in work.items() if name != "js"}
    other = per["TaskDuration"] - per["ScriptDuration"] - per["RecalcStyleDuration"] - per[
        "LayoutDuration"]
    text = (f"Page main thread per step (Chrome's Performance metrics): "
            f"{per['TaskDuration']:.0f} ms busy = JavaScript {per['ScriptDuration']:.0f} + "
            f"style {per['RecalcStyleDuration']:.0f} + layout {per['LayoutDuration']:.0f} + "
            f"other (paint, GC, messages) {other:.0f}")
    if "js" in work:
        text += "\n\n| JavaScript samples by script (ms per step) | ms |\n| --- | ---: |\n"
        text += "\n".join(f"| {name} | {seconds / steps * 1000:.0f} |"
                           for name, seconds in work["js"].most_common(8))
    return text


class CpuMeter:
    """CPU seconds the server and the browser (Chromium's processes) spend meanwhile."""

    def __init__(self, server_pid: int):
        self.server = psutil.Process(server_pid)
        self.used = {}

    @staticmethod
    def _browser() -> dict:
        """CPU seconds per kind of Chromium process (browser, renderer, gpu-process, ...)."""
        used: Counter[str] = Counter()
        for child in psutil.Process().children(recursive=True):
            with contextlib.suppress(psutil.Error):
                if "chrom" in child.name():
                    kind = next((arg.split("=", 1)[1] for arg in child.cmdline()
                                 if arg.startswith("--type=")), "browser")
                    used[kind] += sum(child.cpu_times()[:2])
        return used

    def _now(self) -> dict:
        return {"server": sum(self.server.cpu_times()[:2]),
                **{f"chromium {kind}": value for kind, value in self._browser().items()}}

    def __enter__(self):
        self.start = self._now()
        return self

    def __exit__(self, *exc):
        end = self._now()
        self.used = {key: end[key] - self.start.get(key, 0.0) for key in end}


def summary(rows: list[dict], cpu: dict | None = None) -> str:
    """A markdown table: p50 / p95 / max of each share."""
    lines = ["| part (ms) | p50 | p95 | max |", "| --- | ---: | ---: | ---: |"]
    names = {"total": "key press -> chart redrawn and painted",
             "dom": "key press -> metric and chart updated in the DOM",
             "before": "key press -> rerun request sent (browser)",
             "server": "rerun request -> script_finished received (server)",
             "after": "script_finished -> painted (browser)"}
    for key, name in names.items():
        values = [row[key] for row in rows]
        lines.append(f"| {name} | {percentile(values, 50):.0f} | {percentile(values, 95):.0f} "
                     f"| {max(values):.0f} |")
    lines.append(f"\nsteps measured: {len(rows)}; WebSocket bytes received per step: "
                 f"median {statistics.median(row['bytes'] for row in rows) / 1000:.1f} KB")
    if cpu:
        parts = ", ".join(f"{key} {value / len(rows) * 1000:.0f} ms"
                          for key, value in cpu.items() if value > 0)
        lines.append(f"CPU per step (mean, whole press cycle): {parts}")
    return "\n".join(lines)


@contextlib.contextmanager
def sampled(pid: int, path: Path) -> Iterator[None]:
    """Sample the server with py-spy (collapsed stacks, 250 Hz) while the block runs."""
    spy = subprocess.Popen(["py-spy", "record", "-p", str(pid), "-f", "raw", "-o", str(path),
                            "-r", "250", "--nolineno", "--nonblocking", "--gil"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(1)  # let it attach
    try:
        yield
    finally:
        spy.send_signal(signal.SIGINT)
        spy.wait(timeout=60)


def frame_name(frame: str) -> str:
    """'function (path/to/file.py)' -> 'file.py:function', shortest readable form."""
    function, _, where = frame.partition(" (")
    return f"{where.rstrip(')').split('/')[-1]}:{function}"


WRAPPERS = ("threading.py:", "script_runner.py:", "exec_code.py:", "page.py:Page.run",
            "app.py:<module>")


def profile_report(path: Path, top: int = 20, page: str = "step_through.py:<module>") -> str:
    """Where the server's samples went, from py-spy's raw output (collapsed stacks)."""
    inclusive: Counter[str] = Counter()
    own: Counter[str] = Counter()
    page_calls: Counter[str] = Counter()
    elsewhere: Counter[str] = Counter()
    total = others = 0
    for line in path.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        names = [frame_name(frame) for frame in stack.split(";")]
        count = int(count)
        # the rerun's thread: everything below ScriptRunner._run_script
        if not any(name.endswith("ScriptRunner._run_script") for name in names):
            others += count
            elsewhere[names[-1]] += count
            continue
        total += count
        for name in set(names):
            inclusive[name] += count
        own[names[-1]] += count
        inside = [k for k, name in enumerate(names) if name.endswith(page)]
        # what the page script was calling: its own line, or the function it called
        callee = names[inside[0] + 1] if inside and inside[0] + 1 < len(names) else (
            "(the page script's own lines)" if inside
            else "(outside the page: Streamlit, app.py)")
        page_calls[callee] += count
    shown = [(name, count) for name, count in inclusive.most_common()
             if not name.startswith(WRAPPERS)][:top]
    lines = [f"py-spy (250 Hz): {total} samples in script runs, {others} in the server's other "
             f"threads (event loop: WebSocket, serialisation) = "
             f"{total / max(total + others, 1):.0%} / {others / max(total + others, 1):.0%}",
             "", "| script runs: what the page script was calling | share |", "| --- | ---: |"]
    lines += [f"| {name} | {count / total:.0%} |" for name, count in page_calls.most_common(12)]
    lines += ["", "| script runs: function, inclusive | share |", "| --- | ---: |"]
    lines += [f"| {name} | {count / total:.0%} |" for name, count in shown]
    lines += ["", "| script runs: function, own time | share |", "| --- | ---: |"]
    lines += [f"| {name} | {count / total:.0%} |" for name, count in own.most_common(8)]
    lines += ["", "| other threads: function, own time | share of theirs |", "| --- | ---: |"]
    lines += [f"| {name} | {count / max(others, 1):.0%} |"
              for name, count in elsewhere.most_common(8)]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1000, help="points (Separable generator)")
    parser.add_argument("--data", default="separable-generator")
    parser.add_argument("--steps", type=int, default=60)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--whatif", default=None,
                        help="bench-only patches from bench/_whatif.py, e.g. lean-template")
    parser.add_argument("--script", default="app.py",
                        help="the script to run, e.g. bench/_floor_app.py (Streamlit's floor)")
    parser.add_argument("--app-dir", default=None,
                        help="run the app from another tree (e.g. an unpacked `git archive`)")
    parser.add_argument("--option", action="append", default=[],
                        help="extra streamlit flag, e.g. --option=--runner.postScriptGC=true")
    args = parser.parse_args()
    print(f"Machine: {machine()}")
    print(f"Step-through, {args.n} points ({args.data}), {args.steps} presses of → "
          f"after {args.warmup} warm-up presses; server options: {args.option or 'none'}; "
          f"app: {args.script} from {args.app_dir or 'this tree'}\n")
    stacks = Path(tempfile.gettempdir()) / "perceptron-lab-latency.stacks"
    with streamlit_server(*args.option, name="latency", root=args.app_dir,
                          whatif=args.whatif, script=args.script) as (url, server):
        meter = CpuMeter(server.pid)

        @contextlib.contextmanager
        def measuring():
            with contextlib.ExitStack() as stack:
                if args.profile:
                    stack.enter_context(sampled(server.pid, stacks))
                stack.enter_context(meter)
                yield

        rows, work = measure(url, args.n, args.steps, args.warmup, args.data,
                             on_start=measuring, js_profile=args.profile)
    print(summary(rows, meter.used))
    print(browser_report(work, len(rows)))
    if args.profile:
        print("\n" + profile_report(stacks))


if __name__ == "__main__":
    main()
