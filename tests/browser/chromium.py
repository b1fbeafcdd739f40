"""Find a Chromium on this machine and how to start it; as a script, print its path or exit 1.

The browser tests and the browser benchmarks (bench/) both start Chromium this way.
"""

from __future__ import annotations

import os
import shutil
import socket
import sys

# Without the background-networking flags Chromium keeps dialling out, which this
# machine's closed network refuses; --no-sandbox because tests run as root.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run",
                 "--disable-dev-shm-usage"]

CANDIDATES = ("/usr/lib/chromium/chromium", "/usr/bin/chromium", "chromium",
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
