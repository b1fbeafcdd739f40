"""A class survives a fault of the deployment deploy/ ships: a real lecturer page and a real
student page through nginx in front of two Streamlit processes and a real redis-server, all
under supervisord (testkit/deployment.py starts it once for this module).

The fixtures come first; each fault's journey is a test function of its own below them.
"""

from __future__ import annotations

import contextlib
import os
import time
import urllib.error
import urllib.request

import pytest

from testkit.browser import ARTIFACTS, timeout_ms
from testkit.class_journey import (
    CLASS,
    describe,
    lecturer_and_student,
    press,
    reconnected,
    sockets,
    strip,
    wait_strip,
)
from testkit.classroom import redis_server_binary
from testkit.deployment import deployed
from testkit.stepper import wait_status

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def deployment():
    """deploy/run.sh with two Streamlit processes, redis-server and nginx: one per module."""
    redis_server_binary()  # skips (or fails in CI) without redis-server
    with deployed(2, name="deployment-class-faults") as running:
        yield running


def test_a_killed_lecturers_process_is_restarted_and_the_class_goes_on(browser, deployment):
    with a_class(browser, deployment, "failed") as (_, lecturer, student, code):
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
        wait_step(student, 3, max(1, 10_000 - 1000 * (time.monotonic() - killed)))
        assert "Following the class" in strip(student)

        # supervisord has started the process again within 30 s, and it serves
        assert deployment.wait_back(deployment.streamlits[0], timeout=30) <= 30
        student.screenshot(path=ARTIFACTS / "class_faults_killed_student.png")
        lecturer.screenshot(path=ARTIFACTS / "class_faults_killed_lecturer.png")


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


def test_a_class_unavailable_while_redis_is_down_takes_no_process_out(deployment):
    """A class route's 503 (Redis away) is the browser's answer, not a dead process: nginx
    passes it on, and each process still serves the pages stuck to it meanwhile (nginx once
    counted the 503 as a failure, took both processes out in turn and answered 502 to every
    page for 5 s)."""
    cookies = {program: deployment.cookie_for(program) for program in deployment.streamlits}

    def get(program: str, path: str) -> int:
        request = urllib.request.Request(f"{deployment.url}{path}",
                                         headers={"Cookie": f"stlab_backend={cookies[program]}"})
        try:
            with urllib.request.urlopen(request, timeout=10) as reply:
                reply.read()
                return reply.status
        except urllib.error.HTTPError as refused:
            assert refused.headers["Retry-After"] == "2" or refused.code != 503
            return refused.code

    deployment.stop_redis()
    try:
        for _ in range(3):  # each of nginx's workers may take a request
            for program in deployment.streamlits:
                assert get(program, "/class/ABCD2345") == 503
        for program in deployment.streamlits:
            for _ in range(3):
                assert deployment.route(cookies[program]) == program
    finally:
        deployment.start_redis()


# ------------------------------------------------------------------ the store's faults


def wait_said(page, pattern: str, timeout: float = 25_000) -> None:
    """Wait until the strip's words (its polite live status) match ``pattern``."""
    page.wait_for_function(
        "(p) => new RegExp(p).test(document.querySelector('.pl-class-text')?.textContent ?? '')",
        arg=pattern, timeout=timeout_ms(timeout))


def said(page) -> str:
    return page.locator(".pl-class-text").text_content() or ""


# what the strip said, and when (for a failure's message)
SAID = """() => {
  window.__said = [];
  const text = document.querySelector('.pl-class-text');
  new MutationObserver(() => window.__said.push([Math.round(performance.now()),
                                                 text.textContent])).observe(
    text, { childList: true, characterData: true, subtree: true });
}"""


def wait_step(page, k: int, timeout: float = 25_000) -> None:
    page.wait_for_function(
        "(k) => (document.querySelector('.pl-status')?.textContent ?? '')"
        ".startsWith(`Step ${k} /`)", arg=k, timeout=timeout_ms(timeout))


def failed(deployment, lecturer, student, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    lecturer.screenshot(path=ARTIFACTS / f"class_faults_{name}_lecturer.png")
    student.screenshot(path=ARTIFACTS / f"class_faults_{name}_student.png")
    print(describe(lecturer, student))


@contextlib.contextmanager
def a_class(browser, deployment, name: str):
    """A lecturer's page leading a class and a student's page following it (class_journey's
    ``lecturer_and_student``): (their contexts, the lecturer's page, the student's, the code).
    Once the journey is through, no log holds a traceback and no page an error; where it fails,
    both pages' pictures go to ARTIFACTS (``name``); the pages are closed either way."""
    errors: list[str] = []
    contexts, lecturer, student, code = lecturer_and_student(browser, deployment, errors)
    try:
        yield contexts, lecturer, student, code
        assert not deployment.tracebacks()
        assert not errors
    except BaseException:
        failed(deployment, lecturer, student, name)
        raise
    finally:
        for context in contexts:
            context.close()


def back_in_class(lecturer, student, code: str) -> None:
    """Neither page says a fault any more: the student follows, the lecturer only leads."""
    shown = f"{code[:4]}-{code[4:]}"
    wait_said(student, f"^Following the class {shown}$")
    wait_said(lecturer, f"^Class {shown} · join at [^·]*$")


def test_a_class_goes_on_after_redis_restarts_without_its_data(browser, deployment):
    """The store lost every class: the lecturer's page gives its class back under the same
    code (its key and the charter the server signed), and the student follows its next press
    within 10 s of Redis being back."""
    with a_class(browser, deployment, "restarted") as (_, lecturer, student, code):
        press(lecturer, "ArrowRight", 2)
        wait_step(lecturer, 2)
        wait_step(student, 2)
        deployment.restart_redis(lose_data=True)
        back = time.monotonic()
        press(lecturer, "ArrowRight")
        wait_step(lecturer, 3)
        wait_step(student, 3, max(1, 10_000 - 1000 * (time.monotonic() - back)))
        back_in_class(lecturer, student, code)
        assert "ended" not in strip(student) + strip(lecturer)
        press(lecturer, "ArrowRight")  # the class goes on, under the same code
        wait_step(student, 4)
        assert deployment.redis().exists(f"plab:{{{code}}}:state") == 1


def test_a_class_says_it_reconnects_while_redis_is_down_and_goes_on_after(browser, deployment):
    """redis-server down for 30 s: both pages say so within 5 s; the lecturer's presses go on
    in its page, its tab sends at most 60 requests meanwhile, and the latest press reaches the
    student when Redis is back."""
    with a_class(browser, deployment, "redis_down") as (_, lecturer, student, code):
        shown = f"{code[:4]}-{code[4:]}"
        sent: list[str] = []
        press(lecturer, "ArrowRight")
        wait_step(student, 1)
        lecturer.on("request", lambda request: sent.append(request.url))
        student.evaluate(SAID)
        outage = deployment.hold_redis_down(30)
        down = time.monotonic()
        wait_said(student, f"^The class {shown} is reconnecting", 5_000)
        wait_said(lecturer, "The class is reconnecting", 5_000)
        student.screenshot(path=ARTIFACTS / "class_faults_redis_down_student.png")
        lecturer.locator(".pl-class").screenshot(
            path=ARTIFACTS / "class_faults_redis_down_lecturer.png")
        for k in range(2, 7):  # presses go on in the page, each drawn at once
            press(lecturer, "ArrowRight")
            wait_step(lecturer, k)
            lecturer.wait_for_timeout(3_000)
        # ... and both pages say so while it lasts
        assert "is reconnecting" in said(student) and "is reconnecting" in said(lecturer), \
            student.evaluate("() => window.__said")
        outage.join()
        assert time.monotonic() - down >= 30
        assert len(sent) <= 60, sent
        # back: the latest press reaches the student; no page says reconnecting any more
        wait_step(student, 6, 15_000)
        back_in_class(lecturer, student, code)
        press(lecturer, "ArrowRight")
        wait_step(student, 7)


def test_students_say_the_lecturer_reconnects_while_its_network_is_down_a_minute(
        browser, deployment):
    """The lecturer's laptop loses its network for a minute: the student's page says the
    lecturer is reconnecting (its page has said nothing for a while), the lecturer's presses
    go on in its own page, and when it is back the class goes on from the lecturer's step."""
    with a_class(browser, deployment, "lecturer_away") as (contexts, lecturer, student, code):
        press(lecturer, "ArrowRight")
        wait_step(student, 1)
        contexts[0].set_offline(True)
        dropped = time.monotonic()
        wait_said(lecturer, "The class is reconnecting", 15_000)
        press(lecturer, "ArrowRight", 2)  # the presses go on in the lecturer's page
        wait_step(lecturer, 3)
        wait_said(student, "^The lecturer is reconnecting", 60_000)
        student.screenshot(path=ARTIFACTS / "class_faults_lecturer_away_student.png")
        assert status_of(student).startswith("Step 1 /")  # the class waits where it was
        lecturer.wait_for_timeout(max(0, 60_000 - 1000 * (time.monotonic() - dropped)))
        contexts[0].set_offline(False)
        wait_step(student, 3, 15_000)  # from the lecturer's step, as soon as it is back
        back_in_class(lecturer, student, code)
        press(lecturer, "ArrowRight")
        wait_step(student, 4)


def status_of(page) -> str:
    return page.locator(".pl-status").first.text_content() or ""
