"""deploy/run.sh as the benchmarks use it: nginx on a free loopback port in front of N processes."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from bench._server import LOGS, ROOT, free_port, wait_healthy


@contextlib.contextmanager
def balanced(processes: int, *options: str, precompress: bool = True
             ) -> Iterator[tuple[str, list[int]]]:
    """Run deploy/run.sh; yield nginx's URL and the Streamlit processes' pids; stop it all."""
    LOGS.mkdir(parents=True, exist_ok=True)
    run_dir = Path(tempfile.mkdtemp(prefix="nginx-", dir=LOGS))
    port = free_port()
    ports = [free_port() for _ in range(processes)]
    env = {**os.environ, "PROCESSES": str(processes), "LISTEN": f"127.0.0.1:{port}",
           "STREAMLIT_PORTS": " ".join(map(str, ports)), "RUN_DIR": str(run_dir),
           "STREAMLIT_OPTS": " ".join(options), "PRECOMPRESS": "1" if precompress else "0"}
    with open(run_dir / "run.log", "w") as log:
        # its own process group: stopping it stops exactly what it started
        launcher = subprocess.Popen(["bash", "deploy/run.sh"], cwd=ROOT, env=env, stdout=log,
                                    stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while not (run_dir / "ready").exists():
            if launcher.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"deploy/run.sh did not start; see {run_dir / 'run.log'}")
            time.sleep(0.3)
        wait_healthy(url, launcher)
        pids = [int(line) for line in (run_dir / "streamlit.pids").read_text().split()]
        yield url, pids
    finally:
        if launcher.poll() is None:
            os.killpg(launcher.pid, signal.SIGTERM)
            try:
                launcher.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(launcher.pid, signal.SIGKILL)
                launcher.wait(timeout=10)
        # the compressed copy of Streamlit's static files is 26 MB; the logs stay
        shutil.rmtree(run_dir / "www", ignore_errors=True)
