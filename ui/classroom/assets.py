"""The class strip's component: its script (the modules of ui/classroom_assets/, joined by
ui/js_modules.py), its style, and the component mounted with them."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from ui import js_modules

ASSETS = Path(__file__).parent.with_name("classroom_assets")
# the strip's script: stream.js, answers.js (the strip's questions, which it adds to the strip
# through strip.js's extensions) and every module they use, each joined after the modules it
# uses, as the header at the top of each file declares (ui/js_modules.py); dom.js is the
# stepper's own, shared
JS_MODULES = tuple(path.stem for path in js_modules.order([ASSETS / "stream.js",
                                                           ASSETS / "answers.js"]))
SHARED_JS = {"dom": Path(__file__).parent.with_name("stepper_assets") / "dom.js"}


def module_path(name: str) -> Path:
    """The file of one of the strip's modules."""
    return SHARED_JS.get(name, ASSETS / f"{name}.js")


def script() -> str:
    """The strip's ES module: :data:`JS_MODULES` joined in their order."""
    return js_modules.join(module_path(name) for name in JS_MODULES)


COMPONENT = "perceptron_lab.classroom"


_mount = st.components.v2.component(
    COMPONENT, css=(ASSETS / "classroom.css").read_text(),
    js=script(), isolate_styles=False)
