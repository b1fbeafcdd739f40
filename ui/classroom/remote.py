"""The lecturer's phone as a remote: a one-time link, shown in the sidebar until a phone
claims it."""

from __future__ import annotations

import time

import streamlit as st

from classroom.state import ClassError
from ui.classroom.join import app_link, qr_svg
from ui.classroom.session import _CODE, _KEY, _PROBLEM, _REMOTE, REMOTE_SHOWN_S
from ui.classroom.store import Unavailable, _get, _remote_token


def _make_remote() -> None:
    if st.session_state.get(_CODE) and st.session_state.get(_KEY):
        try:
            token = _remote_token(st.session_state[_CODE], st.session_state[_KEY])
            state = _get(st.session_state[_CODE])[0]
            keys = len(state.key_hashes) if state is not None else 0
            st.session_state[_REMOTE] = (token, time.monotonic() + REMOTE_SHOWN_S, keys)
        except ClassError as refused:
            st.session_state[_PROBLEM] = refused.message
        except Unavailable:
            st.session_state[_PROBLEM] = "Classes are unavailable for a moment; try again."


def _remote_gone() -> bool:
    """Whether the remote link asked for is to go: claimed by a phone, or shown long enough."""
    _token, until, keys = st.session_state[_REMOTE]
    if time.monotonic() >= until:
        return True
    try:
        state = _get(st.session_state[_CODE], 2.0)[0]
    except Unavailable:
        return False
    return state is None or len(state.key_hashes) > keys


@st.fragment(run_every=2.0)
def _remote_card() -> None:
    """The remote link and its QR code, asked for by the lecturer: shown until a phone claims
    it, for :data:`REMOTE_SHOWN_S` at most (every 2 s its fragment asks the class whether a
    phone claimed it); then the sidebar draws again without it (and its fragment stops)."""
    if not st.session_state.get(_REMOTE) or not st.session_state.get(_CODE):
        return
    if _remote_gone():
        st.session_state.pop(_REMOTE, None)
        st.rerun()  # the whole page: the fragment is not drawn again, and stops asking
    token, until, _keys = st.session_state[_REMOTE]
    link = f"{app_link(st.session_state[_CODE])}&remote={token}"
    left = max(0, round(until - time.monotonic()))
    st.warning("A link for your phone: it works once, within ten minutes. Keep it off the "
               f"projector: it goes from here once your phone opens it, or in {left} s.",
               icon=":material/phonelink_lock:")
    st.image(qr_svg(link), width=180)
    st.code(link, language=None, wrap_lines=True)
