"""The plan's component: plan.js (ui/lecture_plan_assets/) and its style, mounted for the
slide bar with the clicker's keys, and for the browser's copy of the plan."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

ASSETS = Path(__file__).parent.with_name("lecture_plan_assets")

_mount = st.components.v2.component(
    "perceptron_lab.lecture_plan", js=(ASSETS / "plan.js").read_text(),
    css=(ASSETS / "plan.css").read_text(), isolate_styles=False)
