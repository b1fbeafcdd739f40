"""The largest upload: every lesson works on its budget's sample and says so."""

from __future__ import annotations

import numpy as np
import pytest

from datasets.loader import MAX_ROWS
from tests.apptest import assert_clean, open_app, switch, upload
from ui.budget import LIMITS

LESSONS = ["step_through", "margin", "nonseparable", "svm", "variants"]


def largest_upload() -> bytes:
    rng = np.random.default_rng(0)
    X = rng.normal(scale=3.0, size=(MAX_ROWS, 2)).round(3)
    labels = np.where(X[:, 0] + 0.5 * X[:, 1] + rng.normal(size=MAX_ROWS) > 0, "yes", "no")
    return ("x1,x2,label\n" + "".join(f"{a},{b},{c}\n" for (a, b), c in
                                     zip(X.tolist(), labels, strict=True))).encode()


@pytest.fixture(scope="module")
def content() -> bytes:
    return largest_upload()


@pytest.mark.parametrize("page", LESSONS)
def test_each_lesson_samples_the_largest_upload_with_a_notice(content, page):
    at = open_app()
    upload(at, "largest.csv", content)
    switch(at, page).run(timeout=120)
    assert_clean(at)
    notices = [info.value for info in at.info if "random sample" in info.value]
    assert notices and f"at most {LIMITS[page]:,} points" in notices[0]
    assert "20,000" in notices[0]


def test_your_data_keeps_every_point(content):
    at = open_app()
    upload(at, "largest.csv", content)
    switch(at, "your_data").run(timeout=120)
    assert_clean(at)
    assert not [info for info in at.info if "random sample" in info.value]
    caption = next(c.value for c in at.main.caption if "points ·" in c.value)
    assert caption.startswith("20,000 points · 9,955 of class −1")
    assert "the canvas shows a random sample of 2,000 of them" in caption


def _undo_history_script():
    import numpy as np
    import streamlit as st

    from datasets import Dataset
    from ui.user_data import can_undo, set_user_data, undo

    rng = np.random.default_rng(0)
    for k in range(12):
        n = 20_000 if k % 2 else 40
        set_user_data(Dataset(f"d{k}", rng.normal(size=(n, 2)), np.where(np.arange(n) % 2, 1, -1)))
    history = st.session_state["data.user_history"]
    st.write(f"held {sum(len(d) for d in history if d is not None)}")
    steps = 0
    while can_undo():
        undo()
        steps += 1
    st.write(f"undo steps {steps}")


def test_undo_history_holds_a_bounded_number_of_points():
    from streamlit.testing.v1 import AppTest

    from ui.user_data import UNDO_POINTS

    at = AppTest.from_function(_undo_history_script).run()
    assert_clean(at)
    held = int(at.markdown[0].value.split()[-1])
    assert 20_000 <= held <= UNDO_POINTS
    assert int(at.markdown[1].value.split()[-1]) >= 5  # several steps back still work


def test_a_counted_run_is_the_run_and_reports_its_share_read():
    from core.kernel import kernel_perceptron
    from core.trace import record
    from datasets.builtin import noisy
    from ui.budget import counted

    data = noisy(60, 0.5, 0)
    shares: list[float] = []
    run = kernel_perceptron(data.X, data.y, max_epochs=20)
    seen = record(counted(run, 1200, shares.append), limit=1000)
    plain = record(kernel_perceptron(data.X, data.y, max_epochs=20), limit=1000)
    np.testing.assert_array_equal(seen.t, plain.t)
    np.testing.assert_array_equal(seen.b, plain.b)
    assert seen.exact == plain.exact and seen.complete == plain.complete
    assert shares == sorted(shares) and shares[0] > 0 and shares[-1] <= 1000 / 1200 + 1e-9


def test_the_progress_bar_is_gone_once_the_work_is_done():
    at = open_app("nonseparable")
    assert_clean(at)
    assert not at.get("progress")  # replayed from the cache or drawn live, it was removed
