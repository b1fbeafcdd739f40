"""The view between the page and its class: a following page applies the class's view, a
lecturer's page publishes its own, a lecturer's reloaded tab takes its class back."""

from __future__ import annotations

import contextlib

import streamlit as st

from classroom import codes
from classroom.state import MAX_VIEW_CHARS, ClassError, ClassState
from ui.classroom.assets import _mount
from ui.classroom.session import (
    _AHEAD,
    _APPLIED,
    _BASELINE,
    _OVER,
    _RESUMED,
    _ROLE,
    _TOOK,
    _VIEW_SEQ,
    FOLLOW,
    LECTURER,
    _in_class,
    _join,
    _mode,
    _reset_session,
    _set_mode,
)
from ui.classroom.store import _KEPT_RUNS, Unavailable, _act, _get, _keep_run
from ui.classroom.views import LESSON, _current_view, decode_view, encode_view, owned
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


def _shared(picture) -> str | None:
    """The digest of this run's picture (ui.stepper's picture_run), kept in the class store for
    the follower page; None without a picture, or one too large to keep (the follower page then
    says to open the full app). A store that does not answer raises Unavailable."""
    if picture is None:
        return None
    from ui.stepper.component import shared_run

    digest, blob = shared_run(picture)
    return digest if _keep_run(digest, blob) else None


def _give_run(state: ClassState, picture) -> ClassState:
    """A lecturer's page on the class's view: the class names this view's run (the first
    stepper the page drew), kept in the store, when it does not yet."""
    try:
        digest = _shared(picture)
        if digest == state.run:
            return state
        return _act("run", run=digest)[0]
    except (Unavailable, ClassError):
        return state  # another run gives it (the class still names another, or none)


def _offer_run(state: ClassState, picture) -> None:
    """A student's full page on the class's view, drawing the run the class names: the store
    keeps it if it lost it (a restarted redis-server, a process's cache full)."""
    if picture is None or state.run is None:
        return
    from ui.stepper.component import shared_run

    digest, blob = shared_run(picture)
    if digest == state.run:
        with contextlib.suppress(Unavailable):
            _keep_run(digest, blob, unless_kept=True)


def _publish(view: dict[str, str], picture=None) -> ClassState | None:
    """The lecturer's page changed its view: every follower's page takes it, at this step,
    and the follower page its run (``picture``, ui.stepper's picture_run). The class's state
    then (None when the class did not take it)."""
    step = st.query_params.get("step", "0")
    step = int(step) if step.isdigit() and len(step) < 9 else 0
    try:
        run = _shared(picture)
    except Unavailable:  # the view goes out without its run (a later run gives it: _give_run)
        run = None
    try:
        state = _act("view", view=encode_view(view), step=step, run=run)[0]
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


def _offer_ahead(page, picture, parameters) -> None:
    """A slide prepared ahead (session.ahead), its page drawn: its run kept in the class store
    and, with its view as this page holds it, handed to the browser (stream.js keeps it as the
    frame's ``window.__plAhead``), for the key that shows the slide to give the class at once
    (:func:`give_ahead`). Nothing without a picture, or a store that does not answer."""
    if picture is None or not st.session_state.get(_AHEAD):
        return
    try:
        run = _shared(picture)
    except Unavailable:
        return
    if run is not None:
        view = encode_view(_current_view(page, parameters))
        _mount(key="class.ahead", data={"ahead": {"view": view, "run": run}}, height=0)


def give_ahead(ahead: object, step: int, parameters) -> None:
    """A lecturer's page opening a slide it prepared ahead (``ahead``: what the prepared page
    offered, {view, run}, sent back by the key): the class hears the slide's view and its run
    now, before this page has run it, so that the follower page fetches a run already kept. The
    page then finds its view the one the class has and says nothing more; a view it draws
    otherwise goes out as any change does. A run this process has not kept lately is not
    named (the page's own run names it, as without a prepared slide)."""
    if not _in_class() or st.session_state.get(_ROLE) != LECTURER or st.session_state.get(_OVER):
        return
    if not isinstance(ahead, dict):
        return
    view, run = ahead.get("view"), ahead.get("run")
    # (a view longer than the class takes is not read: the class's own limit)
    if not isinstance(view, str) or len(view) > MAX_VIEW_CHARS or not isinstance(run, str) \
            or run not in _KEPT_RUNS:
        return
    params = owned(decode_view(view), parameters and parameters())
    try:
        state = _act("view", view=encode_view(params), step=step, run=run)[0]
    except (Unavailable, ClassError):
        return  # the page's own run gives the view
    st.session_state.update({_VIEW_SEQ: state.view_seq, _BASELINE: params, _TOOK: None})
