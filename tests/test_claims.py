"""Every sentence a student reads about a run is computed from the run.

Each test sets up a case where a sentence written beside the numbers would be
false (a tie after an update, a descent that ran out of epochs with examples
inside its margin, capped runs that did not converge, a descent far from its
minimiser, a flat error chart, ...) and checks that the page does not say it,
and says what is true instead. The references are independent: Fractions,
brute force, scikit-learn.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from core.descent import svm_sgd
from core.evaluation import split, trained
from core.trace import record
from core.words import FLOATS
from datasets.builtin import BUILTIN, notes_four_points
from tests.apptest import assert_clean, by_key, metrics, open_app, stepper_run, sync, upload


def F(value) -> Fraction:
    """A short decimal float as the decimal it stands for."""
    return value if isinstance(value, Fraction) else Fraction(repr(float(value)))


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


def shifted_iris() -> tuple[np.ndarray, np.ndarray, bytes]:
    """Iris setosa/versicolor (sepal) moved by +15 cm, and as a CSV of one-decimal numbers."""
    data = BUILTIN["Iris: setosa vs versicolor (sepal)"]()
    X = np.round(data.X + 15, 1)
    rows = "".join(f"{a:.1f},{b:.1f},{int(label)}\n"
                   for (a, b), label in zip(X, data.y, strict=True))
    return X, data.y, ("x1,x2,y\n" + rows).encode()


def fraction_wrong(x, label, w, b) -> bool:
    """y (w.x + b) <= 0 in the decimals the floats stand for."""
    from fractions import Fraction

    def exact(v):
        return Fraction(repr(float(v)))

    a = sum(exact(wi) * exact(xi) for wi, xi in zip(w, x, strict=True)) + exact(b)
    return int(label) * a <= 0


def test_capped_leave_one_out_counts_only_the_runs_that_converged():
    # shifted by 15 cm the training set's R²/γ² is about 119,000: 12 runs are capped to 47
    # epochs, and 2 of the 70 leave-one-out runs stop there unconverged (one of them errs)
    X, y, csv = shifted_iris()
    at = open_app()
    upload(at, "iris_shifted.csv", csv)
    at.switch_page("lessons/svm.py")
    at.run()
    assert_clean(at)
    part(at, "svm.section", "Generalization")
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
                 "converged)"] == f"{counted} / 70"
    text = captions(at)
    assert "this count is the proof's (*)" not in text
    assert (f"{stuck} of the 70 runs did not converge (they err on 1 of their points), so the "
            f"count shown is of the 68 that did: {counted}.") in text
    assert f"here it lies between {counted} and {counted + stuck}" in text


def notes_J(X, y, w, b, lam) -> float:
    """mean hinge + (λ/2)‖w‖², written out."""
    return float(np.mean(np.maximum(0.0, 1.0 - y * (X @ w + b))) + lam / 2 * w @ w)


def test_scikit_learn_part_says_how_far_the_descent_is_from_the_minimum():
    # Iris setosa/versicolor, λ = 0.01, 200 epochs: J = 0.2688 against SVC's 0.1049, 2.6 times
    # the minimum, while w₂ differs by 0.013: the costs do not agree more closely
    from sklearn.svm import SVC

    data = BUILTIN["Iris: setosa vs versicolor (sepal)"]()
    at = part(choose_data(open_app("svm"), "Iris: setosa vs versicolor (sepal)"), "svm.section",
              "In scikit-learn")
    run = record(svm_sgd(data.X, data.y, lam=0.01, eta=1.0, max_epochs=200))
    J = notes_J(data.X, data.y, run.W[-1], run.b[-1], 0.01)
    svc = SVC(kernel="linear", C=1 / (0.01 * len(data.y)), tol=1e-10).fit(data.X, data.y)
    J_star = notes_J(data.X, data.y, svc.coef_[0], svc.intercept_[0], 0.01)
    assert J / J_star > 2.5
    text = captions(at)
    assert "agree more closely than their weights" not in text
    gap = metrics(at)["How far the descent is from the minimum: J − J*"]
    assert abs(float(gap) - (J - J_star)) < 1e-3
    assert f"After 200 epochs its J is {J:.4g} against J* = {J_star:.4g}" in text
    assert f"{(J - J_star) / J_star:.0%} above the minimum" in text
    assert FLOATS in text


def test_the_draws_say_how_the_bound_really_moves_with_n():
    # separable(40, 0.2, seed 0): E[R²/γ²] grows with N, so the bound falls from 2.87 to 1.12
    # between N = 5 and 40, a factor of 2.6, not the 41/6 = 6.8 of 1/(N + 1)
    at = part(choose_data(open_app("svm"), "Separable (generator)"), "svm.section",
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
    from ui.lesson_nonseparable import bounded_sentence, errors_sentence

    data = BUILTIN["Iris: versicolor vs virginica (petal)"]()
    report = epoch_report(data.X, data.y, max_epochs=30, order="shuffle_each_epoch", seed=3)
    ends = report.errors_last
    assert ends.min() < ends.max()  # here they do move
    text = errors_sentence(report)
    assert (f"The last weights' errors move between {ends.min()} and {ends.max()} from one "
            f"epoch's end to the next (they change {np.count_nonzero(np.diff(ends))} ") in text
    assert "at the end of every epoch" not in text
    assert f"move between {ends.min()} and {ends.max()}" in bounded_sentence(report)
