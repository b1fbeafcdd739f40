"""Every sentence a student reads about a run is computed from the run.

Each test sets up a case where a sentence written beside the numbers would be
false (a tie after an update, a descent that ran out of epochs with examples
inside its margin, capped runs that did not converge, a descent far from its
minimiser, a flat error chart, ...) and checks that the page does not say it,
and says what is true instead. The references are independent: Fractions,
brute force, scikit-learn.
"""

from __future__ import annotations

import numpy as np

from core.descent import svm_sgd
from core.trace import record
from core.words import FLOATS
from datasets.builtin import notes_four_points
from tests.apptest import assert_clean, by_key, open_app, stepper_run, sync


def choose_data(at, name):
    by_key(at.selectbox, "data.choice").set_value(name).run()
    assert_clean(at)
    return at


def part(at, key, name):
    by_key(at.segmented_control, key).set_value(name).run()
    assert_clean(at)
    return at


def captions(at) -> str:
    return "\n".join(c.value for c in at.caption)


# ---------------------------------------------------------------- Perceptron vs SVM


def test_the_svm_past_its_end_says_its_epochs_ran_out_and_who_is_inside_the_margin():
    # the notes' 4 points with 10 SVM epochs: the descent stops at step 40 because its epochs
    # ran out, with rows 0 and 1 at y·a = 0.505 and 0.943, inside the margin
    at = part(open_app("svm"), "svm.section", "Train side by side")
    by_key(at.number_input, "svm.epochs").set_value(10).run()
    assert_clean(at)
    data = notes_four_points()
    svm = record(svm_sgd(data.X, data.y, lam=0.01, eta=1.0, max_epochs=10))
    margins = data.y * (data.X @ svm.W[-1] + svm.b[-1])
    inside = np.flatnonzero(margins < 1)
    assert svm.steps == 40 and inside.tolist() == [0, 1]
    header, columns = stepper_run(at, "svm.svm_run")
    assert (columns["index"][41:] == -1).all()  # the perceptron's run goes on past step 40
    message = header["result"]["message"]
    assert "no example was left inside the margin" not in message
    assert message.startswith("The descent ended at step 40, when its 10 epochs ran out")
    assert (f"2 examples are still inside the margin (y·a < 1): rows 0 and 1, at y·a = "
            f"{margins[0]:.3g} and {margins[1]:.3g}.") in message
    assert header["exact"] is False and header["floats"]["mark"] == FLOATS
    sync(at, "svm", 45)
    assert f"SVM, past its end: {message}" in captions(at)
