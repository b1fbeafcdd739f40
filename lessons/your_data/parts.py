"""Your data's parts: the canvas to draw points on, beside its tools and the table."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from core.words import plural
from datasets import Dataset
from datasets.editing import add_point, erase_nearest, from_table, to_csv
from lessons.your_data.figures import CANVAS_POINTS, canvas_figure
from ui.data_picker import YOUR_DATA, choose_next_run
from ui.lesson import Lesson, Parts, cannot_go_on
from ui.outside import md
from ui.user_data import can_undo, set_user_data, undo, user_data, version

PAGE = "your_data"
# The parts, each drawn from the sidebar's data set.
PARTS = Parts()


@PARTS.part("canvas")
def canvas(lesson: Lesson, chosen: Dataset) -> None:
    """Click to add or erase points; undo, clear, start from the sidebar's data; the table."""
    mine = user_data()
    if mine is None:
        mine = Dataset("Your points", np.empty((0, 2)), np.empty(0))
    X, y, classes = mine.X, mine.y, mine.classes

    def _save(X, y) -> None:
        """Store edited points under the user's class names and make them the chosen data."""
        set_user_data(Dataset(mine.name, X, y, classes, mine.columns))
        choose_next_run(YOUR_DATA)

    left, right = st.columns([0.62, 0.38])
    # the canvas first: on a projector the page's first run ends at it (ui.rest_later), and
    # its tools and table come with the rest
    with left:
        click = lesson.chart(canvas_figure(X, y, classes), key=f"canvas.{version()}",
                             clicks=True, alt="Drawing canvas: click to add or erase points")
        st.caption(f"{plural(len(y), 'point')} · {int((y < 0).sum()):,} of class −1, "
                   f"{int((y > 0).sum()):,} of class +1"
                   + (f" · the canvas shows a random sample of {CANVAS_POINTS:,} of them (the "
                      "table has them all)" if len(y) > CANVAS_POINTS else ""))
    with right:
        tool = st.segmented_control(
            "Tool", ["add -1", "add +1", "erase"], default="add +1", required=True,
            key=f"{PAGE}.tool",
            format_func={"add -1": "● Add −1", "add +1": "■ Add +1", "erase": "✕ Erase"}.get,
            help=f"Class −1 is “{md(classes[0])}”, class +1 is “{md(classes[1])}”.",
        )
        c1, c2, c3 = st.columns(3)
        c1.button("Undo", icon=":material/undo:", on_click=undo, disabled=not can_undo(),
                  key=f"{PAGE}.undo", width="stretch")
        if c2.button("Clear", icon=":material/delete:", disabled=len(y) == 0, key=f"{PAGE}.clear",
                     width="stretch"):
            set_user_data(None)
            st.rerun()
        if c3.button("Start from", icon=":material/content_copy:", key=f"{PAGE}.copy",
                     help=f"Start from “{md(chosen.name)}” (the sidebar's data set)",
                     width="stretch"):
            set_user_data(Dataset(f"{chosen.name} (edited)", chosen.X, chosen.y, chosen.classes,
                                  chosen.columns))
            st.rerun()
        if len(y):
            st.download_button("Download CSV", to_csv(user_data()), file_name="my_points.csv",
                               mime="text/csv", icon=":material/download:", key=f"{PAGE}.download")
        table = pd.DataFrame({"x1": X[:, 0], "x2": X[:, 1],
                              "label": [classes[0] if v < 0 else classes[1] for v in y]},
                             index=pd.RangeIndex(1, len(y) + 1))  # example i, as the notes count
        edited = st.data_editor(
            table, num_rows="dynamic", key=f"{PAGE}.table.{version()}", width="stretch",
            column_config={"label": st.column_config.SelectboxColumn("label", options=list(classes),
                                                                     required=True)},
        )
        if not edited.equals(table):
            try:
                _save(*from_table(edited.itertuples(index=False), classes))
                st.rerun()
            except ValueError as error:
                st.error(f"The table cannot be used: {md(str(error))}. Your points are unchanged.")

    if click is not None:
        x1, x2 = click["x"], click["y"]
        try:
            if tool == "erase":
                _save(*erase_nearest(X, y, x1, x2))
            else:
                _save(*add_point(X, y, x1, x2, -1 if tool == "add -1" else 1))
        except ValueError as error:
            cannot_go_on(str(error))
        st.rerun()
