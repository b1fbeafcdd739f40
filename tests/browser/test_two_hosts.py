"""A course on several machines, as deploy/README.md ("Several machines") says to run it, played
on this one: two deployments of deploy/run.sh ("hosts" A and B), each on its own ports with its
own nginx and Streamlit process, sharing ONE redis-server (with its password) and the same
PERCEPTRON_LAB_SECRET and COOKIE_SECRET, behind a third nginx, the front proxy (deploy/front.conf,
sticky by the hosts' cookie).

The lecturer's page comes through the front, to host A; one phone follows on host A's own
address and one on host B's, so that both hosts serve the class from the shared Redis (B's
process never saw the lecturer: the class and the view's run come to it from Redis). Both see
the lecturer's steps and answer a question; then host B goes down at once (every process of it
killed, as a power cut) while the class goes on, and comes back on the same ports: its phone's
strip says the class is reconnecting, then that it follows again, at the class's current step.
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
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from testkit.browser import ARTIFACTS, settle, timeout_ms, wait_idle
from testkit.chromium import free_port
from testkit.class_journey import (
    PROJECTOR,
    collapse,
    press,
    same_status,
    sidebar,
    strip,
    wait_strip,
)
from testkit.classroom import redis_server
from testkit.deployment import ROOT, deployed
from testkit.stepper import ready, wait_status

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}


@contextlib.contextmanager
def front_proxy(listen: int, hosts: list[str]):
    """deploy/front.conf filled in for these hosts (their nginx's address:port), started in a
    folder of its own; yields a function naming the host the front sends a sticky cookie to."""
    binary = shutil.which("nginx") or "/usr/sbin/nginx"
    folder = Path(tempfile.mkdtemp(prefix="perceptron-lab-front-"))
    (folder / "tmp").mkdir()
    log = folder / "access.log"
    servers = " ".join(f"server {host} max_fails=1 fail_timeout=5s;" for host in hosts)
    conf = (ROOT / "deploy" / "front.conf").read_text()
    for field, value in (("@LISTEN@", f"127.0.0.1:{listen}"), ("@HOSTS@", servers),
                         ("@ACCESS_LOG@", f"access_log {log} front;")):
        conf = conf.replace(field, value)
    (folder / "front.conf").write_text(conf)
    command = [binary, "-e", "stderr", "-p", str(folder), "-c", str(folder / "front.conf")]
    subprocess.run([*command, "-t", "-q"], check=True)
    with open(folder / "front.log", "w") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT,
                                   start_new_session=True)
    url = f"http://127.0.0.1:{listen}"

    def routes(cookie: str) -> list[tuple[str, str]]:
        """(the host that answered, the path) of each request the front logged with this
        sticky cookie (a request is logged once it is done)."""
        return [(line.split()[2], line.split()[5]) for line in log.read_text().splitlines()
                if f" {cookie} " in line]

    def host_of(cookie: str) -> str:
        """The host (address:port) that answers a request with this sticky cookie now."""
        before = log.read_text().count(f" {cookie} ") if log.exists() else 0
        request = urllib.request.Request(f"{url}/_stcore/health",
                                         headers={"Cookie": f"stlab_backend={cookie}"})
        with urllib.request.urlopen(request, timeout=10) as reply:
            reply.read()
        deadline = time.monotonic() + 5  # nginx logs a request once it is done with it
        while True:
            lines = [line.split() for line in log.read_text().splitlines()
                     if f" {cookie} " in line]
            if len(lines) > before:
                return lines[-1][2]
            if time.monotonic() > deadline:
                raise LookupError(f"the front logged no request with the cookie {cookie}")
            time.sleep(0.02)

    try:
        deadline = time.monotonic() + 20
        while True:
            with contextlib.suppress(OSError, urllib.error.URLError), \
                    urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as reply:
                if reply.read() == b"ok":
                    break
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the front proxy does not serve: "
                                   + (folder / "front.log").read_text()[-2000:])
            time.sleep(0.1)
        yield host_of, routes
    finally:
        with contextlib.suppress(ProcessLookupError):
            process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)
        with contextlib.suppress(ProcessLookupError):  # its workers, had the master died first
            os.killpg(process.pid, signal.SIGKILL)
        kept = ARTIFACTS / "deployment-two-hosts-front"
        shutil.rmtree(kept, ignore_errors=True)
        kept.mkdir(parents=True, exist_ok=True)
        for path in folder.glob("*.log"):
            shutil.copy(path, kept / path.name)
        shutil.rmtree(folder, ignore_errors=True)


def following(phone, display: str) -> None:
    """Wait until a phone's strip says it follows the class; if it never does, say what the
    page's own line says instead (e.g. that no class has the code, on a host without it)."""
    try:
        wait_strip(phone, f"Following the class {display}")
    except AssertionError as failure:
        line = phone.locator("#pl-line-words")
        said = line.inner_text() if line.count() and line.is_visible() else ""
        raise AssertionError(f"{failure}; the page's line says {said!r}") from failure


def phone_on(browser, url: str, errors: list):
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.set_default_timeout(timeout_ms(25_000))
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    return context, page


def test_two_hosts_share_one_redis_behind_one_front_and_a_host_comes_back(browser):
    if not (shutil.which("nginx") or os.access("/usr/sbin/nginx", os.X_OK)):
        message = "nginx is not installed (scripts/test.sh installs it)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    errors: list[str] = []
    password = secrets.token_hex(16)
    front_port, a_port, b_port = free_port(), free_port(), free_port()
    front = f"http://127.0.0.1:{front_port}"
    with redis_server(password=password) as redis_url, contextlib.ExitStack() as stack:
        # what every host is given (deploy/README.md, "Several machines")
        shared = {"PERCEPTRON_LAB_REDIS": redis_url, "PERCEPTRON_LAB_REDIS_PASSWORD": password,
                  "PERCEPTRON_LAB_SECRET": secrets.token_hex(32),
                  "COOKIE_SECRET": secrets.token_hex(32),
                  "TRUSTED_PROXY": "127.0.0.1", "PUBLIC_URL": f"{front}/"}
        a = stack.enter_context(deployed(1, env=shared, name="deployment-two-hosts-a",
                                         listen=a_port))
        b_stack = stack.enter_context(contextlib.ExitStack())
        b = b_stack.enter_context(deployed(1, env=shared, name="deployment-two-hosts-b",
                                           listen=b_port))
        host_of, routes = stack.enter_context(front_proxy(front_port, [f"127.0.0.1:{a_port}",
                                                               f"127.0.0.1:{b_port}"]))
        # the lecturer's browser holds a sticky cookie the front sends to host A
        cookie = next(c for c in (secrets.token_hex(16) for _ in range(200))
                      if host_of(c) == f"127.0.0.1:{a_port}")
        lecturer_context = browser.new_context(viewport=PROJECTOR)
        stack.callback(lecturer_context.close)
        lecturer_context.add_cookies([{"name": "stlab_backend", "value": cookie, "url": front}])
        lecturer = lecturer_context.new_page()
        lecturer.set_default_timeout(timeout_ms(25_000))
        lecturer.on("pageerror", lambda error: errors.append(str(error)))
        pages = {"lecturer": lecturer}
        try:
            _journey(browser, stack, b_stack, pages, a, b, front, shared, b_port, errors)
        except BaseException:
            ARTIFACTS.mkdir(exist_ok=True)
            for name, page in pages.items():
                with contextlib.suppress(Exception):
                    page.screenshot(path=ARTIFACTS / f"two_hosts_failed_{name}.png")
            raise
        # the lecturer's page went through the front to host A alone, its page and its
        # class's requests alike, while B went down and came back
        sent = routes(cookie)
        assert any(path.startswith("/class/") for _, path in sent), sent
        assert {host for host, _ in sent} == {f"127.0.0.1:{a_port}"}, sent
    assert errors == []


def _journey(browser, stack, b_stack, pages, a, b, front, shared, b_port, errors) -> None:
    lecturer = pages["lecturer"]
    lecturer.goto(f"{front}/?lecture=1")
    wait_idle(lecturer)
    lecturer.get_by_role("button", name="Lecture notes' example").press("Enter")
    settle(lecturer, 600)
    wait_status(lecturer, "Step 0 / 20")
    sidebar(lecturer).get_by_role("button", name="Start a class").click()
    settle(lecturer, 500)
    wait_strip(lecturer, r"Class [A-Z0-9]{4}-[A-Z0-9]{4}")
    code = "".join(re.search(r"Class (\w{4})-(\w{4})", strip(lecturer)).group(1, 2))
    display = f"{code[:4]}-{code[4:]}"
    # the card's link is the front's (PUBLIC_URL), the follower page's
    link = lecturer.get_by_test_id("stCode").first.inner_text().strip()
    assert link.startswith(f"{front}/follow?class={code}&ticket=")
    lecturer.get_by_role("button", name="Hide the code").click()
    settle(lecturer, 500)
    collapse(lecturer)
    press(lecturer, "ArrowRight", 2)

    # ---- a phone on each host, each at its own host's address
    a_context, on_a = phone_on(browser, f"{a.url}/follow?class={code}", errors)
    stack.callback(a_context.close)
    b_context, on_b = phone_on(browser, f"{b.url}/follow?class={code}", errors)
    stack.callback(b_context.close)
    pages.update(on_a=on_a, on_b=on_b)
    for phone in (on_a, on_b):
        following(phone, display)
        ready(phone)
    assert same_status(lecturer, on_a, on_b).startswith("Step 2 / 20")
    wait_strip(lecturer, "2 following")
    press(lecturer, "ArrowRight", 3)
    assert same_status(lecturer, on_a, on_b).startswith("Step 5 / 20")

    # ---- a question: both phones answer, the lecturer's strip counts both
    lecturer.get_by_role("button", name="Ask: mistake or not?").click()
    for phone in (on_a, on_b):
        quiz = phone.locator(".pl-quiz")
        quiz.get_by_role("button", name="Mistake", exact=True).tap()
        quiz.get_by_text("The room's answers show when").wait_for()
    wait_strip(lecturer, "2 answers from 2 following")
    lecturer.get_by_role("button", name="Reveal the answers").click()
    for phone in (on_a, on_b):
        phone.locator(".pl-class-bars").wait_for()
    lecturer.get_by_role("button", name="Close the question").click()
    settle(lecturer, 400)
    # (the question's reveal showed its step: the class is where the lecturer's page says)
    step = int(re.match(r"Step (\d+) / 20", same_status(lecturer, on_a, on_b)).group(1))

    # ---- host B goes down at once; the class goes on on host A
    b.crash()
    b_stack.close()  # nothing of it is left (the harness checks), its logs kept
    wait_strip(on_b, f"The class {display} is reconnecting")
    on_b.locator(".pl-class").scroll_into_view_if_needed()
    on_b.screenshot(path=ARTIFACTS / "two_hosts_phone_b_down.png")
    press(lecturer, "ArrowRight", 4)
    assert same_status(lecturer, on_a).startswith(f"Step {step + 4} / 20")
    following(on_a, display)

    # ---- host B comes back where it was: its phone follows again, at the class's step
    on_b.set_default_timeout(timeout_ms(60_000))  # its stream's retries back off meanwhile
    stack.enter_context(deployed(1, env=shared, name="deployment-two-hosts-b-again",
                                 listen=b_port, ports=b.ports))
    following(on_b, display)
    assert same_status(lecturer, on_a, on_b).startswith(f"Step {step + 4} / 20")
    press(lecturer, "ArrowRight")
    assert same_status(lecturer, on_a, on_b).startswith(f"Step {step + 5} / 20")
    wait_strip(lecturer, "2 following")
    on_b.locator(".pl-class").scroll_into_view_if_needed()
    on_b.screenshot(path=ARTIFACTS / "two_hosts_phone_b_back.png")
