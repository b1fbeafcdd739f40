"""The questions of the lecture plan's slide on screen, as the class strip offers them
(ui/class_questions.py's PROVIDERS; app.py imports this module, which registers itself).

Each is computed from the slide's run by ``ui.plan_runs.ask_body`` (the step it asks about,
its right answer): ``{"label", "body"}``, or ``{"label", "problem"}`` with the sentence that
says which slide and question its run cannot answer. A line question's plane is the one the
page draws: the strip puts the page's range in the body before sending it.
"""

from __future__ import annotations

import streamlit as st

from ui import class_questions
from ui.plan_runs import ask_body

PLAN, AT = "plan.plan", "plan.at"  # ui/lecture_plan/session.py's: the plan, the slide shown
# a built-in question a plan asks without words of its own, in the strip's words (strip.js)
BUILT_IN = {"mistake": "mistake or not?", "turn": "which way does w turn?"}


def slide_asks(_view: str = "") -> list[dict]:
    """The questions of the plan's slide on screen (none outside a plan being given)."""
    plan, at = st.session_state.get(PLAN), st.session_state.get(AT)
    slides = getattr(plan, "slides", ())
    if not isinstance(at, int) or not 0 <= at < len(slides):
        return []
    slide = slides[at]
    asks = []
    for question in slide.questions:
        words = class_questions.label(question.text or BUILT_IN.get(question.kind,
                                                                     question.kind))
        try:
            asks.append({"label": words, "body": ask_body(at + 1, slide, question)})
        except ValueError as refused:
            asks.append({"label": words, "problem": str(refused)})
    return asks


if slide_asks not in class_questions.PROVIDERS:
    class_questions.PROVIDERS.append(slide_asks)
