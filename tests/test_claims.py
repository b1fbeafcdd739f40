"""Every sentence a student reads about a run is computed from the run.

Each test sets up a case where a sentence written beside the numbers would be
false (a tie after an update, a descent that ran out of epochs with examples
inside its margin, capped runs that did not converge, a descent far from its
minimiser, a flat error chart, ...) and checks that the page does not say it,
and says what is true instead. The references are independent: Fractions,
brute force, scikit-learn.
"""

from __future__ import annotations

import re
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from core.descent import svm_sgd
from core.evaluation import split, trained
from core.trace import record
from core.words import FLOATS
from datasets.builtin import BUILTIN, notes_four_points
from tests.apptest import (
    assert_clean,
    by_key,
    metrics,
    open_app,
    stepper_run,
    switch,
    sync,
    upload,
)
from tests.fraction_rule import F, fraction_visits


def fraction_cyclic(X, y, *, eta=1, w0=None, b0=0, bias=True, epochs=100, stop=True):
    """The rule in fractions, cyclic, one visit at a time: per epoch, the weights at its end
    and its updates; stops after a clean epoch when ``stop``."""
    X = [[F(v) for v in row] for row in np.asarray(X, dtype=float)]
    eta = F(eta)
    w = [Fraction(0)] * len(X[0]) if w0 is None else [F(v) for v in w0]
    b, ends = F(b0), []
    for _ in range(epochs):
        updates = 0
        for x, label in zip(X, y, strict=True):
            label = int(label)
            if label * (sum(wi * xi for wi, xi in zip(w, x, strict=True)) + b) <= 0:
                w = [wi + eta * label * xi for wi, xi in zip(w, x, strict=True)]
                b += eta * label if bias else 0
                updates += 1
        ends.append((tuple(w), b, updates))
        if stop and not updates:
            break
    return ends


def fraction_errors(X, y, w, b) -> int:
    """#{n : y_n (w.x_n + b) <= 0} in fractions."""
    return sum(int(label) * (sum(F(wi) * F(xi) for wi, xi in zip(w, x, strict=True)) + F(b))
               <= 0 for x, label in zip(np.asarray(X, dtype=float), y, strict=True))


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
    at = part(open_app("svm"), "svm.part", "Train side by side")
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


def shifted_iris() -> tuple[np.ndarray, np.ndarray, bytes]:
    """Iris setosa/versicolor (sepal) moved by +15 cm, and as a CSV of one-decimal numbers."""
    data = BUILTIN["Iris: setosa vs versicolor (sepal)"]()
    X = np.round(data.X + 15, 1)
    rows = "".join(f"{a:.1f},{b:.1f},{int(label)}\n"
                   for (a, b), label in zip(X, data.y, strict=True))
    return X, data.y, ("x1,x2,y\n" + rows).encode()


def fraction_wrong(x, label, w, b) -> bool:
    """y (w.x + b) <= 0 in the decimals the floats stand for."""
    a = sum(F(wi) * F(xi) for wi, xi in zip(w, x, strict=True)) + F(b)
    return int(label) * a <= 0


def test_capped_leave_one_out_counts_only_the_runs_that_converged():
    # shifted by 15 cm the training set's R²/γ² is about 119,000: 12 runs are capped to 47
    # epochs, and 2 of the 70 leave-one-out runs stop there unconverged (one of them errs)
    X, y, csv = shifted_iris()
    at = open_app()
    upload(at, "iris_shifted.csv", csv)
    switch(at, "svm").run()
    assert_clean(at)
    part(at, "svm.part", "Generalization")
    by_key(at.slider, "svm.runs").set_value(12).run()
    assert_clean(at)
    train, _ = split(y, test_fraction=0.3, seed=0)
    Xtr, ytr = X[train], y[train]
    cap = 40_000 // (12 * len(train))
    assert cap == 47
    wrong, done = [], []
    for i in range(len(ytr)):  # every run, the reference's own
        keep = np.arange(len(ytr)) != i
        w, b, _ = trained(Xtr[keep], ytr[keep], max_epochs=cap)
        done.append(not any(fraction_wrong(x, t, w, b)
                            for x, t in zip(Xtr[keep], ytr[keep], strict=True)))
        wrong.append(fraction_wrong(Xtr[i], ytr[i], w, b))
    wrong, done = np.array(wrong), np.array(done)
    stuck, counted = int(np.sum(~done)), int(np.sum(wrong & done))
    assert (stuck, counted, int(np.sum(wrong))) == (2, 0, 1)
    shown = metrics(at)
    assert "Leave-one-out errors of the perceptron on the training set" not in shown
    assert shown["Leave-one-out errors of the perceptron on the training set (runs that "
                 "converged)"] == f"{counted} / 68"  # of the runs it counts
    text = captions(at)
    assert "this count is the proof's (*)" not in text
    assert (f"{stuck} of the 70 runs did not converge (of the 2 points they leave out, they err "
            f"on 1), so the count shown is of the 68 that did: {counted}.") in text
    assert f"here it lies between {counted} and {counted + stuck}" in text


def notes_J(X, y, w, b, lam) -> float:
    """mean hinge + (λ/2)‖w‖², written out."""
    return float(np.mean(np.maximum(0.0, 1.0 - y * (X @ w + b))) + lam / 2 * w @ w)


def test_scikit_learn_part_says_how_far_the_descent_is_from_the_minimum():
    # Iris setosa/versicolor, λ = 0.01, 200 epochs: J = 0.2688 against SVC's 0.1049, 2.6 times
    # the minimum, while w₂ differs by 0.013: the costs do not agree more closely
    from sklearn.svm import SVC

    data = BUILTIN["Iris: setosa vs versicolor (sepal)"]()
    at = part(choose_data(open_app("svm"), "Iris: setosa vs versicolor (sepal)"), "svm.part",
              "In scikit-learn")
    run = record(svm_sgd(data.X, data.y, lam=0.01, eta=1.0, max_epochs=200))
    J = notes_J(data.X, data.y, run.W[-1], run.b[-1], 0.01)
    svc = SVC(kernel="linear", C=1 / (0.01 * len(data.y)), tol=1e-10).fit(data.X, data.y)
    J_star = notes_J(data.X, data.y, svc.coef_[0], svc.intercept_[0], 0.01)
    assert J / J_star > 2.5
    text = captions(at)
    assert "agree more closely than their weights" not in text
    gap = metrics(at)["How far the descent is from the minimum: J − J*"]
    assert gap.startswith("≈ ") and abs(float(gap.removeprefix("≈ ")) - (J - J_star)) < 1e-3
    assert re.search(r"After 200 epochs its J is ≈ ([0-9.]+) against J\* ≈ ([0-9.]+)", text)
    said = re.search(r"its J is ≈ ([0-9.]+) against J\* ≈ ([0-9.]+)", text).groups()
    assert [float(v) for v in said] == pytest.approx([J, J_star], rel=1e-3)
    assert f"{(J - J_star) / J_star:.0%} above the minimum" in text
    assert FLOATS in text


def test_the_draws_say_how_the_bound_really_moves_with_n():
    # separable(40, 0.2, seed 0): E[R²/γ²] grows with N, so the bound falls from 2.87 to 1.12
    # between N = 5 and 40, a factor of 2.6, not the 41/6 = 6.8 of 1/(N + 1)
    at = part(choose_data(open_app("svm"), "Separable (generator)"), "svm.part",
              "Generalization")
    by_key(at.button, "svm.draws").click()
    at.run()
    assert_clean(at)
    table, = (d.value for d in at.dataframe if "mean test error" in d.value.columns)
    bounds = table["E[R²/γ²]/(N + 1)"].tolist()
    assert round(bounds[0], 2) == 2.87 and round(bounds[-1], 2) == 1.12
    text = captions(at)
    assert "shrinks like 1/(N + 1)" not in text
    assert (f"From N = 5 to N = 40 the bound goes from {bounds[0]:.3g} to {bounds[-1]:.3g}, "
            f"down by a factor of {bounds[0] / bounds[-1]:.2g}, while 1/(N + 1) alone falls by "
            f"{41 / 6:.2g}: E[R²/γ²] grows with N, from {6 * bounds[0]:.3g} to "
            f"{41 * bounds[-1]:.3g}") in text



# ---------------------------------------------------------------- Non-separable data


def test_xor_errors_chart_is_flat_and_the_caption_says_so():
    # XOR (0/1), cyclic, w = 0: the weights are back at 0 at every epoch's end, so the last
    # weights make 4 errors at every one: nothing "keeps jumping"
    data = BUILTIN["XOR (0/1)"]()
    at = choose_data(open_app("nonseparable"), "XOR (0/1)")
    ends = fraction_cyclic(data.X, data.y, epochs=50, stop=False)
    assert all(w == (0, 0) and b == 0 for w, b, _ in ends)
    assert {fraction_errors(data.X, data.y, w, b) for w, b, _ in ends} == {4}
    text = captions(at)
    assert "keep jumping" not in text and "keep jumping" not in str(
        [e.value for e in (*at.info, *at.warning, *at.success)])
    assert ("The last weights make 4 errors at the end of every epoch: they are the same "
            "weights at every epoch's end, (w, b) = (0, 0, 0).") in text


def test_the_pocket_is_the_seeds_book_chapters_and_gallants_is_named_beside_it():
    # the book chapter in the seeds keeps a new w only when it makes fewer training errors;
    # Gallant's original keeps the longest run of correct classifications
    at = choose_data(open_app("nonseparable"), "XOR (0/1)")
    text = captions(at)
    assert "the notes do not cover it" not in text
    assert "Gallant's pocket algorithm: the perceptron keeps" not in text
    assert "Kowalczyk's *Support Vector Machines Succinctly*" in text
    assert "fewer training errors than the one already there" in text
    assert "longest run of consecutive correct classifications" in text


def test_the_errors_sentence_follows_the_report_where_errors_do_move():
    from core.pocket import epoch_report
    from lessons.nonseparable.parts import bounded_sentence, errors_sentence

    data = BUILTIN["Iris: versicolor vs virginica (petal)"]()
    report = epoch_report(data.X, data.y, max_epochs=30, order="shuffle_each_epoch", seed=3)
    ends = report.errors_last
    assert ends.min() < ends.max()  # here they do move
    text = errors_sentence(report)
    assert (f"The last weights' errors move between {ends.min()} and {ends.max()} from one "
            f"epoch's end to the next (they change {np.count_nonzero(np.diff(ends))} ") in text
    assert "at the end of every epoch" not in text
    assert f"move between {ends.min()} and {ends.max()}" in bounded_sentence(report)


# ---------------------------------------------------------------- runs in floats say so


FLOAT_POINTS = (b"x1,x2,y\n0.1234567,1.7654321,-1\n1.3333333,0.4142136,1\n"
                b"2.7182818,1.4142136,1\n0.5772157,2.2360680,-1\n")


def floats_app(page):
    """The app on ``page`` with points that are not short decimals (so every run is in floats)."""
    at = open_app()
    upload(at, "irrational.csv", FLOAT_POINTS)
    switch(at, page).run()
    assert_clean(at)
    return at


def marks(at) -> int:
    """How many captions carry the floats mark."""
    return sum(FLOATS in c.value for c in at.caption)


def test_a_run_in_floats_is_marked_on_margin_over_its_stepper_and_its_numbers():
    at = floats_app("margin")
    header, _ = stepper_run(at, "margin")
    assert header["exact"] is False and header["floats"]["mark"] == FLOATS
    assert "not short decimals" in header["floats"]["note"]
    assert marks(at) >= 2  # over the stepper, and over the numbers that follow the step
    exact = open_app("margin")  # the notes' points: exact, and no mark anywhere
    assert stepper_run(exact, "margin")[0]["exact"] is True and marks(exact) == 0


def test_the_svm_descent_is_marked_in_floats_even_on_short_decimals():
    at = part(open_app("svm"), "svm.part", "Train side by side")
    lead, _ = stepper_run(at, "svm")
    follow, _ = stepper_run(at, "svm.svm_run")
    assert lead["exact"] is True and "floats" not in lead  # the perceptron on the notes' points
    assert follow["exact"] is False
    assert "η₀/√t is irrational whenever t is not a perfect square" in follow["floats"]["note"]
    assert marks(at) >= 2  # over the descent's stepper and by the margins that follow the step
    at = floats_app("svm")
    part(at, "svm.part", "Train side by side")
    assert stepper_run(at, "svm")[0]["exact"] is False


def test_variants_mark_a_float_run_and_the_rbf_kernel():
    at = floats_app("variants")
    header, _ = stepper_run(at, "variants.avg")
    assert header["exact"] is False and marks(at) >= 2
    at = part(open_app("variants"), "variants.part", "kernel")
    by_key(at.selectbox, "variants.kernel").set_value("rbf").run()
    assert_clean(at)
    header, _ = stepper_run(at, "variants.dual")
    assert header["exact"] is False and "RBF kernel" in header["floats"]["note"]
    assert marks(at) >= 2
    by_key(at.selectbox, "variants.kernel").set_value("polynomial").run()
    assert stepper_run(at, "variants.dual")[0]["exact"] is True and marks(at) == 0


def test_every_stepper_of_every_lesson_says_whether_its_run_is_exact():
    steppers = {"step_through": ["step_through"], "margin": ["margin"],
                "nonseparable": ["nonseparable"]}
    for page, keys in steppers.items():
        at = open_app(page)
        for key in keys:
            assert isinstance(stepper_run(at, key)[0]["exact"], bool), (page, key)
    at = part(open_app("svm"), "svm.part", "Train side by side")
    for key in ("svm", "svm.svm_run"):
        assert isinstance(stepper_run(at, key)[0]["exact"], bool)
    at = open_app("variants")
    assert isinstance(stepper_run(at, "variants.avg")[0]["exact"], bool)
    at = part(at, "variants.part", "kernel")
    assert isinstance(stepper_run(at, "variants.dual")[0]["exact"], bool)
    at = open_app("margin")
    by_key(at.toggle, "margin.pair").set_value(True).run()
    for key in ("margin.pair_left", "margin.pair_right"):
        assert stepper_run(at, key)[0]["exact"] is True


# ---------------------------------------------------------------- every count against fractions

tenths = st.integers(-25, 25)
short_data = st.lists(st.tuples(tenths, tenths, st.sampled_from([-1, 1])), min_size=2,
                      max_size=7)


def as_data(points):
    X = np.array([[a / 10, c / 10] for a, c, _ in points])
    y = np.array([float(label) for *_, label in points])
    return X, y


@hsettings(max_examples=40, deadline=None)
@given(points=short_data, eta=st.sampled_from(["0.1", "0.3", "0.05", "1", "1.5"]),
       bias=st.booleans(), epochs=st.integers(1, 12))
def test_step_through_and_margin_sentences_match_the_fraction_rule(points, eta, bias, epochs):
    from core.perceptron import perceptron
    from core.trace import outcome
    from datasets import Dataset
    from lessons.margin.parts import flip_sentence, update_at

    X, y = as_data(points)
    visits, (w, b) = fraction_visits(X, y, eta=eta, bias=bias, epochs=epochs)
    trace = record(perceptron(X, y, eta=float(eta), bias=bias, max_epochs=epochs))
    assert trace.steps == len(visits)
    # Step through's "Where this run ends": converged, mistakes, epochs, still misclassified
    ended = outcome(trace, X, y, max_epochs=epochs)
    wrong = sum(int(t) * (w[0] * F(x[0]) + w[1] * F(x[1]) + b) <= 0
                for x, t in zip(X, y, strict=True))
    mistakes = sum(updated for *_, updated in visits)
    assert ended.converged == (wrong == 0) and ended.mistakes == mistakes
    if wrong == 0:
        assert ended.message.startswith(f"Converged after {mistakes:,} mistake")
    else:
        assert f"{wrong:,} example" in ended.message and "still misclassified" in ended.message
    # Margin's "Why an update helps": one update enough, or how many on its own
    data = Dataset("points", X, y, ("−1", "+1"))
    for k, (n, w_before, b_before, updated) in enumerate(visits, start=1):
        if not updated:
            continue
        x = [F(v) for v in X[n]]
        before = int(y[n]) * (sum(wi * xi for wi, xi in zip(w_before, x, strict=True))
                              + b_before)
        gain = F(eta) * (sum(xi * xi for xi in x) + (1 if bias else 0))
        sentence = flip_sentence(update_at(data, trace, k, bias=bias, eta=float(eta)))
        if gain == 0:
            assert "no number of them" in sentence
            continue
        count, margin = 0, before
        while margin <= 0:
            margin, count = margin + gain, count + 1
        if count == 1:
            assert sentence.startswith("One update was enough")
        else:
            assert "One update was enough" not in sentence
            assert f"needs {count} updates before y·a > 0" in sentence
            assert ("a tie" in sentence) == (before + gain == 0)


@hsettings(max_examples=30, deadline=None)
@given(points=short_data, epochs=st.integers(1, 10))
def test_nonseparable_sentences_match_the_fraction_rule(points, epochs):
    from core.pocket import epoch_report
    from lessons.nonseparable.parts import bounded_sentence, errors_sentence

    X, y = as_data(points)
    report = epoch_report(X, y, max_epochs=epochs)
    visits, _ = fraction_visits(X, y, eta=1, bias=True, epochs=epochs)
    n = len(y)
    assert len(report.epoch) == len(visits) // n
    rows = [[F(v) for v in x] for x in X]

    def errors(w, b):
        return sum(int(t) * (w[0] * x[0] + w[1] * x[1] + b) <= 0
                   for x, t in zip(rows, y, strict=True))

    # the weights after each visit: those before the next visit, and the run's last
    after = [(w, b) for _, w, b, _ in visits[1:]] + [fraction_visits(X, y, eta=1, bias=True,
                                                                    epochs=epochs)[1]]
    last = [errors(*after[e * n + n - 1]) for e in range(len(report.epoch))]
    best, pocket = errors(*visits[0][1:3]), []
    total_w, total_b, averaged = [Fraction(0)] * 2, Fraction(0), []
    for t, (w, b) in enumerate(after, start=1):
        best = min(best, errors(w, b))
        total_w, total_b = [total_w[0] + w[0], total_w[1] + w[1]], total_b + b
        if t % n == 0:
            pocket.append(best)
            averaged.append(errors(total_w, total_b))
    assert report.errors_last.tolist() == last
    assert report.errors_pocket.tolist() == pocket
    assert report.errors_averaged.tolist() == averaged
    text, bounded = errors_sentence(report), bounded_sentence(report)
    if len(set(last)) == 1:
        assert f"The last weights make {last[0]} errors at the end of every epoch" in text
        assert f"make {last[0]} errors at every epoch's end" in bounded
    else:
        assert f"move between {min(last)} and {max(last)} from one epoch's end" in text
        assert f"move between {min(last)} and {max(last)}" in bounded
    assert f"The pocket's errors are {pocket[-1]} at every epoch's end" in text


@hsettings(max_examples=15, deadline=None)
@given(points=short_data, cap=st.integers(1, 4))
def test_leave_one_out_sentence_matches_the_fraction_rule(points, cap):
    from core.evaluation import leave_one_out
    from lessons.svm.parts import loo_sentence

    X, y = as_data(points)
    found = leave_one_out(X, y, max_epochs=cap)
    wrong, done = [], []
    for i in range(len(y)):
        keep = np.arange(len(y)) != i
        _, (w, b) = fraction_visits(X[keep], y[keep], eta=1, bias=True, epochs=cap)
        rows = [[F(v) for v in x] for x in X]
        wrong.append(int(y[i]) * (w[0] * rows[i][0] + w[1] * rows[i][1] + b) <= 0)
        done.append(all(int(t) * (w[0] * x[0] + w[1] * x[1] + b) > 0
                        for x, t, k in zip(rows, y, keep, strict=True) if k))
    assert found.wrong.tolist() == wrong and found.converged.tolist() == done
    text = loo_sentence(found, 10.0, cap)
    stuck = done.count(False)
    counted = sum(w and d for w, d in zip(wrong, done, strict=True))
    if stuck:
        assert "this count is the proof's (*)" not in text
        assert f"{stuck} of the {len(y)} runs did not converge" in text
        assert f"the count shown is of the {len(y) - stuck} that did: {counted}." in text
    else:
        assert "every run converged, so this count is the proof's (*)" in text


# ---------------------------------------------------------------- sentences on other cases


def test_the_starts_sentence_reads_its_table():
    import pandas as pd

    from lessons.margin.parts import starts_sentence

    table = pd.DataFrame({"η": ["1", "0.1"], "from 0": [22, 22], "from elsewhere": [40, 95],
                          "bound R²/γ²": ["81", "81"]})
    assert "passes the bound for η = 0.1:" in starts_sentence(table)
    table["from elsewhere"] = [40, 60]
    assert "no count here passes the bound" in starts_sentence(table)
    table["from 0"] = [22, 23]
    assert "the counts differ with η" in starts_sentence(table)


def test_the_experiment_sentence_follows_its_runs():
    import pandas as pd

    from lessons.margin.parts import experiment_sentence

    runs = pd.DataFrame({"margin": [0.1, 0.1, 0.5, 0.5], "mistakes": [2, 4, 6, 8],
                         "bound": [10, 10, 12, 12]})
    text = experiment_sentence(runs)
    assert "4 runs: 4 within the bound" in text and "room to spare" in text
    assert "do not fall as the margin grows" in text and "tends to cost" not in text
    runs["mistakes"] = [12, 4, 6, 8]
    assert "some run passed the bound" in experiment_sentence(runs)


def test_the_xor_sentence_follows_the_run_it_describes():
    from core.boolean import train
    from lessons.boolean.parts import xor_run_sentence

    xor = BUILTIN["XOR (0/1)"]()
    run = train(xor.X, xor.y)
    assert run.cycle.first == 1 and run.cycle.period == 1
    assert f"the same {run.cycle.updates} updates every epoch" in xor_run_sentence(run)
    # the 4 points of XOR in another order: the loop starts only at epoch 2, so the weights
    # do not come back to 0 after each epoch
    other = train(xor.X[[0, 3, 1, 2]], xor.y[[0, 3, 1, 2]])
    assert other.cycle.first == 2
    text = xor_run_sentence(other)
    assert "come back to 0" not in text
    assert (f"the weights at the start of epoch {other.cycle.repeat} equal those at the start "
            "of epoch 2") in text


def test_the_margin_sweep_says_where_the_descent_follows_the_minimiser():
    # the notes' 4 points, 200 epochs: the descent's margin is more than 5 % below the exact
    # minimiser's at every λ of the sweep (0.316 against 0.354 at λ = 0.03), so it does not
    # "follow it until λ gets small"
    from sklearn.svm import SVC

    from core.runs import final
    from lessons.svm.parts import LAMBDAS

    data = notes_four_points()
    at = part(open_app("svm"), "svm.part", "Train side by side")
    near = []
    for lam in LAMBDAS:
        svc = SVC(kernel="linear", C=1 / (lam * len(data.y)), tol=1e-10).fit(data.X, data.y)
        w, b = svc.coef_[0], svc.intercept_[0]
        exact = max(float(np.min(data.y * (data.X @ w + b)) / np.linalg.norm(w)), 0.0)
        w, b = final(svm_sgd(data.X, data.y, lam=lam, eta=1.0, max_epochs=200))
        found = max(float(np.min(data.y * (data.X @ w + b)) / np.linalg.norm(w)), 0.0) \
            if np.any(w) else 0.0
        near.append(abs(found - exact) <= 0.05 * exact)
    assert not any(near)
    text = captions(at)
    assert "follows it until λ gets so small" not in text
    assert "the subgradient run after 200 epochs is more than 5% off it at every λ here" in text


def test_a_float_run_marks_the_steps_its_tie_tolerance_decided():
    # thirds are not short decimals: at step 45 the float y·a is 3.3e-16, above 0, yet the
    # run updates (within rounding of 0 is a tie): the stepper's "y·a ≤ 0" would be false there
    from core.perceptron import perceptron
    from core.trace import outcome
    from datasets import Dataset
    from ui.floats import marked
    from ui.stepper import perceptron_run

    X = np.array([[1.2, -1.1], [1.0, 0.2], [-0.8, -0.3], [-0.9, 0.7]]) * (1 / 3)
    y = np.array([1.0, -1.0, -1.0, 1.0])
    trace = record(perceptron(X, y, eta=1.0, max_epochs=20))
    assert not trace.exact
    ya = y[np.maximum(trace.index, 0)] * trace.activation
    odd = [k for k in range(1, trace.steps + 1) if trace.updated[k] and ya[k] > 0]
    assert 45 in odd
    data = Dataset("thirds", X, y, ("−1", "+1"))
    settings = {"eta": 1.0, "bias": True}
    run = marked(perceptron_run(data, trace, settings, outcome(trace, X, y, max_epochs=20)),
                 trace)
    assert run.header["exact"] is False
    assert np.flatnonzero(run.columns["tie"]).tolist() == odd
    exact = BUILTIN["XOR (0/1)"]()
    trace = record(perceptron(exact.X, exact.y, max_epochs=3))
    run = marked(perceptron_run(exact, trace, settings, outcome(trace, exact.X, exact.y,
                                                                max_epochs=3)), trace)
    assert run.header["exact"] is True and "tie" not in run.columns
