"""A phone as the lecturer's remote: a one-time link gives it a key of its own; its presses
move the projector and the room; the link works once and never stays in an address. A
lecturer's tab that reloads leads its class again."""

from __future__ import annotations

import re

import pytest

from testkit.class_journey import (
    LAPTOP,
    PHONE,
    PROJECTOR,
    class_key,
    open_page,
    press,
    same_status,
    sidebar,
    strip,
    wait_strip,
)
from testkit.stepper import ready, wait_status
from tests.browser.conftest import settle, wait_idle

pytestmark = pytest.mark.browser


def test_a_phone_drives_the_class_through_a_one_time_link(browser, server_url):
    errors: list[str] = []
    contexts = []
    try:
        context, projector = open_page(browser, f"{server_url}/?lecture=1", PROJECTOR, errors)
        contexts.append(context)
        projector.get_by_role("button", name="Lecture notes' example").press("Enter")
        settle(projector, 500)
        wait_status(projector, "Step 0 / 20")  # (before the next click: class_journey)
        sidebar(projector).get_by_role("button", name="Start a class").click()
        settle(projector, 500)
        wait_strip(projector, r"Class \w{4}-\w{4}")
        code = "".join(re.search(r"Class (\w{4})-(\w{4})", strip(projector)).group(1, 2))
        sidebar(projector).get_by_role("button", name="Phone as a remote").click()
        settle(projector, 500)
        link = sidebar(projector).get_by_test_id("stCode").inner_text().strip()
        assert re.fullmatch(rf"{server_url}/\?class={code}&remote=[\w-]{{32}}", link)

        context, remote = open_page(browser, link, PHONE, errors)
        contexts.append(context)
        remote.wait_for_function("() => !new URLSearchParams(location.search).has('remote')")
        wait_strip(remote, f"Class {code[:4]}-{code[4:]}")  # a lecturer's strip
        remote_key = class_key(remote)
        assert remote_key and remote_key != class_key(projector)
        ready(remote)
        context, student = open_page(browser, f"{server_url}/?class={code}", LAPTOP, errors)
        contexts.append(context)
        ready(student)

        # the phone's presses move the projector and the room, and the projector's the phone
        press(remote, "ArrowRight", 3)
        wait_status(remote, "Step 3 / 20")
        same_status(remote, projector, student)
        press(projector, "ArrowRight")
        wait_status(projector, "Step 4 / 20")
        same_status(projector, remote, student)
        wait_strip(projector, "1 following · 0 exploring")  # the phone is not a student

        # a reload of the projector's tab (or the phone's) takes its class back, twice over
        for page in (projector, projector, remote):
            page.reload()
            wait_idle(page)
            # (on the projector the link is said to a screen reader only, on a line of its own)
            wait_strip(page, rf"Class {code[:4]}-{code[4:]}\s*· join at")
            ready(page)
            assert "class=" not in page.url  # a lecturer's address holds no class
        assert class_key(remote) == remote_key
        press(projector, "ArrowRight")
        same_status(projector, remote, student)

        # the link was spent: opened again, it gives no key, and says so
        context, again = open_page(browser, link, PHONE, errors)
        contexts.append(context)
        wait_strip(again, "Following the class")  # as a student
        assert class_key(again) is None
        # (said in the sidebar, which comes with the page's rest: ui.first_screen)
        sidebar(again).get_by_text("used already", exact=False).wait_for(state="attached")
        assert "used already" in sidebar(again).inner_text()
        assert not errors, errors
    finally:
        for context in contexts:
            context.close()
