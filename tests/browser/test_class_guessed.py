"""Another site's page guessing codes through a student's browser cannot keep the hall out of
its class: the pages that open the class's link follow it (their join tickets), in Chromium."""

from __future__ import annotations

import contextlib
import http.server
import threading

import pytest

from classroom import limits
from classroom.follower import Lecturer, request
from testkit.browser import ARTIFACTS, SLOWNESS
from testkit.chromium import free_port
from testkit.class_journey import PHONE, open_page, wait_strip
from testkit.classroom import run
from testkit.servers import streamlit_server

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server_url():
    """A server of this file's own: its journeys spend the misses of the hall's address (this
    machine's), which the other journeys' shared server would carry into theirs."""
    with streamlit_server(name="guessed", log=ARTIFACTS / "server-guessed.log",
                          timeout=60 * SLOWNESS) as (url, _):
        yield url


@contextlib.contextmanager
def another_site(html: bytes):
    """A page on another origin (http://localhost:PORT) serving ``html``."""

    class Page(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(html)))
            self.end_headers()
            self.wfile.write(html)

        def log_message(self, *_args):
            pass

    port = free_port()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Page)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://localhost:{port}/"
    finally:
        server.shutdown()


def test_images_of_unknown_codes_on_another_site_never_keep_the_hall_out(browser, server_url):
    lecturer = Lecturer(server_url)
    run(lecturer.start("data=xor-0-1&eta=0.1"))
    images = "".join(f'<img src="{server_url}/class/ZZZZ2345?n={n}" alt="">'
                     for n in range(2 * limits.MISSES[1]))
    # and one more every 200 ms, for as long as the student keeps the page open
    images += ("<script>let n = 0; setInterval(() => { const img = new Image(); "
               f"img.src = '{server_url}/class/ZZZZ2345?m=' + n++; }}, 200);</script>")
    errors: list[str] = []
    contexts = []
    with another_site(f"<!doctype html><title>a blog</title>{images}".encode()) as site:
        context = browser.new_context(viewport=PHONE)  # a student's browser reads a blog
        contexts.append(context)
        context.new_page().goto(site, wait_until="load")
        # the hall's address spent its misses: a lookup without a ticket is refused
        assert run(request(server_url, "GET", f"/class/{lecturer.code}"))[0] == 429
        students = []
        for _ in range(3):
            context, student = open_page(browser, f"{server_url}/?class={lecturer.code}",
                                         PHONE, errors)
            contexts.append(context)
            students.append(student)
        for student in students:
            wait_strip(student, "^Following the class")
        _, body = run(lecturer.act("ask", kind="mistake", step=1))
        for student in students:
            student.get_by_role("button", name="Mistake", exact=True).click()
        for student in students:  # each answer taken by the server before the reveal
            student.get_by_text("Your answer:").first.wait_for()
        _, body = run(lecturer.act("reveal"))
        assert body["state"]["question"]["counts"][0] == 3, body
    for context in contexts:
        context.close()
    assert not errors, errors
