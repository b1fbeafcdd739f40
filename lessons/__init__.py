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

from classroom.plan import LessonViews
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
# the lessons that draw their own data, not the shared sidebar's (Lesson(..., shared=False), or
# no data picker of the shared kind)
UNSHARED = frozenset({"boolean"})


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


def plan_catalogue() -> dict[str, LessonViews]:
    """What a lecture plan's slide may hold on each lesson (classroom.plan.Catalogue): the
    parameters each lesson's link reads, each with the function that reads its value (its
    Setting's parse; the data set's slug, the points, the class names), and the parts a
    view may pick (``part=``). The first lesson is a view's without ``lesson=``."""
    from ui.lesson import PART
    from ui.settings import SHARED
    from ui.url_state import DATA_SLUGS, decode_names, decode_points

    def data(value: str) -> None:
        if value not in DATA_SLUGS:
            raise ValueError("unknown data set")

    own_data = {"data": data, "pts": lambda v: decode_points(v, None), "cls": decode_names}
    out = {}
    for name in LESSONS:
        parts = importlib.import_module(f"{__name__}.{name}.parts")
        readers = {s.param: s.parse for s in getattr(parts, "SETTINGS", ()) if s.param}
        if name not in UNSHARED:  # the shared sidebar: data and training
            readers.update({s.param: s.parse for s in SHARED if s.param})
            readers.update(own_data)
        picked = parts.PARTS.names if parts.PARTS.pick else ()
        if picked:
            readers[PART] = None
        out[name] = LessonViews(readers, picked)
    return out


def pages() -> list[st.Page]:
    """Every lesson's page, in order, for ``st.navigation``."""
    return [page(name) for name in LESSONS]


def link(name: str, label: str, icon: str, where=None) -> None:
    """A link to the lesson ``name`` (drawn in ``where``, a container, or in place)."""
    (st if where is None else where).page_link(page(name), label=label, icon=icon)
