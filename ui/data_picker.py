"""The sidebar data picker shared by every lesson."""

from __future__ import annotations

import streamlit as st

from core.words import plural
from datasets import Dataset
from datasets.builtin import BUILTIN, GENERATORS
from datasets.loader import MAX_BYTES, MAX_ROWS
from ui import file_choice, url_state
from ui.lecture import lecture_toggle
from ui.outside import md
from ui.settings import (
    DATA,
    DATA_CHOICE_DEFAULT,
    DATA_CHOICE_KEY,
    DATA_N,
    DATA_SEED,
    DATA_SHAPES,
    defaults,
)
from ui.state import keep_alive
from ui.user_data import set_user_data, user_data, version

YOUR_DATA = "Your data"
_CHOICE = DATA_CHOICE_KEY
_ERROR = "data.error"
_REQUEST = "data.request"
_PASTE = "data.paste"
PASTED = "Pasted cells.csv"  # its stem names the data set


@st.cache_data(max_entries=64, show_spinner=False)
def _builtin(name: str) -> Dataset:
    """Built-in sets are cheap, but Iris comes from scikit-learn: build each once."""
    return BUILTIN[name]()


@st.cache_data(max_entries=64, show_spinner=False)
def _generated(name: str, n: int, shape: float, seed: int) -> Dataset:
    """A generated set for the given parameters."""
    generator = GENERATORS[name]
    return generator.make(n, shape, seed)


def _on_upload() -> None:
    """Load the new file; on failure keep the previous data and remember the message."""
    file = st.session_state.get("data.file")
    if file is not None:
        _load(file)


def _load(file, sheet: str | None = None) -> None:
    """Make a file (uploaded, pasted, a workbook's other sheet) the user's data, or say why
    not and keep the data there was."""
    try:
        data, table = file_choice.load_upload(file, sheet)
        set_user_data(data)
        file_choice.remember(file, table, version())
        st.session_state[_ERROR] = None
        choose_next_run(YOUR_DATA)
    except ValueError as error:
        st.session_state[_ERROR] = f"{file.name}: {error}"


def _on_sheet(sheet: str) -> None:
    """Read another sheet of the workbook the data came from."""
    held = st.session_state.get(file_choice.SHEETS)
    if held is not None:
        _load(file_choice.named(held[1], held[0]), sheet)


def _on_paste() -> None:
    """Read the pasted cells as a file: tab-separated as a spreadsheet copies them, or CSV."""
    text = st.session_state.get(_PASTE, "")
    if not text.strip():
        st.session_state[_ERROR] = ("Pasted cells: nothing was pasted; copy the cells of x1, "
                                    "x2 and the label (with their header) and paste them here")
        return
    if "\t" in text and ";" not in text:
        # a spreadsheet copies its cells separated by tabs, in its locale's decimals: as
        # semicolons they read as its "Save as CSV" would write them (a decimal comma too)
        text = text.replace("\t", ";")
    content = text.encode("utf-8")
    if len(content) > MAX_BYTES:
        st.session_state[_ERROR] = (f"Pasted cells: {len(content) / 1e6:.1f} MB; the limit is "
                                    f"{MAX_BYTES / 1e6:g} MB")
        return
    _load(file_choice.named(content, PASTED))


def _paste_box() -> None:
    """A box for cells copied from a spreadsheet (or typed CSV), read as an uploaded file."""
    with st.expander("Paste cells", icon=":material/content_paste:"):
        st.text_area("Cells copied from a spreadsheet, or CSV text", key=_PASTE, height=120,
                     placeholder="Hours studied, Hours slept, Passed …",
                     help="Select the cells of x1, x2 and the label in your spreadsheet (the "
                          "header too), copy, and paste them here.")
        st.button("Use the pasted cells", key="data.paste_use", on_click=_on_paste,
                  icon=":material/input:")


def _swap_classes() -> None:
    """Make the other class +1: every y changes sign, and the names change places."""
    data = user_data()
    if data is None:
        return
    before = version()
    set_user_data(Dataset(data.name, data.X, -data.y, data.classes[::-1], data.columns))
    file_choice.follow(before, version())


def _positive_picker(data: Dataset) -> None:
    """The student's choice of class +1 (the link holds it: its y and class names follow)."""
    st.radio("Class +1", (data.classes[1], data.classes[0]), index=0, horizontal=True,
             key=f"data.positive.{version()}", on_change=_swap_classes, format_func=md,
             help="The class the perceptron should answer +1 for (w·x + b > 0); the other is −1.")


def choose_next_run(name: str) -> None:
    """Make ``name`` the picker's choice from the next rerun on (safe after the picker is drawn).

    An upload and an edit on the canvas both make the user's points the choice this way.
    """
    st.session_state[_REQUEST] = name


def data_picker() -> Dataset:
    """Draw the picker in the sidebar and return the chosen data set.

    The page's ``Lesson`` has already read the link (ui.lesson).
    """
    keep_alive({_CHOICE: DATA_CHOICE_DEFAULT, **defaults(DATA)})
    if _REQUEST in st.session_state:
        st.session_state[_CHOICE] = st.session_state.pop(_REQUEST)
    options = list(BUILTIN) + list(GENERATORS)
    mine = user_data()
    if mine is not None and len(mine) > 0:
        options.append(YOUR_DATA)
    if st.session_state[_CHOICE] not in options:
        st.session_state[_CHOICE] = options[0]

    lecture_toggle()
    st.subheader("Data")
    choice = st.selectbox("Data set", options, key=_CHOICE)
    if choice in GENERATORS:
        n = DATA_N.draw()
        shape = DATA_SHAPES[GENERATORS[choice].shape_name].draw()
        seed = DATA_SEED.draw()
        data = _generated(choice, int(n), float(shape), int(seed))
    elif choice == YOUR_DATA:
        data = mine
    else:
        data = _builtin(choice)

    st.file_uploader("Upload a CSV or a spreadsheet (x1, x2, label)",
                     type=["csv", "txt", "tsv", "dat", "xlsx", "ods"],
                     key="data.file", on_change=_on_upload,
                     help="Two numeric columns and a label column: -1/+1, 0/1, true/false "
                          "or any names. A header is optional; comma, semicolon, tab or "
                          "space separated, or an Excel (.xlsx) or LibreOffice (.ods) "
                          "workbook. A wider file, or more than two classes, lets you "
                          "choose the columns and the two classes. At most "
                          f"{MAX_BYTES / 1_000_000:g} MB and {MAX_ROWS:,} rows.")
    _paste_box()
    if st.session_state.get(_ERROR):
        st.error(md(st.session_state[_ERROR]) + "  \nThe previous data is kept.", icon="⚠️")
    if choice == YOUR_DATA:
        file_choice.sheet_picker(version(), _on_sheet)
        file_choice.file_choice(version=version(), set_user_data=set_user_data)
        for note in file_choice.notes(version()):
            st.caption(md(note))
    st.caption(f"{plural(len(data), 'point')} · classes: −1 = {md(data.classes[0])}, "
               f"+1 = {md(data.classes[1])}")
    if choice == YOUR_DATA:
        _positive_picker(data)
    url_state.write_data(choice, data, your_data=YOUR_DATA)
    return data
