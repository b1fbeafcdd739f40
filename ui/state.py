"""Session state helpers shared by the pages."""

from __future__ import annotations

import streamlit as st


def keep_alive(defaults: dict) -> None:
    """Give widgets their defaults once, and keep their values across pages.

    Streamlit forgets a widget's value on a rerun that does not draw it;
    writing the value back at the top of each rerun keeps it.
    """
    for key, value in defaults.items():
        st.session_state[key] = st.session_state.get(key, value)
