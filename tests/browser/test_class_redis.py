"""The class journey across two Streamlit processes that share a real redis-server: the
lecturer's page on one, the students' pages on the other (as behind deploy/nginx.conf,
where a lecturer and a student are usually stuck to different processes)."""

from __future__ import annotations

import contextlib
import os
import secrets
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest

from tests.browser.chromium import free_port
from tests.browser.class_journey import journey
from tests.browser.conftest import ARTIFACTS, ROOT, SLOWNESS
from tests.browser.deployment import wait_serving
from tests.classroom_support import redis_server

pytestmark = pytest.mark.browser
REDIS_PASSWORD = secrets.token_hex(16)
SECRET = secrets.token_hex(32)


@contextlib.contextmanager
def streamlit_process(redis_url: str, name: str) -> Iterator[str]:
    """`streamlit run app.py` on a free port with classes in Redis (behind its password) and
    the class secret every process shares, as deploy/run.sh starts them; its address."""
    port = free_port()
    ARTIFACTS.mkdir(exist_ok=True)
    log = open(ARTIFACTS / f"server_{name}.log", "w")  # noqa: SIM115
    env = {**os.environ, "PERCEPTRON_LAB_REDIS": redis_url,
           "PERCEPTRON_LAB_REDIS_PASSWORD": REDIS_PASSWORD, "PERCEPTRON_LAB_SECRET": SECRET}
    process = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
         "--server.port", str(port), "--server.address", "127.0.0.1",
         "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"],
        cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, env=env)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_serving(url, process, time.monotonic() + 60 * SLOWNESS,
                     f"streamlit did not start; see {log.name}")
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
        log.close()


def test_a_class_led_on_one_process_is_followed_on_another(browser):
    with redis_server(password=REDIS_PASSWORD) as redis_url, \
            streamlit_process(redis_url, "lecturer") as lecturer_url, \
            streamlit_process(redis_url, "students") as student_url:
        journey(browser, lecturer_url, student_url)
