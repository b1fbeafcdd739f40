"""The plan's component: its script (plan.js in ui/lecture_plan_assets/ and the modules it
uses, joined by ui/js_modules.py) and its style, mounted for the slide bar with the clicker's
keys, and for the browser's copy of the plan."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from ui import js_modules

ASSETS = Path(__file__).parent.with_name("lecture_plan_assets")
# plan.js and every module it uses (keys.js, the stepper's: which keys a page leaves alone),
# each joined after the modules it uses, as the header at the top of each file declares
JS_PATHS = tuple(js_modules.order([ASSETS / "plan.js"]))


def script() -> str:
    """The plan's ES module: :data:`JS_PATHS` joined in their order."""
    return js_modules.join(JS_PATHS)


_mount = st.components.v2.component(
    "perceptron_lab.lecture_plan", js=script(),
    css=(ASSETS / "plan.css").read_text(), isolate_styles=False)
