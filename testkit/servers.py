"""The app's server as the tests, the benchmarks and the screenshots start it: `streamlit run`
on a free port, waited for until its health check answers, and stopped."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator, Sequence
from pathlib import Path

from testkit.chromium import free_port

ROOT = Path(__file__).resolve().parents[1]
# server logs stay out of the work tree
LOGS = Path(tempfile.gettempdir()) / "perceptron-lab-bench"


def wait_healthy(url: str, process: subprocess.Popen | None = None, timeout: float = 60, *,
                 fault: str = "no healthy streamlit") -> None:
    """Poll ``url``/_stcore/health until it answers ok.

    Raises
    ------
    RuntimeError
        ``"<url>: <fault>"`` when ``process`` (what serves it) ends first or ``timeout``
        seconds pass.
    """
    deadline = time.monotonic() + timeout
    while True:
        with contextlib.suppress(OSError), \
                urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
            if response.read() == b"ok":
                return
        if (process is not None and process.poll() is not None) or time.monotonic() > deadline:
            raise RuntimeError(f"{url}: {fault}")
        time.sleep(0.2)


def stop(process: subprocess.Popen, timeout: float = 10) -> None:
    """Terminate one process we started, then kill it if it lingers ``timeout`` s."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


def streamlit_command(port: int, *options: str, launcher: Sequence[str] = ("streamlit",),
                      script: str = "app.py") -> list[str]:
    """`python -m streamlit run app.py` headless on 127.0.0.1:port, plus extra
    ``--section.option`` flags (``launcher``: another module that runs streamlit)."""
    return [sys.executable, "-m", *launcher, "run", script, "--server.headless", "true",
            "--server.port", str(port), "--server.address", "127.0.0.1",
            "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none",
            *options]


@contextlib.contextmanager
def streamlit_server(*options: str, env: dict | None = None, name: str = "streamlit",
                     root: Path | str | None = None, launcher: Sequence[str] = ("streamlit",),
                     script: str = "app.py", log: Path | None = None,
                     timeout: float = 60) -> Iterator[tuple[str, subprocess.Popen]]:
    """Start the app (this tree's, or the one in ``root``) on a free port, its output in
    ``log`` (by default ``LOGS/<name>-<port>.log``); yield its URL and process, then stop it.

    Raises
    ------
    RuntimeError
        The server did not answer its health check within ``timeout`` s (its log named).
    """
    port = free_port()
    log = log or LOGS / f"{name}-{port}.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    with open(log, "w") as out:
        # the launcher's package must import even when the app comes from another tree
        path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
        environment = {**os.environ, **(env or {}),
                       **({"PYTHONPATH": path} if tuple(launcher) != ("streamlit",) else {})}
        process = subprocess.Popen(streamlit_command(port, *options, launcher=launcher,
                                                     script=script),
                                   cwd=root or ROOT, stdout=out, stderr=subprocess.STDOUT,
                                   env=environment)
        url = f"http://127.0.0.1:{port}"
        try:
            wait_healthy(url, process, timeout, fault=f"streamlit did not start; see {log}")
            yield url, process
        finally:
            stop(process)
