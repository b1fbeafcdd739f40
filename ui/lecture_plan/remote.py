"""A remote finds the plan: the class's plan, as its lecturer's page gives it, kept in the
class's store (the class's ``plan`` action, classroom/ops.py) for a second device of the
lecturer's on any process (a phone as a remote)."""

from __future__ import annotations

import streamlit as st

from classroom import plan as plans
from ui.lecture_plan.reading import _catalogue
from ui.lecture_plan.session import AT, PLAN

# the class's plan as this session last gave it to the class or took it from the class: (code,
# plan file, slide on screen); a device gives it again only when it changed
SHARED = "plan.shared"


def _class_code() -> str | None:
    if st.session_state.get("class.role") == "lecturer" and st.session_state.get("class.code"):
        return st.session_state["class.code"]
    return None


def _class_act(**fields) -> dict | None:
    """The class's ``plan`` action from this page; None when the class cannot be asked now
    (its store away, the class gone): a later run asks again."""
    from classroom.state import ClassError
    from ui.classroom.store import Unavailable, _act

    try:
        return _act("plan", **fields)[1]
    except (Unavailable, ClassError):
        return None


def _share_with_class() -> None:
    """A lecturer's page giving a plan in a class keeps it in the class's store, with the
    slide on screen, for the lecturer's other devices on any process."""
    code, plan = _class_code(), st.session_state.get(PLAN)
    if not code or plan is None or AT not in st.session_state:
        return
    shared = (code, plans.dump(plan), st.session_state[AT])
    if st.session_state.get(SHARED) != shared and _class_act(plan=shared[1],
                                                              at=shared[2]) is not None:
        st.session_state[SHARED] = shared


def _from_class() -> bool:
    """A lecturer's device in a class given from a plan takes its plan and slide (a remote);
    whether the class has one."""
    code = _class_code()
    kept = _class_act() if code else None
    if not kept or not kept.get("plan"):  # none, or "" once its lecturer stopped giving it
        return False
    text, at = kept["plan"], kept["at"]
    if st.session_state.get(SHARED, (None, None))[:2] != (code, text):
        try:
            plan, _ = plans.parse(text, catalogue=_catalogue())
        except plans.PlanError:
            return False
        st.session_state[PLAN] = plan
        st.session_state["plan.remote"] = True  # the lecturer's second device: Next, Previous
    st.session_state[SHARED] = (code, text, at)
    st.session_state[AT] = at
    return True


def _lent() -> bool:
    """Whether this session's class is given from a plan (taken, when it is)."""
    return bool(_class_code()) and _from_class()


def _take_back() -> None:
    """The class's plan lent no more (the lecture stopped): its devices stop too."""
    if _class_code() and st.session_state.pop(SHARED, None) is not None:
        _class_act(plan="", at=0)
