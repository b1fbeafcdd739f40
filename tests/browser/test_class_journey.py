"""A class in real Chromium on one server: a lecturer's projector, a phone and a laptop."""

from __future__ import annotations

import pytest

from testkit.class_journey import journey
from tests.browser.conftest import ARTIFACTS

pytestmark = pytest.mark.browser


def test_a_class_follows_explores_answers_and_ends(browser, server_url):
    ARTIFACTS.mkdir(exist_ok=True)
    journey(browser, server_url, server_url, shots=str(ARTIFACTS))
