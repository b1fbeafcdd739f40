"""Find a Chromium on this machine and how to start it; as a script, print its path or exit 1.

The browser tests and the browser benchmarks (bench/) both start Chromium this way.
"""

from __future__ import annotations

import os
import shutil
import socket
import sys

# Without the background-networking flags Chromium keeps dialling out, which this
# machine's closed network refuses; --no-sandbox because tests run as root. The headless
# shell hints its fonts to whole pixels unless told not to: its text would then be a pixel or
# two wider or narrower than the whole browser's, and a layout checked in one would not be the
# other's.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run",
                 "--disable-dev-shm-usage", "--font-render-hinting=none"]

# Chromium's headless shell first: the same Blink and V8 without the browser's own UI, it
# opens a lesson on about three quarters of the CPU the whole browser takes (bench/README.md, "The
# test suite"), and nothing here runs a browser with a window
CANDIDATES = ("/usr/lib/chromium/chromium-headless-shell", "chromium-headless-shell",
              "/usr/lib/chromium/chromium", "/usr/bin/chromium", "chromium",
              "chromium-browser", "google-chrome")


def system_chromium() -> str | None:
    """The machine's Chromium, or None (then Playwright's own download is used)."""
    for name in CANDIDATES:
        path = shutil.which(name) or (name if os.path.isfile(name) else None)
        if path:
            return path
    return None


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def playwright_chromium() -> str | None:
    """Playwright's downloaded Chromium, if one is installed."""
    try:
        from playwright.sync_api import sync_playwright

        with sync_playwright() as playwright:
            path = playwright.chromium.executable_path
        return path if os.path.isfile(path) else None
    except Exception:  # no playwright, or no browser for it
        return None


if __name__ == "__main__":
    found = system_chromium() or playwright_chromium()
    if not found:
        sys.exit(1)
    print(found)
