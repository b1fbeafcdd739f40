"""Find a Chromium on this machine; run as a script it prints the path or exits 1."""

from __future__ import annotations

import os
import shutil
import sys

CANDIDATES = ("/usr/lib/chromium/chromium", "/usr/bin/chromium", "chromium",
              "chromium-browser", "google-chrome")


def system_chromium() -> str | None:
    """The machine's Chromium, or None (then Playwright's own download is used)."""
    for name in CANDIDATES:
        path = shutil.which(name) or (name if os.path.isfile(name) else None)
        if path:
            return path
    return None


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
