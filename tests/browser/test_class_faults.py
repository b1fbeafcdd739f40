"""A class survives a fault of the deployment deploy/ ships: a real lecturer page and a real
student page through nginx in front of two Streamlit processes and a real redis-server, all
under supervisord (tests/browser/deployment.py starts it once for this module).

The fixtures come first; each fault's journey is a test function of its own below them.
"""

from __future__ import annotations

import contextlib
import os
import time
import urllib.request

import pytest

from tests.browser.class_journey import (
    CLASS,
    describe,
    lecturer_and_student,
    press,
    reconnected,
    sockets,
    strip,
    wait_strip,
)
from tests.browser.conftest import ARTIFACTS, timeout_ms
from tests.browser.deployment import deployed
from tests.browser.stepper import wait_status
from tests.classroom_support import redis_server_binary

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def deployment():
    """deploy/run.sh with two Streamlit processes, redis-server and nginx: one per module."""
    redis_server_binary()  # skips (or fails in CI) without redis-server
    with deployed(2, name="deployment-class-faults") as running:
        yield running


def test_a_killed_lecturers_process_is_restarted_and_the_class_goes_on(browser, deployment):
    errors: list[str] = []
    contexts, lecturer, student, code = lecturer_and_student(browser, deployment, errors)
    try:
        press(lecturer, "ArrowRight", 2)
        wait_status(lecturer, "Step 2 /")
        wait_status(student, "Step 2 /")

        # the lecturer's process dies: both pages recover within 10 s on the other process
        # (the lecturer's keeps its class and leads on), and the student follows its next press
        before = sockets(lecturer)
        deployment.kill(deployment.streamlits[0])
        killed = time.monotonic()
        # Streamlit's page has its new session on the other process (and ran its script
        # again where its last run was a fragment's), the class strip's stream is open
        reconnected(lecturer, before, timeout_ms(10_000))
        wait_strip(lecturer, f"Class {code[:4]}-{code[4:]}")
        press(lecturer, "ArrowRight")
        wait_status(lecturer, "Step 3 /")
        lecturer.wait_for_function(f"() => {CLASS}?.sentK === 3")  # the class took it
        student.wait_for_function(
            "() => (document.querySelector('.pl-status')?.textContent ?? '')"
            ".startsWith('Step 3 /')", timeout=max(1, timeout_ms(10_000)
                                                   - int(1000 * (time.monotonic() - killed))))
        assert "Following the class" in strip(student)

        # supervisord has started the process again within 30 s, and it serves
        assert deployment.wait_back(deployment.streamlits[0], timeout=30) <= 30
        student.screenshot(path=ARTIFACTS / "class_faults_killed_student.png")
        lecturer.screenshot(path=ARTIFACTS / "class_faults_killed_lecturer.png")
        assert not deployment.tracebacks()
        assert not errors
    except BaseException:
        ARTIFACTS.mkdir(exist_ok=True)
        lecturer.screenshot(path=ARTIFACTS / "class_faults_failed_lecturer.png")
        student.screenshot(path=ARTIFACTS / "class_faults_failed_student.png")
        print(describe(lecturer, student))
        raise
    finally:
        for context in contexts:
            context.close()


def test_redis_keeps_its_data_across_a_restart_and_a_killed_one_comes_back(deployment):
    store = deployment.redis()
    store.set("fault-probe", "kept")
    store.close()
    deployment.restart_redis()  # SIGTERM and a start: the append-only file is read back
    assert deployment.redis().get("fault-probe") == b"kept"

    deployment.kill("redis")  # no clean stop: what the last fsync (a second at most) kept
    assert deployment.wait_back("redis", timeout=30) <= 30
    assert deployment.redis().get("fault-probe") == b"kept"
    assert {deployment.info(name)["statename"] for name in deployment.streamlits} == \
        {"RUNNING"}  # nothing else stopped with it

    deployment.restart_redis(lose_data=True)  # what a server keeping nothing would do
    assert deployment.redis().get("fault-probe") is None


def test_a_killed_nginx_is_replaced_and_its_workers_do_not_outlive_it(deployment):
    import psutil

    deployment.kill("nginx")  # its workers go on serving, and hold the port
    deployment.wait_back("nginx", timeout=30)
    master = deployment.pid("nginx")

    def nginxes():
        found = []
        for process in psutil.process_iter(["name", "ppid"]):
            with contextlib.suppress(psutil.Error):
                # a program's process group (nginx's workers clear their environment)
                if process.info["name"] == "nginx" and \
                        os.getpgid(process.pid) in deployment.groups():
                    found.append(process)
        return found

    # the new master stopped the old one's workers: every nginx is the master or its worker
    deadline = time.monotonic() + 30
    while any(p.pid != master and p.info["ppid"] != master for p in nginxes()):
        assert time.monotonic() < deadline, [(p.pid, p.info["ppid"]) for p in nginxes()]
        time.sleep(0.2)
    assert deployment.pid("nginx") == master  # and it stays up
    with urllib.request.urlopen(f"{deployment.url}/_stcore/health", timeout=10) as reply:
        assert reply.read() == b"ok"
