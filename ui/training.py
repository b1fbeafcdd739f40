"""Sidebar settings of a perceptron run, shared by the lessons that train one."""

from __future__ import annotations

import streamlit as st

from ui import url_state
from ui.settings import (
    INIT,
    TRAINING,
    TYPED_WEIGHTS,
    defaults,
)
from ui.state import keep_alive


def training_settings() -> dict:
    """Draw the run settings in the sidebar; return keyword arguments for ``perceptron``.

    Every setting of ``ui.settings.TRAINING`` with an ``arg`` is drawn in its
    order and passed on under that keyword; the typed-in weights go in one row
    under the initial weights and become ``init=((w1, w2), b)``.
    """
    keep_alive(defaults(TRAINING))
    st.subheader("Training")
    run = {}
    for setting in TRAINING:
        if setting in TYPED_WEIGHTS:
            continue
        run[setting.arg] = setting.draw()
        if setting is INIT and run["init"] == "typed":
            typed = [s.draw(col) for s, col in zip(TYPED_WEIGHTS, st.columns(3), strict=True)]
    url_state.write(TRAINING)
    if run["init"] == "typed":
        w1, w2, b = typed
        run["init"] = ((w1, w2), b if run["bias"] else 0.0)
    return run
