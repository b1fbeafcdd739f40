"""A class in a course page: the app behind deploy/run.sh's nginx, named as framable by one
course site (FRAME_ANCESTORS), framed by a page of that site on another port and host
(http://localhost framing http://127.0.0.1: another site, as Moodle is to the app). The
framed student follows the lecturer's steps and votes."""

from __future__ import annotations

import contextlib
import http.server
import re
import subprocess
import threading
import urllib.request
from collections.abc import Iterator
from html import escape

import pytest

from testkit.chromium import free_port
from testkit.class_journey import LAPTOP, PROJECTOR, press, sidebar, strip, wait_strip
from testkit.stepper import ready, status, wait_status
from tests.browser.conftest import ARTIFACTS, settle, timeout_ms, wait_idle

pytestmark = pytest.mark.browser


@contextlib.contextmanager
def course_site() -> Iterator[str]:
    """A course's page on a loopback port, framing the address in its ``?app=`` query."""

    class Page(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_GET(self):
            app = re.search(r"[?&]app=([^&]*)", self.path)
            src = urllib.request.unquote(app.group(1)) if app else "about:blank"
            body = (f'<!doctype html><title>Course</title><h1>Week 3</h1>'
                    f'<iframe title="Perceptron Lab" src="{escape(src)}" width="1150" '
                    f'height="820"></iframe>').encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.end_headers()
            self.wfile.write(body)

    port = free_port()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Page)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://localhost:{port}"
    finally:
        server.shutdown()
        server.server_close()


def test_a_course_page_frames_the_class_and_its_student_follows_and_votes(
        browser, monkeypatch):
    if subprocess.run(["bash", "-c", "command -v nginx || test -x /usr/sbin/nginx"],
                      capture_output=True).returncode:
        pytest.skip("nginx is not installed")
    from bench._nginx import balanced

    with course_site() as site:
        monkeypatch.setenv("FRAME_ANCESTORS", site)
        with balanced(1, precompress=False) as (app, _pids):
            with urllib.request.urlopen(f"{app}/", timeout=30) as reply:
                policy = reply.headers["Content-Security-Policy"]
                assert f"frame-ancestors 'self' {site};" in policy
                assert reply.headers["X-Frame-Options"] is None
            _framed_class(browser, app, site)


def _framed_class(browser, app: str, site: str) -> None:
    errors: list[str] = []
    lecturer_context = browser.new_context(viewport=PROJECTOR)
    student_context = browser.new_context(viewport=LAPTOP)
    try:
        lecturer = lecturer_context.new_page()
        lecturer.set_default_timeout(timeout_ms(25_000))
        lecturer.goto(app)
        wait_idle(lecturer)
        ready(lecturer)
        sidebar(lecturer).get_by_role("button", name="Start a class").click()
        settle(lecturer, 500)
        wait_strip(lecturer, r"Class [A-Z0-9]{4}-[A-Z0-9]{4}")
        code = "".join(re.search(r"Class (\w{4})-(\w{4})", strip(lecturer)).group(1, 2))

        course = student_context.new_page()
        course.set_default_timeout(timeout_ms(25_000))
        course.on("pageerror", lambda error: errors.append(str(error)))
        course.goto(f"{site}/?app={urllib.request.quote(f'{app}/?class={code}', safe='')}")
        frame = course.locator("iframe").element_handle().content_frame()
        wait_idle(frame)
        ready(frame)
        wait_strip(frame, "Following the class")
        wait_strip(lecturer, "1 following")

        press(lecturer, "ArrowRight", 2)
        wait_status(lecturer, "Step 2 /")
        wait_status(frame, status(lecturer)[:10])

        lecturer.get_by_role("button", name="Ask: mistake or not?").click()
        frame.locator(".pl-quiz .pl-choices").get_by_role("button", name="No mistake").click()
        frame.locator(".pl-quiz").get_by_text("The room's answers show when").wait_for()
        # counted: the framed page's voter cookie came back
        wait_strip(lecturer, r"1 answer from \d+ following")
        course.screenshot(path=ARTIFACTS / "class_framed.png")
        assert not errors
    finally:
        student_context.close()
        lecturer_context.close()
