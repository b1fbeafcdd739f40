"""A view as a class holds it: a page's query string without the private parameters, with
its lesson; encoded and decoded as the class keeps it."""

from __future__ import annotations

from urllib.parse import parse_qsl, quote

import streamlit as st

from classroom.state import NEVER_VIEWED

LESSON = "lesson"  # the view's name for the page (its url path; none for the first page)
# never part of a view: the class's own parameters, Streamlit's own, the step (it travels on
# its own), and lecture mode (each screen's own: a phone does not want a projector's type)
NOT_VIEW = NEVER_VIEWED | {"step", "t", "lecture"}


def encode_view(view: dict[str, str]) -> str:
    """A view as the class keeps it: its parameters sorted, each value percent-encoded.

    >>> encode_view({"lesson": "margin", "eta": "0.5", "pts": "1,-0.5,+;2,1,-"})
    'eta=0.5&lesson=margin&pts=1,-0.5,%2B;2,1,-'
    """
    return "&".join(f"{quote(k, safe='')}={quote(v, safe=',;-._~')}"
                    for k, v in sorted(view.items()))


def decode_view(text: str) -> dict[str, str]:
    """The inverse of :func:`encode_view` (a view from the class: no private parameter).

    >>> decode_view("eta=0.5&lesson=margin&pts=1,-0.5,%2B;2,1,-")["pts"]
    '1,-0.5,+;2,1,-'
    """
    return {k: v for k, v in parse_qsl(text, keep_blank_values=True)
            if k.lower() not in NOT_VIEW}


def owned(view: dict[str, str], parameters: frozenset[str] | None) -> dict[str, str]:
    """The view without the parameters the app does not own (``parameters``: those it owns,
    lessons.link_parameters(); None keeps every one).

    >>> owned({"lesson": "margin", "eta": "2", "utm_source": "mail"}, frozenset({"eta"}))
    {'lesson': 'margin', 'eta': '2'}
    """
    if parameters is None:
        return dict(view)
    return {k: v for k, v in view.items() if k == LESSON or k in parameters}


def view_of(params: dict[str, str], lesson: str,
            parameters: frozenset[str] | None = None) -> dict[str, str]:
    """The view of a page: its query parameters but the private ones (and those the app does
    not own, ``parameters`` as in :func:`owned`), and its lesson.

    >>> view_of({"data": "xor", "step": "4", "class": "ABCDEFGH", "lecture": "1"}, "margin")
    {'data': 'xor', 'lesson': 'margin'}
    """
    view = {k: v for k, v in params.items() if k.lower() not in NOT_VIEW}
    if lesson:
        view[LESSON] = lesson
    return owned(view, parameters)


def _current_view(page, parameters) -> dict[str, str]:
    return view_of(st.query_params.to_dict(), page.url_path, parameters and parameters())
