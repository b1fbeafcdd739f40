"""Session state helpers shared by the pages."""

from __future__ import annotations

import streamlit as st

from ui.settings import DATA_CHOICE_KEY, SHARED


def keep_alive(defaults: dict) -> None:
    """Give widgets their defaults once, and keep their values across pages.

    Streamlit forgets a widget's value on a rerun that does not draw it;
    writing the value back at the top of each rerun keeps it.
    """
    for key, value in defaults.items():
        st.session_state[key] = st.session_state.get(key, value)


def keep_shared_settings() -> None:
    """Keep the sidebar's data and run settings alive on pages that do not draw them.

    Called at the top of every page (its ``Lesson`` does it), so a detour
    through a page without the picker or the run settings (Boolean functions,
    Your data) loses nothing. It must run inside the page's script: values set
    before st.navigation switches pages are dropped.
    """
    keys = [DATA_CHOICE_KEY, *(setting.key for setting in SHARED)]
    keep_alive({key: st.session_state[key] for key in keys if key in st.session_state})
