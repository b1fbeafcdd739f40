"""The sync: the step the browser reports when the student stops, checked and kept in the
session and the address bar."""

from __future__ import annotations

import streamlit as st

from ui import url_state


def accept_position(value, *, run: str | None, steps: int) -> int | None:
    """The step a sync reports, or None when it is for another run or malformed.

    Parameters
    ----------
    value : object
        What the browser set: ``{"run": <run id>, "k": <step>}``.
    run : str or None
        The id of the run on the page now.
    steps : int
        Its last step.

    Examples
    --------
    >>> accept_position({"run": "a", "k": 3}, run="a", steps=10)
    3
    >>> accept_position({"run": "old", "k": 3}, run="a", steps=10) is None
    True
    """
    if not isinstance(value, dict) or value.get("run") != run or run is None:
        return None
    k = value.get("k")
    if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k <= steps:
        return None
    return k


def _on_position(key: str, address: bool) -> None:
    """The browser's debounced position: keep it in the session (and the address bar)."""
    state = st.session_state.get(key) or {}
    k = accept_position(state.get("position"), run=st.session_state.get(f"{key}.stepper.run"),
                        steps=int(st.session_state.get(f"{key}.stepper.steps", 0)))
    if k is not None:
        st.session_state[f"{key}.t"] = k
        if address:
            url_state.write_step(k)
