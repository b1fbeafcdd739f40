"""The class's answers, downloaded as CSV by the lecturer who led it."""

from __future__ import annotations

import streamlit as st

from classroom.results import csv_text
from classroom.state import ClassError
from ui.classroom.store import Unavailable, _address, _ops


def _results_button(code: str, key: str, label: str) -> None:
    """Download the class's answers as CSV (classroom/results.py; what ``GET
    /class/CODE/results`` gives the same key): one row per answer, a summary per question."""
    who = _address()
    try:
        results = _ops(lambda ops: ops.results(who, code, key))
    except (ClassError, Unavailable):
        return  # none kept (an hour after the end), or the store away: nothing to offer now
    now = csv_text(results)

    def fresh() -> str:
        # read as the button is pressed: the answers come without a run of this page
        try:
            return csv_text(_ops(lambda ops: ops.results(who, code, key)))
        except (ClassError, Unavailable):
            return now  # gone or away since: what this run read

    st.download_button(label, data=fresh, file_name=f"class-{code}-answers.csv",
                       mime="text/csv", key="class.results", on_click="ignore",
                       icon=":material/download:",
                       help="Every answer (slide, question, voter number, answer, right or not, "
                            "seconds after the question opened) and a summary per question.")
