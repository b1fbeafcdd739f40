"""The class journey across two Streamlit processes that share a real redis-server: the
lecturer's page on one, the students' pages on the other (as behind deploy/nginx.conf,
where a lecturer and a student are usually stuck to different processes)."""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Iterator

import pytest

from testkit.class_journey import journey
from testkit.classroom import redis_server
from testkit.servers import streamlit_server
from tests.browser.conftest import ARTIFACTS, SLOWNESS

pytestmark = pytest.mark.browser
REDIS_PASSWORD = secrets.token_hex(16)
SECRET = secrets.token_hex(32)


@contextlib.contextmanager
def streamlit_process(redis_url: str, name: str) -> Iterator[str]:
    """`streamlit run app.py` on a free port with classes in Redis (behind its password) and
    the class secret every process shares, as deploy/run.sh starts them; its address."""
    ARTIFACTS.mkdir(exist_ok=True)
    env = {"PERCEPTRON_LAB_REDIS": redis_url, "PERCEPTRON_LAB_REDIS_PASSWORD": REDIS_PASSWORD,
           "PERCEPTRON_LAB_SECRET": SECRET}
    with streamlit_server(env=env, log=ARTIFACTS / f"server_{name}.log",
                          timeout=60 * SLOWNESS) as (url, _):
        yield url


def test_a_class_led_on_one_process_is_followed_on_another(browser):
    with redis_server(password=REDIS_PASSWORD) as redis_url, \
            streamlit_process(redis_url, "lecturer") as lecturer_url, \
            streamlit_process(redis_url, "students") as student_url:
        journey(browser, lecturer_url, student_url)
