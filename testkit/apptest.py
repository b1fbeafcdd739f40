"""Streamlit's AppTest driven as a link would: the helpers the page tests (tests/apptest.py)
and the benchmarks that open pages without a browser (bench/) share."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest
from streamlit.util import calc_hash


def switch(at: AppTest, page: str) -> AppTest:
    """Go to the lesson at the address /<page> on the next run, as a link to it does.

    A lesson's page is known by its address (its ``url_path``) alone, which Streamlit hashes
    into the page's id; a browser's link asks for that id, before the app's first run too.
    ``AppTest.switch_page`` finds a page by its file instead, and a lesson is a function.
    """
    known = at._registered_pages  # the pages of the last run (none before the first)
    if known and calc_hash(page) not in known:
        raise ValueError(f"no lesson at /{page}")
    at._page_hash = calc_hash(page)
    return at


def components(at: AppTest, name: str) -> list:
    """The page's components of this name (``perceptron_lab.<name>``)."""
    return [node for node in at.get("bidi_component")
            if node.proto.component_name == f"perceptron_lab.{name}"]


def steppers(at: AppTest) -> list:
    """The page's stepper components (its other components, the class's, carry no run)."""
    return components(at, "stepper")


def stepper_element(at: AppTest, key: str):
    """The stepper component with this key (its proto holds the packed run)."""
    for node in steppers(at):
        if node.proto.id.endswith(f"-{key}"):
            return node
    raise KeyError(f"no stepper {key!r}")
