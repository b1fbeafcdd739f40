"""How long each lesson takes to open from a link, and to follow one changed setting.

Run from the repository root::

    python -m bench.open_speed                          # every view on every built-in set
    python -m bench.open_speed --views svm/Generalization --data xor-0-1
    python -m bench.open_speed --profile nonseparable --data iris-versicolor-vs-virginica-petal

Server side, through Streamlit's AppTest (the script runs exactly as a real
server runs it, without the browser and the WebSocket): for every view (each
lesson, each part of a lesson) and every built-in data set (the lecture
notes' points, Boolean functions, the Iris pairs, the generators at their
link defaults) it prints

* **first open**: a new session opening the link (``?data=...&part=...``)
  in a process that has not yet computed anything for that view and data
  (what the first student in the hall waits for); the process has opened
  every view once before on other data (NAND), so the imports every process
  pays once, before its first student, are counted apart;
* **next open**: another new session opening the same link (everyone else);
* **setting**: that session changing one sidebar setting (η from 1 to 0.5),
  the rerun it causes.

Each as server CPU seconds (the process's user + system time) and wall
seconds. Target: each <= 1 s on this machine. ``--profile`` prints the
twenty functions with the most cumulative time in the script's thread for
the first open of one view (and its setting change).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import sys
import threading
import time
from pathlib import Path

from bench._server import machine

ROOT = Path(__file__).resolve().parents[1]
TARGET = 1.0
# (page script, its part in the link or None, the name printed)
VIEWS = [
    ("step_through", None, "Step through"),
    ("margin", None, "Margin and the mistake bound"),
    ("boolean", None, "Boolean functions and XOR"),
    ("nonseparable", None, "Non-separable data"),
    *(("svm", part, f"Perceptron vs SVM / {part}")
      for part in ("Losses", "Train side by side", "Soft margin", "Generalization",
                   "In scikit-learn")),
    *(("variants", part, f"Variants / {name}")
      for part, name in (("averaged", "Averaged and voted"), ("kernel", "Kernel perceptron"),
                         ("classes", "More than two classes"))),
    ("your_data", None, "Your data"),
]
# the link's data= value of each built-in set a lecture uses (generators at their defaults)
DATA = [
    "lecture-notes-example-4-points",
    "and-0-1",
    "xor-0-1",
    "iris-setosa-vs-versicolor-sepal",
    "iris-versicolor-vs-virginica-petal",
    "separable-generator",
    "noisy-blobs-generator",
    "xor-blobs-generator",
    "circles-generator",
    "moons-generator",
]
SETTING = ("train.eta", 0.5)
WARM_UP = "nand-pm1"  # a set no lecture row uses, so each row's first open is its own


def view_name(page: str, part: str | None) -> str:
    """How --views names a view: page or page/part."""
    return page if part is None else f"{page}/{part}"


class Profiled:
    """cProfile of the script thread that AppTest starts while this is open."""

    def __init__(self, enabled: bool):
        self.enabled = enabled
        self.profile = cProfile.Profile(time.process_time)  # CPU: the machine is shared

    def __enter__(self) -> Profiled:
        if self.enabled:
            def start(*_):
                sys.setprofile(None)
                self.profile.enable()
            threading.setprofile(start)
        return self

    def __exit__(self, *exc) -> None:
        threading.setprofile(None)

    def top(self, count: int = 20) -> str:
        """The functions with the most cumulative time."""
        out = io.StringIO()
        pstats.Stats(self.profile, stream=out).sort_stats("cumulative").print_stats(count)
        return out.getvalue()


def timed(run) -> tuple[float, float]:
    """CPU seconds of this process and wall seconds spent in ``run()``."""
    cpu, wall = time.process_time(), time.perf_counter()
    run()
    return time.process_time() - cpu, time.perf_counter() - wall


def session(page: str, part: str | None, data: str):
    """A new session with the link's query parameters, on the page, not yet run."""
    from streamlit.logger import set_log_level
    from streamlit.testing.v1 import AppTest

    from testkit.apptest import switch

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=600)
    set_log_level("error")  # (reading the config set it back; a session made outside a run warns)
    at.query_params["data"] = data
    if part is not None:
        at.query_params["part"] = part
    switch(at, page)
    return at


def check(at, what: str) -> None:
    """Fail loudly when the page showed an exception: a fast error page is no measurement."""
    if at.exception:
        raise RuntimeError(f"{what}: {[e.value for e in at.exception]}")


def change_setting(at) -> bool:
    """Set η in the sidebar (when the page has it); False when it does not."""
    key, value = SETTING
    for widget in at.number_input:
        if widget.key == key:
            widget.set_value(value)
            return True
    return False


def measure(page: str, part: str | None, data: str, profile: bool = False) -> dict:
    """First open, next open and one setting change of a view on a data set."""
    first = session(page, part, data)
    with Profiled(profile) as opening:
        result = {"first": timed(first.run)}
    check(first, f"{page} {part} {data}")
    nxt = session(page, part, data)
    result["next"] = timed(nxt.run)
    check(nxt, f"{page} {part} {data} (next)")
    result["setting"] = None
    with Profiled(profile) as changing:
        if change_setting(nxt):
            result["setting"] = timed(nxt.run)
    check(nxt, f"{page} {part} {data} (setting)")
    if profile:
        print(f"Profile, first open of {view_name(page, part)} on {data}:")
        print(opening.top())
        if result["setting"] is not None:
            print(f"Profile, η changed on {view_name(page, part)} on {data}:")
            print(changing.top())
    return result


def cell(pair: tuple[float, float] | None) -> str:
    """CPU / wall seconds, in bold when the CPU is over the target."""
    if pair is None:
        return "–"
    text = f"{pair[0]:.2f} / {pair[1]:.2f}"
    return f"**{text}**" if pair[0] > TARGET else text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--views", nargs="*", help="only these, as page or page/part")
    parser.add_argument("--data", nargs="*", help="only these data= values")
    parser.add_argument("--profile", help="profile this view (page or page/part)")
    args = parser.parse_args()
    views = [v for v in VIEWS if not args.views or view_name(v[0], v[1]) in args.views
             or v[0] in args.views]
    data = args.data or DATA
    os.chdir(ROOT)

    print(machine())
    # What every process pays once, before its first students (the imports of every lesson,
    # scikit-learn's among them), is not a lesson's cost: open every view once on other data.
    cpu = wall = 0.0
    for page, part, _ in VIEWS:
        warm = session(page, part, WARM_UP)
        spent = timed(warm.run)
        cpu, wall = cpu + spent[0], wall + spent[1]
    print(f"Process warm-up, every view opened once on {WARM_UP}: {cpu:.2f} s CPU / "
          f"{wall:.2f} s wall")
    print()
    print("Server CPU / wall seconds (AppTest, one process); bold: CPU over "
          f"{TARGET:g} s.")
    print()
    print("| view | data | first open | next open | η changed |")
    print("| --- | --- | ---: | ---: | ---: |")
    worst = 0.0
    for page, part, name in views:
        for slug in data:
            profile = args.profile in (page, view_name(page, part))
            result = measure(page, part, slug, profile=profile)
            worst = max(worst, *(r[0] for r in result.values() if r is not None))
            print(f"| {name} | {slug} | {cell(result['first'])} | {cell(result['next'])} | "
                  f"{cell(result['setting'])} |", flush=True)
    print()
    print(f"Slowest: {worst:.2f} s CPU "
          + ("(within the target)." if worst <= TARGET else f"(OVER the {TARGET:g} s target)."))


if __name__ == "__main__":
    main()
