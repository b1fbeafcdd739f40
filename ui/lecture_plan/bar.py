"""The slide bar and the clicker's keys (plan.js) while a lecture is given, and the slide the
bar asks for."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import streamlit as st

from ui.lecture import lecture_mode
from ui.lecture_plan.assets import _mount
from ui.lecture_plan.opening import prepare_link
from ui.lecture_plan.reading import _slides
from ui.lecture_plan.session import AT, GO, GO_AHEAD, MOUNTED, PLAN, PREPARING


def _on_go() -> None:
    value = (st.session_state.get("plan.bar") or {}).get("go")
    plan = st.session_state.get(PLAN)
    if isinstance(value, dict) and isinstance(value.get("slide"), int) and plan is not None \
            and 0 <= value["slide"] < len(_slides(plan)):
        st.session_state[GO] = value["slide"]
        st.session_state[GO_AHEAD] = value.get("ahead")  # (checked as it is used)


def bar(pages: Sequence, parameters: Callable[[], frozenset[str]]) -> None:
    """The slide bar and the clicker's keys (plan.js), while a lecture is given: drawn before
    the page (a projector's first run ends at its picture), at the top of the sidebar, where
    it takes no room (the bar itself is fixed at the foot of the screen). With it, the next
    slide's address for the page to prepare (:func:`prepare_link`)."""
    if st.session_state.get(PREPARING):
        return
    st.session_state[MOUNTED] = True
    plan, at = st.session_state.get(PLAN), st.session_state.get(AT)
    if plan is None or at is None:
        if st.session_state.pop("plan.bar_shown", False):
            with st.sidebar:
                _mount(key="plan.bar", data={"at": None}, height=0)
        return
    slides = _slides(plan)
    at = min(at, len(slides) - 1)
    slide = slides[at]
    remote = st.session_state.get("class.role") == "lecturer" and \
        st.session_state.get("plan.remote", False)
    mode = "projector" if lecture_mode() else "remote" if remote else "laptop"
    following = slides[at + 1] if at + 1 < len(slides) else None
    data = {"at": at, "count": len(slides), "title": slide.title, "notes": slide.notes,
            "step": slide.step,
            "steps": list(slide.steps) if slide.steps else None, "mode": mode,
            "run": st.session_state.get("plan.opened", 0),
            # a phone as a remote prepares nothing: the projector does, for the room
            "next": prepare_link(following, pages, parameters)
            if following is not None and mode != "remote" else None}
    st.session_state["plan.bar_shown"] = True
    with st.sidebar:
        _mount(key="plan.bar", data=data, on_go_change=_on_go, height=0)
