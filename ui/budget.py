"""Each lesson's data size: above it, a seeded sample with a notice, never a silent cut."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

import streamlit as st

from core.runs import Stream
from datasets import Dataset
from datasets.sample import subsample
from ui import first_screen

# The most points each lesson teaches with (the generators' sliders go to 1,000 too).
# Above it a lesson would cost one server process more than its budget per view
# (bench/budget.py: <= 5 s CPU, <= 400 MB, settled <= 20 s on the largest upload)
# and draw more points than a chart can show apart.
LIMITS = {
    "step_through": 1000,
    "margin": 1000,
    # its exact search for a repeat costs with the loop's length, which grows with the points
    "nonseparable": 500,
    "svm": 1000,
    "variants": 1000,
    "variants.kernel": 1000,
}


@st.cache_data(max_entries=16, show_spinner=False)
def _sample(data: Dataset, size: int) -> Dataset:
    """The seeded sample, built once per data set and size."""
    return subsample(data, size=size, seed=0)


def lesson_data(data: Dataset, *, view: str) -> Dataset:
    """Return the data a lesson works on, with a notice when it is a sample.

    Parameters
    ----------
    data : Dataset
        The sidebar's data set.
    view : str
        A key of :data:`LIMITS`.

    Returns
    -------
    Dataset
        ``data`` itself when it has at most the view's limit of points, else
        a seeded random sample of that many (the same every time, both
        classes in proportion, in the data's order), announced above the
        lesson.
    """
    limit = LIMITS[view]
    if len(data) <= limit:
        return data
    first_screen.item(sample_notice, limit, len(data))
    return _sample(data, limit)


def sample_notice(limit: int, points: int) -> None:
    """Over a lesson: it works on a sample of ``limit`` of the data's ``points``."""
    st.info(f"This lesson works with at most {limit:,} points and the data has {points:,}, "
            f"so it uses a random sample of {limit:,} (the same one every time, with both "
            "classes in proportion). The other lessons sample in the same way; Your data "
            "keeps every point.", icon=":material/filter_alt:")


@contextmanager
def progress(text: str) -> Iterator[Callable[[float], None]]:
    """A progress bar while work that can take more than a second runs; gone when it ends.

    Yields a callback that takes the share done (0 to 1); the bar moves at most 100
    times. Inside an ``st.cache_data`` function the bar is part of what runs on a cache
    miss only, and a cache hit replays it already removed.
    """
    bar = st.progress(0.0, text=text)
    shown = 0

    def report(done: float) -> None:
        nonlocal shown
        percent = int(100 * min(max(done, 0.0), 1.0))
        if percent > shown:
            shown = percent
            bar.progress(percent / 100, text=text)

    try:
        yield report
    finally:
        bar.empty()


def counted(run, total: int, report: Callable[[float], None]) -> Stream:
    """The run's steps as they are read, telling ``report`` the share of ``total`` read so far."""

    def steps():
        for k, step in enumerate(run, start=1):
            if k % 256 == 0:
                report(k / total)
            yield step

    return Stream(steps(), run)
