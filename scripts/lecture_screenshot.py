"""The README's picture of a lecture: the notes' lecture on a projector at slide 5, its line
question asked, five phones' lines drawn over the plane, then the reveal with the true
boundary and how many were close (docs/screenshots/lecture_lines.png).

    python scripts/lecture_screenshot.py [--out docs/screenshots]

Starts its own server and a headless Chromium, gives the lecture as a lecturer would (the
sidebar's Start a class, then PageDown), and has five phones join by the class's link and
send a line each by typing its two points. Everything it starts, it stops.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from testkit.browser import wait_drawn, wait_idle  # noqa: E402
from testkit.chromium import CHROMIUM_ARGS, system_chromium  # noqa: E402
from testkit.class_journey import PROJECTOR, start_class, wait_strip  # noqa: E402
from testkit.servers import streamlit_server  # noqa: E402

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
# the room's answers to "Draw the boundary after this first update" (the truth: w = (0.1,
# -0.1), b = -0.2, the line x₂ = x₁ - 2): three near it, two far
LINES = [("1.7, -0.3", "2.8, 0.8"), ("1.6, -0.3", "2.8, 0.9"), ("1.9, -0.3", "2.8, 0.5"),
         ("1.0, -0.3", "2.8, 1.5"), ("0.2, -0.3", "2.8, 2.3")]


def give(browser, url: str, out: Path) -> None:
    projector = browser.new_context(viewport=PROJECTOR).new_page()
    projector.goto(f"{url}/?plan=notes&lecture=1")
    wait_drawn(projector)
    code = start_class(projector)
    for n in range(2, 6):  # to slide 5, the worked example's first visit
        projector.keyboard.press("PageDown")
        projector.wait_for_function(
            "(n) => document.querySelector('.pl-slide-bar .pl-slide-text')?.textContent"
            ".startsWith(`slide ${n} /`)", arg=n)
        wait_idle(projector)
    phones = []
    for _ in LINES:
        phone = browser.new_context(**PHONE).new_page()
        phone.goto(f"{url}/?class={code}")
        wait_idle(phone)
        wait_strip(phone, "Following the class")
        phones.append(phone)
    wait_strip(projector, f"{len(LINES)} following")
    projector.locator(".pl-class-more > summary").click()
    projector.locator(".pl-class-more").get_by_role(
        "button", name=re.compile("Ask: Draw the boundary")).click()
    for phone, (first, second) in zip(phones, LINES, strict=True):
        wait_strip(phone, "Draw the boundary after this first update")
        phone.get_by_label("First point").fill(first)
        phone.get_by_label("Second point").fill(second)
        phone.get_by_role("button", name="Send this line").tap()
        wait_strip(phone, "Your answer: the line through")
    projector.wait_for_function(
        "(n) => document.querySelectorAll('svg.pl-class-lines .pl-line-room').length === n",
        arg=len(LINES))
    projector.get_by_role("button", name="Reveal the answers").click()
    wait_strip(projector, "lines close")
    projector.wait_for_timeout(500)
    out.mkdir(parents=True, exist_ok=True)
    projector.screenshot(path=out / "lecture_lines.png")
    print(out / "lecture_lines.png")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    args = parser.parse_args()
    with streamlit_server(name="lecture-shot") as (url, _), sync_playwright() as p:
        browser = p.chromium.launch(executable_path=system_chromium(), args=CHROMIUM_ARGS)
        try:
            give(browser, url, args.out)
        finally:
            browser.close()


if __name__ == "__main__":
    main()
