"""The choice of columns and classes for an uploaded file wider than x1, x2, label."""

from __future__ import annotations

import io
from collections.abc import Callable

import streamlit as st

from datasets import Dataset
from datasets.loader import REST, Table, read_table
from ui.outside import md

_FILE = "data.file_choice"  # (file name, its bytes, the user-data version it produced)
_ERROR = "data.file_choice_error"
_PREFIX = "file."


class _Named(io.BytesIO):
    """The upload's bytes under its file name, as the loader reads a file object."""

    def __init__(self, content: bytes, name: str):
        super().__init__(content)
        self.name = name


@st.cache_resource(max_entries=4, show_spinner=False)
def _table(content: bytes, name: str) -> Table:
    """The parsed file, shared by the reruns that change the choice (a Table is immutable)."""
    return read_table(_Named(content, name))


def load_upload(file) -> tuple[Dataset, Table]:
    """Read an uploaded file with the default choice.

    Parameters
    ----------
    file : UploadedFile
        The sidebar uploader's file.

    Returns
    -------
    (Dataset, Table)
        The data set to use and the table it came from.

    Raises
    ------
    ValueError
        The loader's message.
    """
    table = read_table(file)
    return table.dataset(), table


def remember(file, table: Table, version: int) -> None:
    """Keep what the choice needs when the file has one to make; forget it otherwise."""
    for key in [key for key in st.session_state if str(key).startswith(_PREFIX)]:
        del st.session_state[key]
    st.session_state.pop(_ERROR, None)
    if table.is_plain:
        st.session_state.pop(_FILE, None)
    else:
        st.session_state[_FILE] = (file.name, file.getvalue(), version)


def forget() -> None:
    """Drop the file once its data is no longer the user's data."""
    st.session_state.pop(_FILE, None)


def _choice(table: Table) -> dict:
    """The choice the widgets hold, with the table's defaults for what they do not hold yet."""
    label = st.session_state.get(f"{_PREFIX}label", table.label)
    classes = table.classes(label)
    first = st.session_state.get(f"{_PREFIX}first.{label}", classes[0])
    second = st.session_state.get(f"{_PREFIX}second.{label}", classes[1])
    return dict(x1=st.session_state.get(f"{_PREFIX}x1", table.x1),
                x2=st.session_state.get(f"{_PREFIX}x2", table.x2),
                label=label, classes=(first, second))


def file_choice(*, version: int, set_user_data: Callable[[Dataset], None]) -> None:
    """Draw the choice under the uploader while the user's data is an uploaded wider file.

    Parameters
    ----------
    version : int
        The user data's current version: the choice shows only while the
        data is the file's (an edit, Clear or Undo hides it).
    set_user_data : callable
        Stores a new choice's data set as the user's data (undoable).
    """
    held = st.session_state.get(_FILE)
    if held is None:
        return
    name, content, made = held
    if made != version:
        forget()
        return
    table = _table(content, name)

    def apply() -> None:
        try:
            data = table.dataset(**_choice(table))
        except ValueError as error:
            st.session_state[_ERROR] = str(error)
            return
        st.session_state[_ERROR] = None
        set_user_data(data)
        st.session_state[_FILE] = (name, content, made + 1)

    columns = table.columns
    st.caption(f"This file has {len(columns)} columns and "
               f"{len(table.classes(_choice(table)['label']))} classes in its label column: "
               "choose two coordinates, the label and two classes.")
    left, right = st.columns(2)
    left.selectbox("x₁", table.numeric, index=table.numeric.index(table.x1),
                   format_func=columns.__getitem__, key=f"{_PREFIX}x1", on_change=apply)
    right.selectbox("x₂", table.numeric, index=table.numeric.index(table.x2),
                    format_func=columns.__getitem__, key=f"{_PREFIX}x2", on_change=apply)
    label = st.selectbox("Label column", table.labels, index=table.labels.index(table.label),
                         format_func=columns.__getitem__, key=f"{_PREFIX}label", on_change=apply)
    classes = table.classes(label)
    left, right = st.columns(2)
    left.selectbox("Class", classes, key=f"{_PREFIX}first.{label}", on_change=apply)
    right.selectbox("against", (*classes, REST), index=1, key=f"{_PREFIX}second.{label}",
                    format_func=lambda name: "all the others" if name == REST else name,
                    on_change=apply)
    if st.session_state.get(_ERROR):
        st.error(md(st.session_state[_ERROR]) + "  \nThe previous choice is kept.", icon="⚠️")
