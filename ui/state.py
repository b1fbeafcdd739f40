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


def keep_shared_settings() -> None:
    """Keep the sidebar's data and run settings alive on pages that do not draw them.

    Called at the top of every page (the data picker does it), so a detour
    through a page without the picker or the run settings (Boolean functions,
    Your data) loses nothing. It must run inside the page's script: values set
    before st.navigation switches pages are dropped.
    """
    from datasets.builtin import GENERATORS
    from ui.charts import LECTURE_KEY
    from ui.training import DEFAULTS

    keys = ["data.choice", "data.n", "data.seed", LECTURE_KEY, *DEFAULTS]
    keys += [f"data.{generator.shape_name}" for generator in GENERATORS.values()]
    keep_alive({key: st.session_state[key] for key in keys if key in st.session_state})
