"""Your data: click points onto the plane, erase, undo, edit the table, download the CSV."""

import streamlit as st

from datasets.editing import GRID_STEP
from lessons.your_data.parts import PAGE, PARTS
from ui.data_picker import YOUR_DATA
from ui.lesson import Lesson


def page() -> None:
    """Your data: the data picker and the title, then the canvas with its tools and table."""
    lesson = Lesson(PAGE, parts=PARTS)
    with st.sidebar:
        chosen = lesson.data()

    lesson.title(
        "Your data",
        intro=f"Click the plane to add a point of the chosen class; points snap to a {GRID_STEP:g} "
              "grid so runs on them stay exact. Erase removes the point nearest the click. Your "
              f"points stay for this browser session and become “{YOUR_DATA}” in every lesson's "
              "data picker.",
    )
    lesson.draw_parts(chosen)
