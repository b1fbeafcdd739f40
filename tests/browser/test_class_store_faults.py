"""A class outlives its store: a lecturer's page and a student's page while the redis-server
under them restarts without its data, or is away for 30 s."""

from __future__ import annotations

import contextlib
import re
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator

import pytest

from tests.browser.chromium import free_port
from tests.browser.class_journey import (
    PHONE,
    PROJECTOR,
    describe,
    open_page,
    press,
    sidebar,
    strip,
    wait_strip,
)
from tests.browser.conftest import ARTIFACTS, settle, timeout_ms
from tests.browser.stepper import ready, status, wait_status
from tests.browser.test_class_redis import REDIS_PASSWORD, streamlit_process
from tests.classroom_support import redis_server_binary

pytestmark = pytest.mark.browser


class Redis:
    """A redis-server on a fixed loopback port that a test stops and starts again, keeping
    nothing on disk (as run.sh's did before it kept an append-only file)."""

    def __init__(self) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.folder = tempfile.mkdtemp(prefix="plab-redis-")
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [redis_server_binary(), "--port", str(self.port), "--bind", "127.0.0.1",
             "--save", "", "--appendonly", "no", "--dir", self.folder,
             "--requirepass", REDIS_PASSWORD],
            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 10

        while time.monotonic() < deadline:
            with contextlib.suppress(OSError), \
                    socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                return
            time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait(timeout=10)
            self.process = None


@contextlib.contextmanager
def restartable_redis() -> Iterator[Redis]:
    redis = Redis()
    redis.start()
    try:
        yield redis
    finally:
        redis.stop()


def wait_said(page, pattern: str, timeout: float = 25_000) -> None:
    """Wait until the strip's words (its polite live status) match ``pattern``."""
    page.wait_for_function(
        "(p) => new RegExp(p).test(document.querySelector('.pl-class-text')?.textContent ?? '')",
        arg=pattern, timeout=timeout_ms(timeout))


def said(page) -> str:
    return page.locator(".pl-class-text").text_content()


@pytest.fixture(scope="module")
def hall():
    """One Streamlit process on a redis-server the tests may stop."""
    with restartable_redis() as redis, streamlit_process(redis.url, "faults") as url:
        yield redis, url


def open_class(browser, url: str):
    """A lecturer's page leading a new class on the lecture notes' example and a student's
    page following it: (contexts, lecturer, student, the code as shown)."""
    errors: list[str] = []
    lecturer_context, lecturer = open_page(browser, f"{url}/?lecture=1", PROJECTOR, errors)
    lecturer.get_by_role("button", name="Lecture notes' example").press("Enter")
    settle(lecturer, 500)
    ready(lecturer)
    sidebar(lecturer).get_by_role("button", name="Start a class").click()
    settle(lecturer, 500)
    wait_strip(lecturer, r"Class [A-Z0-9]{4}-[A-Z0-9]{4}")
    shown = re.search(r"Class (\w{4}-\w{4})", strip(lecturer)).group(1)
    student_context, student = open_page(browser, f"{url}/?class={shown.replace('-', '')}",
                                         PHONE, errors)
    wait_strip(student, f"Following the class {shown}")
    ready(student)
    wait_status(student, status(lecturer).split(" ·")[0][:12])
    return (lecturer_context, student_context), lecturer, student, shown, errors


def test_a_class_goes_on_after_its_redis_restarts_without_its_data(browser, hall):
    redis, url = hall
    contexts, lecturer, student, shown, errors = open_class(browser, url)
    try:
        press(lecturer, "ArrowRight", 2)
        wait_status(lecturer, "Step 2 / 20")
        wait_status(student, "Step 2 / 20")
        redis.stop()
        redis.start()  # empty: every class it held is gone
        # the lecturer's next press reaches the student under the same code, within 10 s
        press(lecturer, "ArrowRight")
        wait_status(lecturer, "Step 3 / 20")
        student.wait_for_function(
            "() => (document.querySelector('.pl-status')?.textContent ?? '')"
            ".startsWith('Step 3 / 20')", timeout=timeout_ms(10_000))
        wait_said(student, f"^Following the class {shown}$")
        wait_said(lecturer, f"^Class {shown} · join at [^·]*$")  # leads, nothing more said
        assert "ended" not in strip(student) + strip(lecturer)
        press(lecturer, "ArrowRight")  # and the class goes on
        wait_status(student, "Step 4 / 20")
        assert not errors
    except BaseException:
        print(describe(lecturer, student))
        for name, page in (("lecturer", lecturer), ("student", student)):
            page.screenshot(path=ARTIFACTS / f"faults_{name}.png")
        raise
    finally:
        for context in contexts:
            context.close()


def test_a_class_says_it_reconnects_while_its_redis_is_away_and_goes_on_after(browser, hall):
    redis, url = hall
    contexts, lecturer, student, shown, errors = open_class(browser, url)
    sent: list[str] = []
    try:
        press(lecturer, "ArrowRight")
        wait_status(student, "Step 1 / 20")
        lecturer.on("request", lambda request: sent.append(request.url))
        redis.stop()
        start = time.monotonic()
        # within 5 s both pages say so, in words, in the strip
        wait_said(student, f"^The class {shown} is reconnecting", 5_000)
        wait_said(lecturer, "The class is reconnecting", 5_000)
        for _ in range(5):  # presses go on in the page, each at once
            press(lecturer, "ArrowRight")
            lecturer.wait_for_timeout(4_000)
        wait_status(lecturer, "Step 6 / 20")
        lecturer.wait_for_timeout(max(0, 30_000 - 1000 * (time.monotonic() - start)))
        count = len(sent)
        redis.start()
        assert count <= 60, count
        # back: the lecturer's latest step reaches the student, and no page says reconnecting
        wait_status(student, "Step 6 / 20")
        wait_said(student, f"^Following the class {shown}$")
        wait_said(lecturer, f"^Class {shown} · join at [^·]*$")
        press(lecturer, "ArrowRight")
        wait_status(student, "Step 7 / 20")
        assert not errors
    except BaseException:
        print(describe(lecturer, student))
        for name, page in (("lecturer", lecturer), ("student", student)):
            page.screenshot(path=ARTIFACTS / f"faults_{name}.png")
        raise
    finally:
        for context in contexts:
            context.close()
