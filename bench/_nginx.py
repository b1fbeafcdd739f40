"""deploy/run.sh as the benchmarks use it: nginx on a free loopback port in front of N processes."""

from __future__ import annotations

import contextlib
import tempfile
from collections.abc import Iterator
from pathlib import Path

from testkit.deployment import deployed
from testkit.servers import LOGS


@contextlib.contextmanager
def balanced(processes: int, *options: str, precompress: bool = True
             ) -> Iterator[tuple[str, list[int]]]:
    """Run deploy/run.sh; yield nginx's URL and the Streamlit processes' pids; stop it all."""
    LOGS.mkdir(parents=True, exist_ok=True)
    run_dir = Path(tempfile.mkdtemp(prefix="nginx-", dir=LOGS))
    with deployed(processes, *options, precompress=precompress, run_dir=run_dir) as deployment:
        yield deployment.url, [deployment.pid(name) for name in deployment.streamlits]
