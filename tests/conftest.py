"""Test-wide settings."""

from streamlit import config, net_util

# The app's config hides error details from students (client.showErrorDetails =
# "none"); a failing AppTest should still say what went wrong.
config.set_option("client.showErrorDetails", "full")

# No test asks the system for this computer's network address (ui/room_link.py's join link):
# Streamlit's answer is cached here as "none but loopback"; a test that needs one injects it.
net_util._internal_ip = "127.0.0.1"
