"""The view between the page and its class: a following page applies the class's view, a
lecturer's page publishes its own, a lecturer's reloaded tab takes its class back."""

from __future__ import annotations

import streamlit as st

from classroom import codes
from classroom.state import ClassError, ClassState
from ui.classroom.session import (
    _APPLIED,
    _BASELINE,
    _OVER,
    _RESUMED,
    _ROLE,
    _TOOK,
    _VIEW_SEQ,
    FOLLOW,
    LECTURER,
    _join,
    _mode,
    _reset_session,
    _set_mode,
)
from ui.classroom.store import Unavailable, _act, _get
from ui.classroom.views import LESSON, decode_view, encode_view, owned
from ui.settings import LECTURE


def _apply(state: ClassState, pages: dict, page, parameters) -> None:
    """Make this page the class's view at its step: one run (a lesson's switch in it)."""
    view = owned(decode_view(state.view), parameters and parameters())
    target = pages.get(view.pop(LESSON, ""), page)
    params = dict(view)
    if st.session_state.get(_ROLE) != LECTURER:  # a lecturer's tab takes its class back by
        params["class"] = state.code             # its key after a reload, not by the link
    if state.step:
        params["step"] = str(state.step)
    if st.session_state.get(LECTURE.key):
        params["lecture"] = "1"
    _reset_session()
    st.session_state.update({_VIEW_SEQ: state.view_seq, _APPLIED: True, _TOOK: state.view_seq})
    if _mode() != FOLLOW:
        _set_mode(FOLLOW)
    if target.url_path != page.url_path:
        st.switch_page(target, query_params=params)
    st.query_params.from_dict(params)


def _on_resume() -> None:
    """A reloaded tab of the lecturer's hands back the key it kept: lead the class again."""
    st.session_state[_RESUMED] = True
    value = (st.session_state.get("class.resume") or {}).get("resume")
    if not isinstance(value, dict):
        return
    code, key = codes.normalize_code(str(value.get("code", ""))), value.get("key")
    try:
        state = _get(code)[0] if code and codes.is_key(key) else None
    except Unavailable:
        state = None
    if state is not None and codes.key_matches(key, state.key_hashes):
        _join(code, LECTURER, key)  # the class's view and step again, as it left them


def _publish(view: dict[str, str]) -> ClassState | None:
    """The lecturer's page changed its view: every follower's page takes it, at this step.
    The class's state then (None when the class did not take it)."""
    step = st.query_params.get("step", "0")
    step = int(step) if step.isdigit() and len(step) < 9 else 0
    try:
        state = _act("view", view=encode_view(view), step=step)[0]
    except Unavailable:
        return None  # the view goes out on a later run (it still differs from the baseline)
    except ClassError as refused:
        if refused.status == 410:
            st.session_state[_OVER] = "ended"
        elif refused.status == 404:  # lost by its store: its strip gives it back, and the
            return None  # view goes out on a later run (it still differs from the baseline)
        else:
            st.toast(f"The class did not take this view: {refused.message}",
                     icon=":material/sync_problem:")
        return None
    st.session_state.update({_VIEW_SEQ: state.view_seq, _BASELINE: view, _TOOK: None})
    return state
