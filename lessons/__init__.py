"""The lessons, in the order the navigation lists them: one package each.

A lesson is a package whose ``page()`` draws it: ``lessons/margin/__init__.py``
holds the page, ``lessons/margin/parts.py`` its settings and parts. The
navigation calls ``page()`` at the lesson's own address, /<name> (the first
lesson also at /), which links, bookmarks and the browser tests use. A lesson
is imported when its page first opens, as a page script was run then.
"""

from __future__ import annotations

import contextlib
import functools
import importlib

import streamlit as st

from ui import first_screen
from ui.lesson import PageEnds
from ui.settings import LINKED
from ui.url_state import LINK_OWN

# name (the lesson's package and its address) -> (title, icon), in the navigation's order
LESSONS = {
    "step_through": ("Step through", ":material/footprint:"),
    "margin": ("Margin and the mistake bound", ":material/straighten:"),
    "boolean": ("Boolean functions and XOR", ":material/memory:"),
    "nonseparable": ("Non-separable data", ":material/autorenew:"),
    "svm": ("Perceptron vs SVM", ":material/compare_arrows:"),
    "variants": ("Variants", ":material/call_split:"),
    "your_data": ("Your data", ":material/edit_location_alt:"),
}
FIRST = next(iter(LESSONS))  # the one at / too


def page(name: str) -> st.Page:
    """The navigation's page of the lesson ``name``: its package's ``page()`` at /<name>."""
    title, icon = LESSONS[name]

    def draw() -> None:
        if not first_screen.replayed():  # (a class's first screen: its script with its rest)
            with contextlib.suppress(PageEnds):  # (what comes after the page is drawn)
                importlib.import_module(f"{__name__}.{name}").page()

    return st.Page(draw, title=title, icon=icon, url_path=name, default=name == FIRST)


@functools.cache
def link_parameters() -> frozenset[str]:
    """Every parameter the app's links hold: each lesson's settings, the data and the step.

    A lesson declares its settings in its ``parts`` module, imported here for every lesson
    (a page not opened yet in this process has its parameters too).
    """
    for name in LESSONS:
        importlib.import_module(f"{__name__}.{name}.parts")
    return frozenset(LINKED | LINK_OWN)


def pages() -> list[st.Page]:
    """Every lesson's page, in order, for ``st.navigation``."""
    return [page(name) for name in LESSONS]


def link(name: str, label: str, icon: str, where=None) -> None:
    """A link to the lesson ``name`` (drawn in ``where``, a container, or in place)."""
    (st if where is None else where).page_link(page(name), label=label, icon=icon)
