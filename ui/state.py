"""Session state helpers shared by the pages."""

from __future__ import annotations

from collections.abc import Mapping

import streamlit as st

from ui.settings import DATA_CHOICE_KEY, SHARED
from ui.theme import SHOWN_KEY


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


# A button's callback that sets settings (the notes' example, an example's data) records here
# each setting's value before and after, {key: (before, after)}, until the page shows them.
_SET_BY_BUTTON = "_pl.set_by_button"
# A hidden widget (SHOWN_KEY) ends every run, set to the count of such buttons pressed: the
# value a request brings back says whether the page had the whole of the button's run when it
# sent the request (a page gets a run's messages in order, this widget's last).
_PRESSED = "_pl.buttons_pressed"


def set_by_button(values: Mapping[str, object]) -> None:
    """Set settings from a button's callback, so that a request the page sent before the
    button's run reached it cannot set them back.

    Streamlit takes the widgets' values from every request a page sends: a click or a key press
    sent while the button's run is still on its way (a quick second click, a loaded server)
    carries the values from before the button, which would win over the callback's. Until the
    page shows the button's run (:func:`shown_marker`), :func:`keep_button_values` gives such a
    setting the button's value again.
    """
    state = st.session_state
    before = {key: state.get(key) for key in values}
    state.update(values)
    state[_SET_BY_BUTTON] = {key: (before[key], value) for key, value in values.items()}
    state[_PRESSED] = state.get(_PRESSED, 0) + 1


def keep_button_values() -> None:
    """At a run's top, before any setting's widget: if the page's request left before it had
    the last button's run, a setting that the request put back at its value from before the
    button gets the button's value again; once the page has had that run, nothing is held."""
    state = st.session_state
    held = state.get(_SET_BY_BUTTON)
    if not held:
        return
    if state.get(SHOWN_KEY) == state.get(_PRESSED, 0):
        del state[_SET_BY_BUTTON]
        return
    for key, (before, after) in held.items():
        if before != after and key in state and state[key] == before:
            state[key] = after


def shown_marker() -> None:
    """The hidden widget that ends every run (see SHOWN_KEY): its value is the count of buttons
    pressed, and the page sends it back with its next request."""
    st.session_state[SHOWN_KEY] = st.session_state.get(_PRESSED, 0)
    st.number_input("Buttons shown", key=SHOWN_KEY, min_value=0, step=1,
                    label_visibility="collapsed")
