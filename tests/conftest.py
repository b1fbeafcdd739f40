"""Test-wide settings."""

import pytest
from hypothesis import settings
from streamlit import config, net_util

from testkit.classroom import make_store, redis_url  # noqa: F401 (a store of each kind)
from ui import first_screen, rest_later

# The app's config hides error details from students (client.showErrorDetails =
# "none"); a failing AppTest should still say what went wrong.
config.set_option("client.showErrorDetails", "full")

# No test asks the system for this computer's network address (ui/room_link.py's join link):
# Streamlit's answer is cached here as "none but loopback"; a test that needs one injects it.
net_util._internal_ip = "127.0.0.1"

# Timings are measured in bench/, not asserted: Hypothesis's per-example deadline fails a
# property on a loaded machine (a 2-core CI running two workers and a browser) for no fault of
# the code, so the suite runs without it.
settings.register_profile("suite", deadline=None)
settings.load_profile("suite")


@pytest.fixture(autouse=True)
def whole_pages(request, monkeypatch):
    """A page's first run on a projector ends at its picture until the browser, having drawn it,
    asks for the rest (ui.rest_later). AppTest has no browser to ask: its pages are whole, but
    in the tests of that first run (marked rest_later)."""
    if "rest_later" not in request.keywords:
        monkeypatch.setattr(rest_later, "pending", lambda page: False)
    # so is a student's page that opens a class's link (its first run the view's first screen
    # when another page of this process drew it: ui.first_screen), but in the tests of that
    # first screen (marked first_screen), which start with none kept
    if "first_screen" in request.keywords:
        first_screen.forget()
    else:
        monkeypatch.setattr(first_screen, "take", lambda view, lecture: None)


# Journeys that spend most of their time waiting, not computing (an outage held for a minute,
# Redis down for 30 s, a network's silence): first in the run, so that the rest of the suite,
# which keeps the machine's cores busy, runs beside them, and none of them begins last with
# its worker alone at the end of the run.
WAITING = ("test_class_faults.py", "test_class_network.py", "test_class_redis.py",
           "test_class_journey.py", "test_class_hall.py", "test_class_remote.py")


def pytest_collection_modifyitems(items):
    items.sort(key=lambda item: item.path.name not in WAITING)  # (stable: else as collected)
