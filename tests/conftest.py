"""Test-wide settings."""

from streamlit import config

# The app's config hides error details from students (client.showErrorDetails =
# "none"); a failing AppTest should still say what went wrong.
config.set_option("client.showErrorDetails", "full")
