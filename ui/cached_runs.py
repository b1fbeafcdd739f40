"""Cached runs, shared by every session that asks for the same data and settings."""

from __future__ import annotations

import numpy as np
import streamlit as st

from core.perceptron import perceptron
from core.trace import STEP_LIMIT, Trace, record


@st.cache_data(max_entries=32, show_spinner=False)
def perceptron_trace(X: np.ndarray, y: np.ndarray, settings: dict) -> Trace:
    """Record a run of the perceptron, every visit, up to STEP_LIMIT steps."""
    return record(perceptron(X, y, **settings), limit=STEP_LIMIT)
