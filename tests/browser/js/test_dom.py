"""ui/stepper_assets/dom.js: the element helper the stepper and the class strip share: its
attributes set, its text set as text (never parsed as HTML), in its parent."""

from __future__ import annotations

import pytest

from tests.browser.js.conftest import open_class_page

pytestmark = pytest.mark.browser

MAKE = """() => {
  document.body.replaceChildren();
  const box = (window.pl ?? window.cls).html("div", { class: "box", "data-x": "1" }, document.body);
  const label = (window.pl ?? window.cls).html("span", { role: "status" }, box,
                                              "<b>Class</b> & \\"x\\"");
  const bare = (window.pl ?? window.cls).html("p");
  return { parent: box.parentElement === document.body, cls: box.className,
           x: box.dataset.x, role: label.getAttribute("role"), text: label.textContent,
           bold: document.querySelectorAll("b").length, inside: label.parentElement === box,
           bare: bare.parentElement === null && bare.textContent === "" };
}"""
EXPECTED = {"parent": True, "cls": "box", "x": "1", "role": "status",
            "text": '<b>Class</b> & "x"', "bold": 0, "inside": True, "bare": True}


def test_the_stepper_makes_elements_with_their_text_as_text(js):
    assert js.evaluate(MAKE) == EXPECTED


def test_the_class_strip_has_the_same_helper(browser):
    page = open_class_page(browser)
    try:
        assert page.evaluate(MAKE) == EXPECTED
    finally:
        page.context.close()
