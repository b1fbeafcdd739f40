"""Cached runs, shared by every session that asks for the same data and settings."""

from __future__ import annotations

import numpy as np
import streamlit as st

from core.perceptron import initial_weights, perceptron
from core.trace import Trace, record

# Steps a page records and can step through; beyond this the run is summarised.
STEP_LIMIT = 20_000


@st.cache_data(max_entries=32, show_spinner=False)
def perceptron_trace(X: np.ndarray, y: np.ndarray, settings: dict) -> Trace:
    """Record a run of the perceptron, every visit, up to STEP_LIMIT steps."""
    w0, b0 = initial_weights(X.shape[1], init=settings["init"], bias=settings["bias"],
                             seed=settings["seed"])
    return record(perceptron(X, y, **settings), w0, b0, limit=STEP_LIMIT)
