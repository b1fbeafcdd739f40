"""A slide opened: a link's plan (``?plan=``) on its first slide, a slide asked for (a key,
Next, a remote's) as a fresh link to its view at its step, the next slide's address for the
page to prepare, and the lecture stopped. app.py calls :func:`begin` before the page and
:func:`after` after it."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

import streamlit as st

from classroom import plan as plans
from ui.lecture import lecture_mode
from ui.lecture_plan.reading import _CATALOGUE, _from_link, _message, _notices, _slides
from ui.lecture_plan.remote import _from_class, _lent, _share_with_class, _take_back
from ui.lecture_plan.session import (
    ASKED,
    AT,
    GO,
    GO_AHEAD,
    MOUNTED,
    PLAN,
    PREPARE,
    PREPARING,
    PROBLEM,
    WHOLE,
)


def begin(pages: Sequence, page, parameters: Callable[[], frozenset[str]],
          catalogue: Callable[[], object]) -> None:
    """Before the page (app.py): a link's plan is opened on its first slide; a slide asked for
    (a key, Next, a remote's) is opened: the session takes its view as a fresh link, at its
    step (switching lesson if need be). ``catalogue``: lessons.plan_catalogue."""
    if not _CATALOGUE:
        _CATALOGUE.append(catalogue)
    value = st.query_params.get("plan")
    if value == PREPARE:  # the projector's page preparing the next slide (prepare_link)
        from ui.classroom.session import ahead

        st.query_params.pop("plan", None)
        st.session_state[PREPARING] = True
        ahead()
    elif value is not None:
        st.query_params.pop("plan", None)  # a plan is opened once, never kept in the address
        try:
            plan, notices = _from_link(value)
        except plans.PlanError as refused:
            st.session_state[PROBLEM] = (f"The link's plan was not opened: {_message(refused)}."
                                         " The plan in progress stays.")
        else:
            _stop()
            st.session_state.update({PLAN: plan, GO: 0, ASKED: True})
            _notices(notices, "The link's plan opened, but")
    _from_class()
    go, ahead = st.session_state.pop(GO, None), st.session_state.pop(GO_AHEAD, None)
    plan = st.session_state.get(PLAN)
    if go is not None and plan is not None and 0 <= go < len(_slides(plan)):
        _open(plan, go, pages, page, parameters, ahead)


def _target(slide, pages: Sequence, parameters) -> tuple[object, dict[str, str]]:
    """The page a slide opens and its link's parameters (its view, its step)."""
    from ui import classroom  # (it imports the page's lessons' world: not at import time)

    view = classroom.owned(classroom.decode_view(slide.view), parameters())
    by_path = {p.url_path: p for p in pages}
    target = by_path.get(view.pop(classroom.LESSON, ""), pages[0])
    params = dict(view)
    if slide.step:
        params["step"] = str(slide.step)
    return target, params


def prepare_link(slide, pages: Sequence, parameters) -> str:
    """The address, relative to the page's own, that opens ``slide`` on a projector ahead of
    time (plan.js opens it in a hidden frame): the server computes its run, which its cache
    keeps for the switch (``st.cache_data``, shared by every session), and the browser
    has its page's files.

    >>> from types import SimpleNamespace as S
    >>> pages = [S(url_path=""), S(url_path="margin")]
    >>> prepare_link(S(view="eta=2&lesson=margin", step=3), pages, lambda: frozenset({"eta"}))
    'margin?eta=2&step=3&lecture=1&plan=prepare'
    """
    from urllib.parse import urlencode

    target, params = _target(slide, pages, parameters)
    query = urlencode({**params, "lecture": "1", "plan": PREPARE}, safe=",;~")
    return f"{target.url_path or '.'}?{query}" if target.url_path else f"./?{query}"


def _open(plan, at: int, pages: Sequence, page, parameters, ahead=None) -> None:
    """Open slide ``at`` (``ahead``: what its page prepared ahead offered, sent by the key)."""
    from ui import classroom

    slide = _slides(plan)[at]
    target, params = _target(slide, pages, parameters)
    if lecture_mode() or st.query_params.get("lecture") == "1":  # (a link's, not read yet)
        params["lecture"] = "1"
    classroom.reset_session()
    st.session_state[AT] = at
    _share_with_class()
    if _is_slide(ahead, target, params):  # the class hears it now, with its run kept
        classroom.give_ahead(ahead, slide.step or 0, parameters)
    st.session_state["plan.opened"] = time.monotonic()
    if target.url_path != page.url_path:
        st.switch_page(target, query_params=params)
    st.query_params.from_dict(params)


_DATA = ("data", "dseed", "pts", "n")  # the parameters that say which points a view shows


def _is_slide(ahead: object, target, params: dict[str, str]) -> bool:
    """Whether a prepared page's offer (``ahead``: {view, run}) is of the slide about to open:
    its lesson, and every parameter of the slide's link that it holds as the link has it (a
    page drops its defaults from its address, never its data), as plan.js's ``holds`` checks
    the page it shows.

    >>> from types import SimpleNamespace as S
    >>> _is_slide({"view": "eta=2&lesson=margin&n=9", "run": "x"}, S(url_path="margin"),
    ...           {"eta": "2", "step": "3", "lecture": "1"})
    True
    >>> _is_slide({"view": "eta=1&lesson=margin", "run": "x"}, S(url_path="margin"), {"eta": "2"})
    False
    >>> _is_slide({"view": "eta=2", "run": "x"}, S(url_path="margin"), {"eta": "2"})
    False
    >>> _is_slide({"view": "lesson=margin", "run": "x"}, S(url_path="margin"), {"data": "xor"})
    False
    """
    from ui import classroom

    if not isinstance(ahead, dict) or not isinstance(ahead.get("view"), str):
        return False
    view = classroom.decode_view(ahead["view"])
    if view.pop(classroom.LESSON, "") != target.url_path:
        return False
    return all(view.get(name, value) == value and (name in view or name not in _DATA)
               for name, value in params.items() if name not in ("step", "lecture"))


def after() -> None:
    """After the page (app.py), once the class has had its run: a lecturer's page giving a
    plan in a class lends it to the class's other devices (ui/lecture_plan/remote.py); a device
    that has just become the lecturer's (a remote's first run, which joined the class after
    :func:`begin`) runs once more to take it, with its bar."""
    mounted = st.session_state.pop(MOUNTED, False)
    _share_with_class()
    if mounted and AT not in st.session_state and _lent():
        st.rerun()


def _stop() -> None:
    """The lecture given no more: the whole page drawn again, without the bar."""
    st.session_state[WHOLE] = True
    st.session_state.pop(AT, None)
    _take_back()


def prepare() -> None:  # filled by the preparing step
    """The next slide, prepared while this one shows."""
