"""ui/classroom_assets/work.js: the proof of work a student's page makes once for its identity,
checked by the server's own check (classroom/codes.py: work_ok) and its PBKDF2 against
Python's hashlib (an independent implementation)."""

from __future__ import annotations

import hashlib

import pytest

from classroom import codes
from tests.browser.js.conftest import open_class_page

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def page(browser):
    page = open_class_page(browser)
    yield page
    page.context.close()


def test_the_pages_own_pbkdf2_is_hashlibs(page):
    for password, salt, iterations in (("a:0", "plab-voter-work", 1), ("x" * 70, "s", 3),
                                       ("AAAAAAAAAAAAAAAAAAAAAAAA:12345", "plab-voter-work", 50)):
        got = page.evaluate("""([p, s, n]) => Array.from(cls.pbkdf2(
            new TextEncoder().encode(p), new TextEncoder().encode(s), n))""",
                            [password, salt, iterations])
        assert bytes(got) == hashlib.pbkdf2_hmac("sha256", password.encode(), salt.encode(),
                                                 iterations, 32)


@pytest.mark.parametrize("webcrypto", [True, False])
def test_a_pages_proof_is_one_the_server_takes(page, webcrypto):
    # the made-up origin is http://, which is no secure context: WebCrypto is there only on
    # loopback and https; the JavaScript PBKDF2 stands in where it is not
    work = {"bits": 6, "iterations": 20, "salt": codes.WORK_SALT.decode()}
    proof = page.evaluate("([work, webcrypto]) => cls.prove(work, webcrypto ? "
                          "globalThis.crypto?.subtle : null)", [work, webcrypto])
    assert codes.work_ok(proof["stamp"], proof["nonce"], 6, 20)
    # the first nonce that proves it (the page tries 0, 1, 2, ...): none before it does
    assert not any(codes.work_ok(proof["stamp"], nonce, 6, 20) for nonce in range(proof["nonce"]))
