"""The deployment deploy/ ships, started for a test: deploy/run.sh (nginx in front of Streamlit
processes and a real redis-server, each a program of supervisord) on free loopback ports in a
temporary RUN_DIR, with handles to break its parts and watch them come back.

    with deployed(processes=2) as d:       # returns once nginx serves the app
        d.url                              # the public address: http://127.0.0.1:PORT
        d.streamlits                       # the processes' program names: ["streamlit-PORT", ...]
        d.cookie_for(d.streamlits[0])      # a sticky cookie nginx sends to that process
        d.stick(context, d.streamlits[0])  # a browser context given one
        d.serving(context)                 # the process nginx last sent it to
        d.route(cookie)                    # the process nginx sends that cookie to now
        d.kill(d.streamlits[0])            # SIGKILL it (as a crash would); its old pid
        d.wait_back(d.streamlits[0])       # s from the kill until a new one serves (<= 30 s)
        d.crash()                          # every process of it SIGKILLed (a host's power cut)
        d.stop_redis(lose_data=False)      # redis-server stopped (its data kept, or deleted)
        d.start_redis()                    # started again; returns once it answers
        d.restart_redis(lose_data=False)   # both
        outage = d.hold_redis_down(30)     # stopped now, started 30 s later in the background;
        outage.join()                      # ... returns once it answers again
        d.redis()                          # a redis-py client of it (password included)
        d.tracebacks()                     # every "Traceback" paragraph in every log

On leaving the block run.sh gets SIGTERM (as Ctrl+C would), supervisord stops every program,
and the harness checks that no process it started is left (it kills and names any that is).
Logs are copied to tests/artifacts/deployment-<name>/ first. Programs are named as in
RUN_DIR/supervisord.conf: "streamlit-PORT", "redis", "nginx"; kill() and wait_back() take any.
bench/_nginx.py starts the deployment for the benchmarks through the same function.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request
import xmlrpc.client
from collections.abc import Iterator
from pathlib import Path

from testkit.chromium import free_port
from testkit.servers import wait_healthy

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "tests" / "artifacts"


class Deployment:
    """A running deploy/run.sh: its address, its RUN_DIR and the handles listed above."""

    def __init__(self, url: str, run_dir: Path, ports: list[int], redis_port: int | None,
                 redis_password: str, launcher: subprocess.Popen):
        self.url = url
        self.run_dir = run_dir
        self.ports = ports
        self.streamlits = [f"streamlit-{port}" for port in ports]
        self.redis_port = redis_port
        self.redis_password = redis_password
        self.launcher = launcher
        self._killed: dict[str, tuple[int, float]] = {}
        self._groups: set[int] = set()
        self._lock = threading.Lock()

    # -- supervisord, through its socket (what `supervisorctl -c RUN_DIR/supervisord.conf` does)
    def _rpc(self):
        from supervisor.xmlrpc import SupervisorTransport

        transport = SupervisorTransport(serverurl=f"unix://{self.run_dir / 'supervisor.sock'}")
        return xmlrpc.client.ServerProxy("http://127.0.0.1", transport=transport).supervisor

    def info(self, program: str) -> dict:
        """supervisord's word on a program: its ``statename`` (RUNNING, STARTING, BACKOFF,
        STOPPED, ...) and ``pid`` (0 when not running)."""
        with self._lock:
            return self._rpc().getProcessInfo(program)

    def pid(self, program: str) -> int:
        return self.info(program)["pid"]

    # -- a process dies, and comes back
    def kill(self, program: str) -> int:
        """SIGKILL a running program (a crash, an out-of-memory kill); its pid."""
        pid = self.pid(program)
        if not pid:
            raise RuntimeError(f"{program} is not running")
        self._killed[program] = (pid, time.monotonic())
        os.kill(pid, signal.SIGKILL)
        return pid

    def crash(self) -> None:
        """SIGKILL every process of the deployment at once (run.sh, supervisord, each program
        and nginx's workers), as a host whose power went off: nothing stops cleanly."""
        groups = self.groups() | {self.launcher.pid}
        for group in groups:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(group, signal.SIGKILL)
        self.launcher.wait(timeout=10)

    def wait_back(self, program: str, timeout: float = 30) -> float:
        """Wait until supervisord has a new ``program`` running that serves (a Streamlit
        process's health check says ok; redis-server answers PING); the seconds since kill()."""
        old_pid, killed = self._killed.get(program, (0, time.monotonic()))
        deadline = killed + timeout
        while True:
            info = self.info(program)
            if info["statename"] == "RUNNING" and info["pid"] not in (0, old_pid) \
                    and self._serves(program):
                return time.monotonic() - killed
            if time.monotonic() > deadline:
                raise TimeoutError(f"{program} is not back after {timeout} s: "
                                   f"{info['statename']} ({info['spawnerr'] or 'no error'})")
            time.sleep(0.1)

    def _serves(self, program: str) -> bool:
        if program == "redis":
            return self.redis_alive()
        if program.startswith("streamlit-"):
            url = f"http://127.0.0.1:{program.removeprefix('streamlit-')}/_stcore/health"
            with contextlib.suppress(OSError), urllib.request.urlopen(url, timeout=2) as reply:
                return reply.read() == b"ok"
            return False
        return True

    # -- which process a browser is sent to (nginx hashes its sticky cookie)
    def route(self, cookie: str) -> str:
        """The program nginx sends a request carrying this sticky cookie to now (a health
        check through nginx, read back from its log); "streamlit" when none would take it."""
        logged = len(self._hits(cookie))
        request = urllib.request.Request(f"{self.url}/_stcore/health",
                                         headers={"Cookie": f"stlab_backend={cookie}"})
        with contextlib.suppress(urllib.error.HTTPError), \
                urllib.request.urlopen(request, timeout=10) as reply:
            reply.read()
        deadline = time.monotonic() + 5  # nginx logs a request once it has finished with it
        while len(self._hits(cookie)) == logged:
            if time.monotonic() > deadline:
                raise LookupError(f"nginx logged no request with the cookie {cookie!r}")
            time.sleep(0.02)
        return self._last_upstream(cookie)

    def _hits(self, cookie: str) -> list[list[str]]:
        lines = [line.split() for line in self.access_log().splitlines()]
        return [line for line in lines if len(line) > 2 and line[1] == cookie]

    def _last_upstream(self, cookie: str) -> str:
        hits = self._hits(cookie)
        if not hits:
            raise LookupError(f"nginx logged no request with the cookie {cookie!r}")
        # "127.0.0.1:A, 127.0.0.1:B": A refused, B answered; "streamlit": no process would
        answered = hits[-1][-4].rstrip(",")
        return f"streamlit-{answered.rsplit(':', 1)[1]}" if ":" in answered else answered

    def access_log(self) -> str:
        path = self.run_dir / "access.log"
        return path.read_text() if path.exists() else ""

    def cookie_for(self, program: str) -> str:
        """A sticky cookie nginx sends to ``program``."""
        for _ in range(200):
            cookie = secrets.token_hex(16)
            if self.route(cookie) == program:
                return cookie
        raise RuntimeError(f"no cookie of 200 reaches {program}")

    def stick(self, context, program: str) -> str:
        """Give a browser context the sticky cookie nginx sends to ``program``; the cookie."""
        cookie = self.cookie_for(program)
        context.add_cookies([{"name": "stlab_backend", "value": cookie, "url": self.url}])
        return cookie

    def serving(self, context) -> str:
        """The program nginx last sent this browser context's requests to."""
        cookie = next(c["value"] for c in context.cookies(self.url)
                      if c["name"] == "stlab_backend")
        return self._last_upstream(cookie)

    # -- redis-server
    def redis(self):
        """A redis-py client of the deployment's redis-server."""
        import redis

        return redis.Redis(port=self.redis_port, password=self.redis_password,
                           socket_timeout=2, socket_connect_timeout=2)

    def redis_alive(self) -> bool:
        import redis

        try:
            return bool(self.redis().ping())
        except (redis.RedisError, OSError):
            return False

    def stop_redis(self, lose_data: bool = False) -> None:
        """Stop redis-server (SIGTERM: it writes its append-only file); with ``lose_data``
        its files are deleted too, as a server that kept nothing would come back empty."""
        with self._lock:
            self._rpc().stopProcess("redis")
        if lose_data:
            data = self.run_dir / "redis"
            shutil.rmtree(data)
            data.mkdir(mode=0o700)

    def start_redis(self, timeout: float = 30) -> None:
        """Start redis-server again; returns once it answers."""
        with self._lock:
            self._rpc().startProcess("redis")
        deadline = time.monotonic() + timeout
        while not self.redis_alive():
            if time.monotonic() > deadline:
                raise TimeoutError("redis-server did not answer")
            time.sleep(0.05)

    def restart_redis(self, lose_data: bool = False) -> None:
        self.stop_redis(lose_data=lose_data)
        self.start_redis()

    def hold_redis_down(self, seconds: float, lose_data: bool = False) -> threading.Thread:
        """Stop redis-server now and start it ``seconds`` later, in the background; join()
        the thread returned to wait until it answers again."""
        self.stop_redis(lose_data=lose_data)
        thread = threading.Thread(target=lambda: (time.sleep(seconds), self.start_redis()),
                                  name="redis-outage", daemon=True)
        thread.start()
        return thread

    def groups(self) -> set[int]:
        """The process groups of every program ever started (each program leads its own)."""
        with contextlib.suppress(OSError, xmlrpc.client.Error), self._lock:
            self._groups |= {info["pid"] for info in self._rpc().getAllProcessInfo()}
        return {pid for pid in self._groups | {pid for pid, _ in self._killed.values()} if pid}

    # -- logs
    def logs(self) -> dict[str, str]:
        """Every log in RUN_DIR by file name (the programs', supervisord's, run.sh's)."""
        return {path.name: path.read_text(errors="replace")
                for path in sorted(self.run_dir.glob("*.log"))}

    def tracebacks(self) -> list[str]:
        """Each Python traceback in a log, with its file's name (none: an empty list)."""
        found = []
        for name, text in self.logs().items():
            for match in re.finditer(r"Traceback \(most recent call last\):\n(?:[ \t].*\n)*.*",
                                     text):
                found.append(f"{name}: {match.group(0)}")
        return found


@contextlib.contextmanager
def deployed(processes: int = 2, *options: str, precompress: bool = False,
             run_dir: Path | None = None, env: dict | None = None,
             name: str = "deployment", timeout: float = 180, listen: int | None = None,
             ports: list[int] | None = None) -> Iterator[Deployment]:
    """deploy/run.sh with ``processes`` Streamlit processes (``options``: their extra flags)
    on free loopback ports; yields a Deployment once nginx serves the app, stops it all after.

    ``run_dir``: its RUN_DIR, kept afterwards (less the static files); default a temporary
    folder, removed afterwards, its logs copied to tests/artifacts/<name>/. ``env``: more of
    run.sh's settings (deploy/run.sh's header lists them). ``listen``, ``ports``: nginx's port
    and the processes' (default: free ones), e.g. a host started again where it was.
    """
    temporary = run_dir is None
    run_dir = Path(tempfile.mkdtemp(prefix="perceptron-lab-deploy-")) if temporary \
        else Path(run_dir)
    listen = listen or free_port()
    ports = list(ports) if ports else [free_port() for _ in range(processes)]
    redis_port = free_port() if processes > 1 else None
    password = secrets.token_hex(16)
    environment = {**os.environ, "PROCESSES": str(processes), "LISTEN": f"127.0.0.1:{listen}",
                   "STREAMLIT_PORTS": " ".join(map(str, ports)), "RUN_DIR": str(run_dir),
                   "STREAMLIT_OPTS": " ".join(options),
                   "PRECOMPRESS": "1" if precompress else "0",
                   "ACCESS_LOG": str(run_dir / "access.log"), "REDIS_PASSWORD": password,
                   **({"REDIS_PORT": str(redis_port)} if redis_port else {}), **(env or {})}
    for inherited in ("PERCEPTRON_LAB_REDIS", "PERCEPTRON_LAB_REDIS_PASSWORD", "DATA_DIR"):
        if inherited not in (env or {}):
            environment.pop(inherited, None)
    with open(run_dir / "run.log", "w") as log:
        # its own process group: a signal to it reaches run.sh and supervisord alone
        launcher = subprocess.Popen(["bash", "deploy/run.sh"], cwd=ROOT, env=environment,
                                    stdout=log, stderr=subprocess.STDOUT,
                                    start_new_session=True)
    deployment = Deployment(f"http://127.0.0.1:{listen}", run_dir, ports, redis_port,
                            password, launcher)
    try:
        deadline = time.monotonic() + timeout
        while not (run_dir / "ready").exists():
            if launcher.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"deploy/run.sh did not start; see {run_dir / 'run.log'}:\n"
                                   + (run_dir / "run.log").read_text()[-3000:])
            time.sleep(0.2)
        wait_healthy(deployment.url, launcher, deadline - time.monotonic(),
                     fault="nginx does not serve the app")
        yield deployment
    finally:
        _stop(launcher, run_dir, deployment.groups())
        if temporary:
            kept = ARTIFACTS / name
            shutil.rmtree(kept, ignore_errors=True)
            kept.mkdir(parents=True, exist_ok=True)
            for path in run_dir.glob("*.log"):
                shutil.copy(path, kept / path.name)
            shutil.rmtree(run_dir, ignore_errors=True)
        else:
            # the compressed copy of Streamlit's static files is 26 MB; the logs stay
            shutil.rmtree(run_dir / "www", ignore_errors=True)


def _stop(launcher: subprocess.Popen, run_dir: Path, groups: set[int]) -> None:
    """SIGTERM to run.sh (Ctrl+C's way); then nothing it started may be left: its children,
    and any process whose parent died before (by the RUN_DIR in its environment, or in the
    process group of a program: nginx's workers clear their environment). A dead one that
    its new parent has not reaped yet (after crash()) is not left running."""
    import psutil

    try:
        started = psutil.Process(launcher.pid).children(recursive=True)
    except psutil.NoSuchProcess:
        started = []
    if launcher.poll() is None:
        os.killpg(launcher.pid, signal.SIGTERM)
        try:
            launcher.wait(timeout=40)
        except subprocess.TimeoutExpired:
            os.killpg(launcher.pid, signal.SIGKILL)
            launcher.wait(timeout=10)
    _gone, left = psutil.wait_procs(started, timeout=10)
    for process in psutil.process_iter():
        with contextlib.suppress(psutil.Error):
            if process not in left and process.status() != psutil.STATUS_ZOMBIE \
                    and (os.getpgid(process.pid) in groups
                         or process.environ().get("RUN_DIR") == str(run_dir)):
                left.append(process)
    names = []
    for process in left:
        with contextlib.suppress(psutil.NoSuchProcess):
            names.append(f"{process.pid} {' '.join(process.cmdline())[:80]}")
            process.kill()
    if left:
        raise RuntimeError(f"deploy/run.sh left processes running (now killed): {names}")
