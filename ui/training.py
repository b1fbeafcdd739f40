"""Sidebar settings of a perceptron run, shared by the lessons that train one."""

from __future__ import annotations

import streamlit as st

from core.perceptron import ORDERS
from datasets.builtin import NOTES_ETA, NOTES_INIT
from ui import url_state
from ui.state import keep_alive

ORDER_LABELS = {
    "cyclic": "Cyclic (rows in order)",
    "shuffle_once": "Shuffled once",
    "shuffle_each_epoch": "Shuffled every epoch",
    "random": "Random, with replacement",
    "random_misclassified": "Random misclassified (PLA)",
}
INIT_LABELS = {"zeros": "Zeros", "random": "Random", "typed": "Typed in"}
DEFAULTS = {
    "train.order": "cyclic", "train.init": "zeros", "train.w1": 0.0, "train.w2": 0.0,
    "train.b": 0.0, "train.eta": 1.0, "train.bias": True, "train.seed": 0,
    "train.max_epochs": 50,
}


def use_notes_example() -> None:
    """Set the seeds' worked example: 4 points, w = (0.2, 0), b = -0.1, eta = 0.1, cyclic."""
    (w1, w2), b = NOTES_INIT
    st.session_state.update({
        "data.choice": "Lecture notes' example: 4 points", "train.order": "cyclic",
        "train.init": "typed", "train.w1": w1, "train.w2": w2, "train.b": b,
        "train.eta": NOTES_ETA, "train.bias": True,
    })


def training_settings() -> dict:
    """Draw the run settings in the sidebar; return keyword arguments for ``perceptron``."""
    keep_alive(DEFAULTS)
    st.subheader("Training")
    order = st.selectbox("Visiting order", ORDERS, format_func=ORDER_LABELS.get,
                         key="train.order")
    init = st.radio("Initial weights", list(INIT_LABELS), format_func=INIT_LABELS.get,
                    horizontal=True, key="train.init")
    if init == "typed":
        c1, c2, c3 = st.columns(3)
        w1 = c1.number_input("w₁", step=0.1, format="%g", key="train.w1")
        w2 = c2.number_input("w₂", step=0.1, format="%g", key="train.w2")
        b = c3.number_input("b", step=0.1, format="%g", key="train.b")
    eta = st.number_input("Learning rate η", min_value=0.001, max_value=100.0,
                          step=0.1, format="%g", key="train.eta")
    bias = st.toggle("Learn a bias b", key="train.bias",
                     help="Off: b stays 0 and the boundary goes through the origin.")
    seed = st.number_input("Seed (orders, random init)", 0, 10**6, key="train.seed")
    max_epochs = st.number_input("Max epochs", 1, 1000, key="train.max_epochs")
    url_state.write(url_state.TRAINING_FIELDS)
    if init == "typed":
        init = ((w1, w2), b if bias else 0.0)
    return dict(eta=float(eta), order=order, init=init, bias=bool(bias),
                seed=int(seed), max_epochs=int(max_epochs))
