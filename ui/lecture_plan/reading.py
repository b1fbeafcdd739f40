"""The plan read and written against the lessons' catalogue: classroom/plan.py's API, in one
place for the page's side."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import streamlit as st

from classroom import plan as plans
from ui.lecture_plan.session import NOTES_LINK, PROBLEM

# lessons.plan_catalogue (app.py hands it over: ui/ imports no lesson): what each lesson's
# views may hold, against which every plan is read
_CATALOGUE: list[Callable[[], object]] = []
_CATALOGUE_MADE: list[object] = []


def _catalogue():
    if not _CATALOGUE_MADE and _CATALOGUE:
        _CATALOGUE_MADE.append(_CATALOGUE[0]())
    return _CATALOGUE_MADE[0] if _CATALOGUE_MADE else None


def _parse(text: str | bytes):
    """The plan a file's bytes hold, and its notices as sentences (PlanError: none)."""
    plan, notices = plans.parse(text, catalogue=_catalogue())
    return plan, [str(n) for n in notices]


def _dump(plan) -> str:
    return plans.dump(plan)


def _from_link(value: str):
    plan, notices = plans.from_link(value, catalogue=_catalogue())
    return plan, [str(n) for n in notices]


def _to_link(plan) -> str | None:
    """The plan's ``?plan=`` value, or None when it is too long for a link (then a file)."""
    try:
        return plans.to_link(plan)
    except ValueError:
        return None


def _notes():
    return _from_link(NOTES_LINK)


def _slides(plan) -> tuple:
    return tuple(plan.slides)


def _with_slides(plan, slides) -> object:
    return replace(plan, slides=tuple(slides))


def _new_slide(view: str, step: int, steps: tuple[int, int] | None, title: str):
    return plans.Slide(view=view, title=title, step=step, steps=steps)


def _message(refused: Exception) -> str:
    return str(refused)


def _notices(notices: list[str], where: str) -> None:
    """What of a plan was not used as written, said in the sidebar's Lecture (and the page's
    toast): outside text, as written."""
    if notices:
        shown = "; ".join(notices[:5]) + (f"; and {len(notices) - 5} more" if len(notices) > 5
                                           else "")
        st.session_state[PROBLEM] = f"{where}: {shown}."
