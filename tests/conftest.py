"""Test-wide settings."""

from hypothesis import settings
from streamlit import config, net_util

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
