"""The foot of the sidebar: start, join, lead or leave a class."""

from __future__ import annotations

import contextlib

import streamlit as st

from classroom import codes
from classroom.state import ClassError
from ui.classroom.download import _results_button
from ui.classroom.remote import _make_remote, _remote_card
from ui.classroom.session import (
    _CARD,
    _CODE,
    _KEY,
    _OVER,
    _PROBLEM,
    _REMOTE,
    _ROLE,
    _VIEW_SEQ,
    LECTURER,
    RESULTS,
    STUDENT,
    _join,
    _leave,
)
from ui.classroom.store import Unavailable, _act, _open_class


def _start_class() -> None:
    """The sidebar's Start (a callback): a class on this view, led from this session."""
    try:
        key, state = _open_class("", 0)
    except ClassError as refused:
        st.session_state[_PROBLEM] = refused.message
        return
    except Unavailable:
        st.session_state[_PROBLEM] = "Classes are unavailable for a moment; try again."
        return
    _join(state.code, LECTURER, key)
    st.session_state.update({_VIEW_SEQ: state.view_seq, _CARD: True})


def _end_class() -> None:
    if st.session_state.get(_CODE) and st.session_state.get(_KEY):
        with contextlib.suppress(ClassError, Unavailable):
            _act("end")
        # the answers stay the lecturer's to download for the quiet hour after the end
        st.session_state[RESULTS] = (st.session_state[_CODE], st.session_state[_KEY])
    _leave()


def _join_typed() -> None:
    code = codes.normalize_code(st.session_state.get("class.typed", ""))
    if code is None:
        st.session_state[_PROBLEM] = ("A class code is 8 letters and digits, like "
                                      "ABCD-EFGH (no 0, O, 1 or I).")
        return
    st.query_params["class"] = code
    st.session_state[_PROBLEM] = None


def _sidebar() -> None:
    """The foot of the sidebar: start or join a class; in one, its controls."""
    st.subheader("Class")
    problem = st.session_state.get(_PROBLEM)
    if problem:
        st.warning(problem, icon=":material/info:")
    code = st.session_state.get(_CODE)
    if not code:
        if st.session_state.get(RESULTS):
            _results_button(*st.session_state[RESULTS], "Download the last class's answers")
        st.button("Start a class", key="class.start", on_click=_start_class, type="primary",
                  icon=":material/co_present:", help="Your students' pages follow yours: "
                  "lesson, data, settings and step. The projector shows how to join.")
        with st.form("class.join", border=False, enter_to_submit=True):
            st.text_input("Join a class", key="class.typed", placeholder="ABCD-EFGH",
                          max_chars=16)
            st.form_submit_button("Join", on_click=_join_typed, icon=":material/login:")
        return
    shown = codes.display_code(code)
    if st.session_state.get(_OVER):
        st.info(f"The class {shown} has ended. This page keeps its last view.",
                icon=":material/event_busy:")
        st.button("Leave the class", key="class.leave", on_click=_leave)
        return
    if st.session_state[_ROLE] == STUDENT:
        st.caption(f"You are in the class {shown}.")
        st.button("Leave the class", key="class.leave", on_click=_leave,
                  icon=":material/logout:")
        return
    st.caption(f"You lead the class {shown}.")
    if not st.session_state.get(_CARD):
        st.button("Show how to join", key="class.show_card", icon=":material/qr_code_2:",
                  on_click=lambda: st.session_state.update({_CARD: True}))
    if st.session_state.get(_REMOTE):
        _remote_card()
    else:
        st.button("Phone as a remote", key="class.remote_button", on_click=_make_remote,
                  icon=":material/phonelink:",
                  help="A one-time link that lets your phone drive the class too.")
    if st.session_state.get(_KEY):
        _results_button(code, st.session_state[_KEY], "Download the answers (CSV)")
    st.button("End the class", key="class.end", on_click=_end_class,
              icon=":material/stop_circle:")
