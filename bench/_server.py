"""Helpers the browser and load benchmarks share: a Streamlit server, the machine, percentiles."""

from __future__ import annotations

import contextlib
import os
import platform
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np

from tests.browser.chromium import CHROMIUM_ARGS, free_port, system_chromium  # noqa: F401

ROOT = Path(__file__).resolve().parents[1]
# server logs stay out of the work tree
LOGS = Path(tempfile.gettempdir()) / "perceptron-lab-bench"


def wait_healthy(url: str, process: subprocess.Popen | None = None, timeout: float = 60) -> None:
    """Poll ``url``/_stcore/health until it answers ok (or fail after ``timeout`` s)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
                if response.read() == b"ok":
                    return
        except OSError:
            pass
        if (process is not None and process.poll() is not None) or time.monotonic() > deadline:
            raise RuntimeError(f"no healthy streamlit at {url}")
        time.sleep(0.3)


def streamlit_command(port: int, *options: str, whatif: str | None = None,
                      script: str = "app.py") -> list[str]:
    """`streamlit run app.py` headless on 127.0.0.1:port, plus extra ``--section.option`` flags.

    ``whatif`` names patches from bench/_whatif.py to apply first (comma separated).
    """
    launcher = ["bench._whatif", whatif] if whatif else ["streamlit"]
    return [sys.executable, "-m", *launcher, "run", script, "--server.headless", "true",
            "--server.port", str(port), "--server.address", "127.0.0.1",
            "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none",
            *options]


@contextlib.contextmanager
def streamlit_server(*options: str, env: dict | None = None, name: str = "streamlit",
                     root: Path | str | None = None, whatif: str | None = None,
                     script: str = "app.py") -> Iterator[tuple[str, subprocess.Popen]]:
    """Start the app (this tree's, or the one in ``root``) on a free port; yield URL, process."""
    LOGS.mkdir(parents=True, exist_ok=True)
    port = free_port()
    with open(LOGS / f"{name}-{port}.log", "w") as log:
        # the bench package must import even when the app comes from another tree
        path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
        environment = {**os.environ, **(env or {}), **({"PYTHONPATH": path} if whatif else {})}
        process = subprocess.Popen(streamlit_command(port, *options, whatif=whatif,
                                                     script=script),
                                   cwd=root or ROOT, stdout=log, stderr=subprocess.STDOUT,
                                   env=environment)
        url = f"http://127.0.0.1:{port}"
        try:
            wait_healthy(url, process)
            yield url, process
        finally:
            stop(process)


def stop(process: subprocess.Popen) -> None:
    """Terminate one process we started, then kill it if it lingers."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (linear interpolation), nan for no values."""
    return float(np.percentile(values, q)) if len(values) else float("nan")


def cpu_model() -> str:
    """The CPU's model name from /proc/cpuinfo, or what platform knows."""
    with contextlib.suppress(OSError), open("/proc/cpuinfo", encoding="utf-8") as info:
        for line in info:
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor() or "unknown"


def load_average() -> float:
    """The 1-minute load average."""
    return os.getloadavg()[0]


def machine() -> str:
    """One line: cores, CPU, RAM, Python and the versions that matter here."""
    import plotly
    import streamlit

    ram = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return (f"nproc {os.cpu_count()}, CPU \"{cpu_model()}\", RAM {ram:.0f} GiB, "
            f"Python {platform.python_version()}, streamlit {streamlit.__version__}, "
            f"plotly {plotly.__version__}, 1-min load average now {load_average():.2f}")
