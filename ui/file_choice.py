"""The choice of columns and classes for an uploaded file wider than x1, x2, label."""

from __future__ import annotations

import io
from collections.abc import Callable

import streamlit as st

from datasets import Dataset
from datasets.loader import REST, Table, read_table
from datasets.sheets import sheet_names
from ui.outside import md
from ui.user_data import user_data

_FILE = "data.file_choice"  # (file name, its bytes, the user-data version it produced)
_ERROR = "data.file_choice_error"
_PREFIX = "file."
SHEETS = "data.file_sheets"  # (file name, bytes, its sheets, the one read) of a workbook
NOTES = "data.file_notes"  # (the user-data version they describe, what the file's labels meant)
_CARRIED = "data.file_carried"  # the choice an upload made, for remember() to set


class _Named(io.BytesIO):
    """The upload's bytes under its file name, as the loader reads a file object."""

    def __init__(self, content: bytes, name: str):
        super().__init__(content)
        self.name = name


@st.cache_resource(max_entries=4, show_spinner=False)
def _table(content: bytes, name: str, sheet: str | None = None) -> Table:
    """The parsed file, shared by the reruns that change the choice (a Table is immutable)."""
    return read_table(_Named(content, name), sheet=sheet)


def named(content: bytes, name: str) -> io.BytesIO:
    """Bytes as an uploaded file (pasted cells, a workbook's other sheet)."""
    return _Named(content, name)


def _first_sheet(file) -> tuple[Table, str | None]:
    """The workbook's first sheet that reads (a sheet of notes before the data's is passed
    over), or the file itself when it is text; the first sheet's message when none reads."""
    content = file.getvalue()
    names = sheet_names(content)
    st.session_state[SHEETS] = None
    if len(names) < 2:
        return read_table(_Named(content, file.name)), None
    first_error = None
    for sheet in names:
        try:
            table = _table(content, file.name, sheet)
        except ValueError as error:
            first_error = first_error or error
            continue
        return table, sheet
    raise first_error


def load_upload(file, sheet: str | None = None) -> tuple[Dataset, Table]:
    """Read an uploaded file, keeping what the student chose for the previous file where it fits.

    Parameters
    ----------
    file : UploadedFile
        The sidebar uploader's file.

    Returns
    -------
    (Dataset, Table)
        The data set to use and the table it came from. The columns chosen
        for the previous file stay chosen when this file has columns of the
        same names; the class +1 stays when this file has a class of that
        name; everything else is this file's default.

    Raises
    ------
    ValueError
        The loader's message.
    """
    if sheet is None:
        table, sheet = _first_sheet(file)
    else:
        table = _table(file.getvalue(), file.name, sheet)
    if sheet is not None:
        st.session_state[SHEETS] = (file.name, file.getvalue(), sheet_names(file.getvalue()),
                                    sheet)
    choice = _carried(table)
    try:
        data = table.dataset(**choice, positive=_positive())
    except ValueError:  # the old names make no choice here: this file's defaults
        choice = _defaults(table)
        data = table.dataset(positive=_positive())
    st.session_state[_CARRIED] = choice
    return data, table


def _positive() -> str | None:
    """The user's data's class +1, the student's choice to keep."""
    data = user_data()
    return data.classes[1] if data is not None else None


def _defaults(table: Table) -> dict:
    """The table's own choice, in the widgets' terms."""
    classes = table.classes(table.label)
    return dict(x1=table.x1, x2=table.x2, label=table.label, classes=(classes[0], classes[1]))


def _carried(table: Table) -> dict:
    """The previous file's choice by column and class names, where this table has them."""
    choice = _defaults(table)
    held = st.session_state.get(_FILE)
    if held is None:
        return choice
    before = _table(held[1], held[0])
    old = _choice(before)
    names = {name: i for i, name in reversed(list(enumerate(table.columns)))}
    for which, allowed in (("x1", table.numeric), ("x2", table.numeric), ("label", table.labels)):
        index = names.get(before.columns[old[which]])
        if index is not None and index in allowed:
            choice[which] = index
    if choice["label"] != table.label:
        classes = table.classes(choice["label"])
        choice["classes"] = (classes[0], classes[1])
    kept = [name for name in old["classes"] if name in table.classes(choice["label"])]
    if len(kept) == 2 and before.columns[old["label"]] == table.columns[choice["label"]]:
        choice["classes"] = tuple(kept)
    return choice


def remember(file, table: Table, version: int) -> None:
    """Keep what the choice needs when the file has one to make; forget it otherwise.

    The pickers are set to the new file's choice, not only forgotten: a
    picker keeps its identity (its key) from file to file, and the page
    would go on showing the old file's column until told the new one.
    """
    for key in [key for key in st.session_state if str(key).startswith(_PREFIX)]:
        del st.session_state[key]
    st.session_state.pop(_ERROR, None)
    choice = st.session_state.pop(_CARRIED, None) or _defaults(table)
    st.session_state[NOTES] = (version, table.notes(choice["label"]))
    if table.is_plain:
        st.session_state.pop(_FILE, None)
        return
    st.session_state[_FILE] = (file.name, file.getvalue(), version)
    label = choice["label"]
    st.session_state.update({
        f"{_PREFIX}x1": choice["x1"], f"{_PREFIX}x2": choice["x2"], f"{_PREFIX}label": label,
        f"{_PREFIX}first.{label}": choice["classes"][0],
        f"{_PREFIX}second.{label}": choice["classes"][1],
    })


def sheet_picker(version: int, on_sheet: Callable[[str], None]) -> None:
    """The workbook's sheets, while the user's data is one of them (a workbook of several)."""
    held = st.session_state.get(SHEETS)
    made, _ = st.session_state.get(NOTES, (None, ()))
    if held is None or made != version:
        return
    name, _, sheets, sheet = held
    st.selectbox("Sheet", sheets, index=sheets.index(sheet), key=f"data.sheet.{version}",
                 on_change=lambda: on_sheet(st.session_state[f"data.sheet.{version}"]),
                 help=f"The sheets of {name}; the points come from the one chosen.")


def notes(version: int) -> tuple[str, ...]:
    """How the file's labels were read, while the user's data is the file's (else nothing)."""
    made, said = st.session_state.get(NOTES, (None, ()))
    return said if made == version else ()


def follow(before: int, after: int) -> None:
    """Keep the file's choice and notes for the data after an edit of its classes' signs."""
    held = st.session_state.get(_FILE)
    if held is not None and held[2] == before:
        st.session_state[_FILE] = (*held[:2], after)
    made, said = st.session_state.get(NOTES, (None, ()))
    if made == before:
        st.session_state[NOTES] = (after, said)


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


def _index(options: tuple, default: int, key: str) -> int:
    """The picker's first index: none once its key holds a value (Streamlit warns of both)."""
    return 0 if f"{_PREFIX}{key}" in st.session_state else options.index(default)


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
            data = table.dataset(**_choice(table), positive=_positive())
        except ValueError as error:
            st.session_state[_ERROR] = str(error)
            return
        st.session_state[_ERROR] = None
        set_user_data(data)
        st.session_state[_FILE] = (name, content, made + 1)
        st.session_state[NOTES] = (made + 1, table.notes(_choice(table)["label"]))

    columns = table.columns
    st.caption(f"This file has {len(columns)} columns and "
               f"{len(table.classes(_choice(table)['label']))} classes in its label column: "
               "choose two coordinates, the label and two classes.")
    left, right = st.columns(2)
    left.selectbox("x₁", table.numeric, index=_index(table.numeric, table.x1, "x1"),
                   format_func=columns.__getitem__, key=f"{_PREFIX}x1", on_change=apply)
    right.selectbox("x₂", table.numeric, index=_index(table.numeric, table.x2, "x2"),
                    format_func=columns.__getitem__, key=f"{_PREFIX}x2", on_change=apply)
    label = st.selectbox("Label column", table.labels,
                         index=_index(table.labels, table.label, "label"),
                         format_func=columns.__getitem__, key=f"{_PREFIX}label", on_change=apply)
    classes = table.classes(label)
    left, right = st.columns(2)
    left.selectbox("Class", classes, key=f"{_PREFIX}first.{label}", on_change=apply)
    right.selectbox("against", (*classes, REST), index=_index((0, 1), 1, f"second.{label}"),
                    key=f"{_PREFIX}second.{label}",
                    format_func=lambda name: "all the others" if name == REST else name,
                    on_change=apply)
    if st.session_state.get(_ERROR):
        st.error(md(st.session_state[_ERROR]) + "  \nThe previous choice is kept.", icon="⚠️")
