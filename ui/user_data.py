"""The user's own points (uploaded or drawn), kept for the whole session with an undo history."""

from __future__ import annotations

import streamlit as st

from datasets import Dataset

_POINTS = "data.user"
_HISTORY = "data.user_history"
_VERSION = "data.user_version"
UNDO_DEPTH = 50
# Points the undo history may hold in all (each step keeps a whole data set): 50 steps of
# a drawing, a handful of steps of the largest upload.
UNDO_POINTS = 100_000


def user_data() -> Dataset | None:
    """The user's points, or None before any were uploaded or drawn."""
    return st.session_state.get(_POINTS)


def version() -> int:
    """Changes with every edit; widgets keyed on it start fresh after an edit."""
    return st.session_state.get(_VERSION, 0)


def set_user_data(data: Dataset | None, *, undoable: bool = True) -> None:
    """Replace the user's points, remembering the old ones for Undo."""
    if undoable:
        history = st.session_state.setdefault(_HISTORY, [])
        history.append(user_data())
        del history[:-UNDO_DEPTH]
        held = [len(kept) if kept is not None else 0 for kept in history]
        while len(history) > 1 and sum(held) > UNDO_POINTS:
            del history[0], held[0]
    st.session_state[_POINTS] = data
    st.session_state[_VERSION] = version() + 1


def can_undo() -> bool:
    """Whether an earlier state is remembered."""
    return bool(st.session_state.get(_HISTORY))


def undo() -> None:
    """Go back to the points before the last edit."""
    if can_undo():
        set_user_data(st.session_state[_HISTORY].pop(), undoable=False)
