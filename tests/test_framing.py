"""The app in a course site's frame: only where the operator names the site, and then the
voter cookie is one a framed page is sent (the browser journey: browser/test_class_framed.py)."""

from __future__ import annotations

import os
import subprocess

import pytest
from starlette.requests import Request

from classroom.http import FRAME_ANCESTORS, voter_cookie
from tests.apptest import ROOT


def request(url: str, forwarded: str | None = None) -> Request:
    scheme, rest = url.split("://")
    host, _, path = rest.partition("/")
    headers = [(b"host", host.encode())]
    if forwarded:
        headers.append((b"x-forwarded-proto", forwarded.encode()))
    return Request({"type": "http", "scheme": scheme, "server": (host.split(":")[0], 80),
                    "path": "/" + path, "headers": headers, "query_string": b""})


def test_the_voter_cookie_is_strict_unless_course_sites_may_frame_the_app(monkeypatch):
    monkeypatch.delenv(FRAME_ANCESTORS, raising=False)
    assert "SameSite=Strict" in voter_cookie(request("http://10.0.0.5:8501/class/X"), "t", 9)
    assert voter_cookie(request("https://lab.example.edu/class/X"), "t", 9).endswith(
        "SameSite=Strict; Secure")
    monkeypatch.setenv(FRAME_ANCESTORS, "https://moodle.example.edu")
    for url, forwarded in (("https://lab.example.edu/class/X", None),
                           ("http://lab.example.edu/class/X", "https"),  # TLS ends at a proxy
                           ("http://127.0.0.1:8501/class/X", None)):  # Chromium: secure
        cookie = voter_cookie(request(url, forwarded), "t", 9)
        assert cookie.endswith("HttpOnly; SameSite=None; Secure; Partitioned"), cookie
    # plain http to another host cannot keep a Secure cookie: the safe default stays
    assert "SameSite=Strict" in voter_cookie(request("http://10.0.0.5:8501/class/X"), "t", 9)


@pytest.mark.parametrize("sites", ["https://a.edu;frame-ancestors *", "https://a.edu 'self'",
                                   "*", "javascript:alert(1)"])
def test_run_sh_refuses_a_framing_site_that_is_not_one(sites):
    env = {**os.environ, "FRAME_ANCESTORS": sites, "PROCESSES": "1"}
    done = subprocess.run(["bash", "deploy/run.sh"], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=30)
    assert done.returncode == 2 and "is not a site like" in done.stderr
