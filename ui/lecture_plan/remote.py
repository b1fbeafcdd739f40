"""A remote finds the plan: the class's plan, as its lecturer's page gives it, lent to a second
device of the lecturer's in this process (a phone as a remote)."""

from __future__ import annotations

import threading

import streamlit as st

from ui.lecture_plan.session import AT, PLAN

# code -> (plan, slide on screen)
_CLASSES: dict[str, tuple[object, int]] = {}
_CLASSES_LOCK = threading.Lock()


def _class_code() -> str | None:
    if st.session_state.get("class.role") == "lecturer" and st.session_state.get("class.code"):
        return st.session_state["class.code"]
    return None


def _share_with_class() -> None:
    code, plan = _class_code(), st.session_state.get(PLAN)
    if code and plan is not None and AT in st.session_state:
        with _CLASSES_LOCK:
            _CLASSES[code] = (plan, st.session_state[AT])


def _from_class() -> None:
    """A lecturer's device in a class given from a plan takes its plan and slide (a remote)."""
    code = _class_code()
    if not code:
        return
    with _CLASSES_LOCK:
        found = _CLASSES.get(code)
    if found is None:
        return
    plan, at = found
    if st.session_state.get(PLAN) is not plan:
        st.session_state[PLAN] = plan
        st.session_state["plan.remote"] = True  # the lecturer's second device: Next, Previous
    st.session_state[AT] = at


def _lent() -> bool:
    """Whether this session's class has a plan lent to its devices."""
    code = _class_code()
    with _CLASSES_LOCK:
        return bool(code) and code in _CLASSES


def _take_back() -> None:
    """The class's plan lent no more (the lecture stopped)."""
    with _CLASSES_LOCK:
        _CLASSES.pop(_class_code() or "", None)
