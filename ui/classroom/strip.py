"""The strip at the top of the page (and its place on a projector's title row): a fragment
that reports a student's exploring and rejoining."""

from __future__ import annotations

import streamlit as st

from classroom import codes, limits, server
from classroom.state import public
from ui import class_questions
from ui.classroom.assets import _mount
from ui.classroom.join import _join_card, join_link
from ui.classroom.session import (
    _CARD,
    _CHARTER,
    _CODE,
    _DIVERGED,
    _FRESH,
    _KEY,
    _LAST_VIEW,
    _MODE,
    _OVER,
    _ROLE,
    _TALLY,
    _TITLE_SLOT,
    _TOOK,
    _VIEW_SEQ,
    EXPLORE,
    FOLLOW,
    LECTURER,
    _in_class,
    _set_mode,
)
from ui.classroom.store import Unavailable, _get
from ui.lecture import lecture_mode


def title_slot() -> None:
    """The strip's place on the page's title row (ui.lesson's title calls it there): on a
    projector the strip takes no row of its own, the picture has its height.

    A container where it holds the strip, which a run keeps with the strip it drew last until
    this run draws it again (an empty was cleared as each of the lecturer's runs began: the bar
    went away for the run); an empty, which takes no width in the row, while the join card
    holds the strip over the page."""
    if _in_class() and lecture_mode():
        st.session_state[_TITLE_SLOT] = st.empty() if st.session_state.get(_CARD) \
            else st.container()


def _on_mode() -> None:
    """The strip's student pressed (explore) or rejoined on the same view (follow)."""
    value = (st.session_state.get("class.strip") or {}).get("mode")
    if isinstance(value, dict) and value.get("mode") in (FOLLOW, EXPLORE) \
            and isinstance(value.get("n"), int) \
            and value["n"] > st.session_state.get(_MODE, (FOLLOW, 0))[1]:
        st.session_state[_MODE] = (value["mode"], value["n"])


def _on_rerun() -> None:
    """The strip heard of a newer view, or its student rejoins on another view: this run
    (the relay's trigger reruns the whole page) takes the class's view."""
    value = (st.session_state.get("class.relay") or {}).get("rerun")
    if isinstance(value, dict) and value.get("rejoin"):
        _set_mode(FOLLOW)
        st.session_state[_VIEW_SEQ] = None  # the class's view again, whatever it is


@st.fragment
def _strip_fragment() -> None:
    """The strip (and the projector's join card): a fragment, so that its reports (a student
    explores, rejoins on the same view) rerun only it."""
    code = st.session_state.get(_CODE)
    if not code:
        return
    lecturer = st.session_state.get(_ROLE) == LECTURER
    unavailable = lost = False
    fresh = st.session_state.pop(_FRESH, None)  # a full run's; a fragment's own reads it
    try:
        state, ended = (None, True) if st.session_state.get(_OVER) else \
            (fresh, False) if fresh else _get(code)
        lost = state is None and not ended  # the store lost it: not over (ops.restore)
    except Unavailable:
        state, unavailable = None, True
    mode, n = st.session_state.get(_MODE, (FOLLOW, 0))
    data = {"code": code, "display": codes.display_code(code), "role": st.session_state[_ROLE],
            "mode": mode, "n": n, "view_seq": st.session_state.get(_VIEW_SEQ),
            "synced": st.session_state.get(_VIEW_SEQ) == (state.view_seq if state else None)
            and not st.session_state.get(_DIVERGED),
            "state": public(state, with_view=False) if state else None,
            "link": join_link(code) if lecturer else None, "unavailable": unavailable,
            "lost": lost,
            "silent_ms": int(limits.SILENCE * 1000),
            # this page found the class: its stream is no guess (ops.look_up)
            "ticket": server.classroom().ops.ticket(code)}
    if lecturer:
        # a lecturer's page that took the class's view (a reload, another device's view)
        # takes its step too; one that published its own makes the class go where it is
        data.update(key=st.session_state.get(_KEY), took=st.session_state.get(_TOOK))
        key = st.session_state.get(_KEY)
        if state is not None and codes.key_matches(key, state.key_hashes):
            # what gives the class back where its store lost it (ops.restore): the charter
            # the server signs for this key, and the class's view
            st.session_state[_CHARTER] = server.classroom().ops.charter(state, key)
            st.session_state[_TALLY] = server.classroom().ops.tally_ticket(state)
            st.session_state[_LAST_VIEW] = state.view
        data.update(charter=st.session_state.get(_CHARTER),
                    tally=st.session_state.get(_TALLY),
                    view=st.session_state.get(_LAST_VIEW))
        # what the lecturer may ask on this page: the plan's slide's questions, the view's own
        # (ui/class_questions.py; the strip's questions.js sends them)
        data["asks"] = class_questions.offered(st.session_state.get(_LAST_VIEW) or "")
    _mount(key="class.strip", data=data, on_mode_change=_on_mode)
    if lecturer and state is not None and st.session_state.get(_CARD):
        _join_card(code)
