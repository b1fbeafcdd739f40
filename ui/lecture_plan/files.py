"""The plan as a file: downloaded, shared as a link, opened from a file, and kept by the
browser between visits (its localStorage, plan.js)."""

from __future__ import annotations

import streamlit as st

from classroom import plan as plans
from ui.lecture_plan.assets import _mount
from ui.lecture_plan.opening import _stop
from ui.lecture_plan.reading import _dump, _message, _notices, _parse, _slides, _to_link
from ui.lecture_plan.session import (
    ASKED,
    FORGET,
    MAX_FILE_BYTES,
    NOTICE,
    PLAN,
    PROBLEM,
    UPLOADING,
    UPLOADS,
    WHOLE,
)


def _keep_browser_copy() -> None:
    """The browser's copy of the plan in progress: asked for once a session while the session
    has none; written back whenever the plan changes."""
    plan = st.session_state.get(PLAN)
    if plan is None and not st.session_state.get(ASKED):
        st.session_state[ASKED] = True
        _mount(key="plan.keep", data={"keep": True, "ask": True}, on_kept_change=_on_kept,
               height=0)
        return
    st.session_state[ASKED] = True
    # a cleared plan is forgotten by every run until another plan comes (not by the first
    # only: a run cut short by the next never reaches the browser)
    if plan is not None:
        st.session_state.pop(FORGET, None)
    text = _dump(plan) if plan is not None else None
    _mount(key="plan.keep", data={"keep": True, "text": text,
                                  "forget": bool(st.session_state.get(FORGET, False))},
           on_kept_change=_on_kept, height=0)


def _on_kept() -> None:
    value = (st.session_state.get("plan.keep") or {}).get("kept")
    if st.session_state.get(PLAN) is not None or not isinstance(value, dict):
        return
    text = value.get("text")
    if not isinstance(text, str) or len(text.encode()) > MAX_FILE_BYTES:
        return
    try:
        st.session_state[PLAN] = _parse(text)[0]
    except plans.PlanError as refused:
        st.session_state[PROBLEM] = ("The plan this browser kept could not be read, and was "
                                     f"left aside: {_message(refused)}")
    else:
        st.session_state[NOTICE] = "The plan in progress in this browser is back."


def _download_and_share(plan) -> None:
    """The plan's file to download, and its link (``?plan=``) where it is short enough."""
    text = _dump(plan)  # made once here; sent only when the button is pressed
    st.download_button("Download the plan", lambda: text, file_name="lecture-plan.json",
                       mime="application/json", key="plan.download", on_click="ignore",
                       icon=":material/download:")
    with st.popover("Share the plan as a link", icon=":material/link:"):
        value = _to_link(plan)
        if value is None:
            st.warning("This plan is too long for a link: share its file.",
                       icon=":material/link_off:")
        else:
            st.code(f"{_app_root()}?plan={value}", language=None, wrap_lines=True)


def _app_root() -> str:
    """The app's address as the room opens it (ui/room_link.py), for a plan's link."""
    from ui.room_link import hall_root

    return hall_root().url


def _open_file() -> None:
    """*Open a plan file*, and its uploader once asked for: the sidebar's data uploader stays
    the one on the page."""
    if st.session_state.get(UPLOADING):
        st.file_uploader("Open a plan file", type=["json"],
                         key=f"plan.upload.{st.session_state.get(UPLOADS, 0)}",
                         on_change=_upload)
    else:
        st.button("Open a plan file", key="plan.open_file", icon=":material/upload_file:",
                  on_click=lambda: st.session_state.update({UPLOADING: True}))


def _upload() -> None:
    generation = st.session_state.get(UPLOADS, 0)
    file = st.session_state.get(f"plan.upload.{generation}")
    if file is None:
        return
    st.session_state[UPLOADS] = generation + 1  # a fresh uploader: the file is taken
    name = file.name[:80]  # outside text: the message is shown through md() (builder's panel)
    if file.size > MAX_FILE_BYTES:
        st.session_state[PROBLEM] = (f"The file {name} was not opened: it is {file.size:,} "
                                     f"bytes, and a plan file is at most {MAX_FILE_BYTES:,}. "
                                     "The plan in progress stays.")
        return
    try:
        plan, notices = _parse(file.getvalue())
    except plans.PlanError as refused:
        st.session_state[PROBLEM] = (f"The file {name} was not opened: {_message(refused)}. "
                                     "The plan in progress stays.")
        return
    _stop()
    st.session_state[PLAN] = plan
    st.session_state["plan.pick"] = 0
    st.session_state[WHOLE] = True
    st.session_state[UPLOADING] = False
    st.session_state[NOTICE] = f"The plan from {name} is open: {len(_slides(plan))} slides."
    _notices(notices, f"The plan from {name} opened, but")
