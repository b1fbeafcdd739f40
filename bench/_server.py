"""Helpers the browser and load benchmarks share: a Streamlit server, the class routes' server,
the machine, percentiles."""

from __future__ import annotations

import asyncio
import contextlib
import os
import platform
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import psutil

from classroom.follower import Lecturer
from testkit import servers

# the benchmarks take these from here too
from testkit.chromium import CHROMIUM_ARGS, free_port, system_chromium  # noqa: F401

ROOT = Path(__file__).resolve().parents[1]


@contextlib.contextmanager
def streamlit_server(*options: str, whatif: str | None = None,
                     **kwargs) -> Iterator[tuple[str, subprocess.Popen]]:
    """testkit.servers.streamlit_server, with ``whatif``: patches from bench/_whatif.py to
    apply first (comma separated)."""
    launcher = ("bench._whatif", whatif) if whatif else ("streamlit",)
    with servers.streamlit_server(*options, launcher=launcher, **kwargs) as served:
        yield served


def cpu_of(process: psutil.Process) -> float:
    """The CPU seconds a process has used (user and system)."""
    return sum(process.cpu_times()[:2])


@contextlib.contextmanager
def class_server(script: str, **env: str) -> Iterator[tuple[str, psutil.Process, float]]:
    """The class routes that ``script`` serves (a Python program that runs them on uvicorn at
    the port ``$PORT`` names) in a process of their own, with ``env`` besides: its address,
    once a lecturer can start a class there (30 s at most), its process, and its CPU seconds a
    second while idle (over one second), which a measure of its CPU takes off. Stopped after."""
    port = free_port()
    environ = {**os.environ, "PORT": str(port), "PYTHONPATH": str(ROOT), **env}
    server = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT, env=environ)
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while True:
            try:
                asyncio.run(Lecturer(base).start())
                break
            except (OSError, RuntimeError):
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        process = psutil.Process(server.pid)
        idle0, wall0 = cpu_of(process), time.perf_counter()
        time.sleep(1.0)
        yield base, process, (cpu_of(process) - idle0) / (time.perf_counter() - wall0)
    finally:
        server.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            server.wait(timeout=20)


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
