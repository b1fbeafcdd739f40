"""The perceptron-versus-SVM lesson driven through AppTest: every control, and the numbers shown."""

from __future__ import annotations

import math
import re
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.descent import svm_sgd
from core.evaluation import leave_one_out_errors, split
from core.geometry import mistake_bound
from core.max_margin import max_margin
from core.perceptron import perceptron
from core.soft_margin import soft_margin
from core.trace import record
from core.variants import rule_run
from datasets.builtin import BUILTIN, noisy, separable
from lessons.svm.figures import LINES_REACH
from lessons.svm.parts import PAIR_ASPECT
from tests.apptest import (
    assert_clean,
    by_key,
    chart_elements,
    charts,
    latex,
    metrics,
    open_app,
    plotly_array,
    stepper_run,
    steppers,
    sync,
)
from viz.plane import view_box

PAGE = "svm"
NOTES4 = BUILTIN["Lecture notes' example: 4 points"]()
IRIS = BUILTIN["Iris: setosa vs versicolor (sepal)"]()


def last_update(steps):
    *_, last = steps
    return last


def section(at, name):
    by_key(at.segmented_control, f"{PAGE}.part").set_value(name).run()
    assert_clean(at)
    return at


def choose_data(at, name):
    by_key(at.selectbox, "data.choice").set_value(name).run()
    assert_clean(at)
    return at


def traces(lam=0.01, eta0=1.0, epochs=200, data=NOTES4):
    """The two runs the page records with its default settings."""
    perc = record(perceptron(data.X, data.y, max_epochs=50))
    svm = record(svm_sgd(data.X, data.y, lam=lam, eta=eta0, max_epochs=epochs))
    return perc, svm


@pytest.fixture(scope="module")
def app():
    """One app session for the read-only checks of the first part."""
    return open_app(page=PAGE)


# ---------------------------------------------------------------- losses


def loss_rows(at) -> dict[str, dict]:
    table = at.table[0].value
    return {row["loss"].split()[0]: row for _, row in table.iterrows()}


def test_losses_at_the_kinks_and_between():
    at = open_app(page=PAGE)
    z = by_key(at.slider, f"{PAGE}.z")
    z.set_value(0.0).run()
    rows = loss_rows(at)
    assert rows["perceptron"]["dL/dz: every subgradient"] == "[-1, 0]"
    assert rows["perceptron"]["dL/dz the algorithm uses"] == "-1"
    assert rows["hinge"]["L(z)"] == "1" and rows["hinge"]["dL/dz the algorithm uses"] == "-1"
    assert rows["0-1"]["dL/dz: every subgradient"] == "none (a jump)"
    assert rows["logistic"]["L(z)"] == "1"  # base 2 by default
    assert "both step w" in at.info[0].value

    z.set_value(1.0).run()
    rows = loss_rows(at)
    assert rows["hinge"]["dL/dz: every subgradient"] == "[-1, 0]"
    assert rows["hinge"]["dL/dz the algorithm uses"] == "0"
    assert rows["perceptron"]["dL/dz the algorithm uses"] == "0"
    assert "z = 1: on the margin" in at.info[0].value  # at z = 1 exactly: on it, not beyond

    z.set_value(0.5).run()
    rows = loss_rows(at)
    assert rows["perceptron"]["L(z)"] == "0" and rows["hinge"]["L(z)"] == "0.5"
    assert "keeps pushing" in at.info[0].value
    # example 1 (the notes count from 1) is x = (1, 1), y = -1: the hinge's gradient in w is
    # -1 * y * x = (1, 1)
    assert by_key(at.number_input, f"{PAGE}.example").value == 1
    assert any(m.value.startswith("Example 1: x = (1, 1), y = -1") for m in at.markdown)
    assert rows["hinge"]["∂L/∂w = L′(z)·y·x"] == "(1, 1)"
    by_key(at.number_input, f"{PAGE}.example").set_value(2).run()
    assert loss_rows(at)["hinge"]["∂L/∂w = L′(z)·y·x"] == "(-2, -1)"  # x = (2, 1), y = +1
    assert_clean(at)


def test_log_base_and_the_kinship_code():
    at = open_app(page=PAGE)
    by_key(at.slider, f"{PAGE}.z").set_value(0.0).run()
    by_key(at.radio, f"{PAGE}.log_base").set_value("e").run()
    assert_clean(at)
    # ln 2, rounded in writing: "≈" (viz.maths.written)
    assert loss_rows(at)["logistic"]["L(z)"] == f"≈ {math.log(2):.6g}"
    code = at.code[-1].value  # the first is the Share link
    assert "def margin_loss" in code and "margin_loss(z, 0.0)" in code
    assert "margin_loss(z, 1.0)" in code
    figure = charts(at)[0]
    names = [trace.get("name") for trace in figure["data"] if trace.get("name")]
    assert "logistic ln(1 + e^−z)" in names and "hinge max(0, 1 − z)" in names


# ---------------------------------------------------------------- training side by side


def test_both_runs_are_sent_on_one_clock_and_the_server_follows_the_step():
    at = section(open_app(page=PAGE), "Train side by side")
    perc, svm = traces()
    steps = max(perc.steps, svm.steps)
    lead, lead_columns = stepper_run(at, PAGE)
    follow, follow_columns = stepper_run(at, f"{PAGE}.svm_run")
    assert lead["steps"] == follow["steps"] == steps
    assert (lead["lead"] == PAGE and follow["follow"] == PAGE and "keys" not in follow) or \
        follow["keys"] is False
    np.testing.assert_array_equal(lead_columns["W"][1:perc.steps + 1], perc.W[1:])
    np.testing.assert_array_equal(follow_columns["W"][1:svm.steps + 1], svm.W[1:])
    assert follow_columns["mistakes"][svm.steps] == svm.mistakes[-1]
    assert follow["words"] == {"mistakes": "margin violation"} and "margins" in follow["layers"]
    # Next mistake stops where either run updates
    both = np.zeros(steps + 1, dtype=bool)
    both[:perc.steps + 1] |= perc.updated
    both[:svm.steps + 1] |= svm.updated
    np.testing.assert_array_equal(lead_columns["stops"].astype(bool), both)
    # the SVM's maths are written in the page from its run (tests/browser/test_svm_maths.py)
    assert follow["svm"] == {"lam": 0.01, "eta0": 1.0} and "explain" in follow["layers"]
    sync(at, PAGE, 1)
    assert stepper_run(at, f"{PAGE}.svm_run")[0]["start"] == 1  # the follower opens there too
    assert (lead_columns["index"][perc.steps + 1:] == -1).all()  # the page says it ended
    sync(at, PAGE, steps)
    mm = max_margin(NOTES4.X, NOTES4.y)
    assert metrics(at)["Maximum margin Margin(D)"] == f"≈ {round(mm.gamma, 4):g}"


def test_on_a_projector_both_runs_step_on_one_plane_in_one_stepper():
    """Lecture mode: the SVM travels as the perceptron's companion (ui.stepper.with_companion),
    one stepper on one plane with both runs' maths; off a projector, two side by side."""
    at = section(open_app(page=PAGE), "Train side by side")
    assert len(steppers(at)) == 2
    by_key(at.toggle, "view.lecture").set_value(True).run()
    assert_clean(at)
    assert len(steppers(at)) == 1
    perc, svm = traces()
    steps = max(perc.steps, svm.steps)
    header, columns = stepper_run(at, PAGE)
    assert header["steps"] == steps and "lead" not in header and "companion" in header["layers"]
    assert header["name"] == "Perceptron (η = 1)"
    other = header["companion"]
    assert other["name"] == "SVM (λ = 0.01, η₀ = 1)" and other["svm"] == {"lam": 0.01,
                                                                        "eta0": 1.0}
    # each boundary outside the view named at its edge as the legend names it
    assert other["words"] == {"mistakes": "margin violation", "boundary": "SVM"}
    assert header["words"] == {"boundary": "perceptron"} and "margins" in other["layers"]
    np.testing.assert_array_equal(columns["W"][1:perc.steps + 1], perc.W[1:])
    np.testing.assert_array_equal(columns["companion.W"], svm.W[:1])  # rebuilt in the page
    np.testing.assert_array_equal(columns["companion.updated"][1:svm.steps + 1],
                                  svm.updated[1:])
    # the plane names both boundaries the page draws on it, and is wider than high
    names = [trace.get("name") for trace in header["figure"]["data"]]
    assert {"perceptron", "SVM", "maximum margin"} <= set(names)
    layout = header["figure"]["layout"]
    width = np.ptp(layout["xaxis"]["range"])
    height = np.ptp(layout["yaxis"]["range"])
    assert width == pytest.approx(PAIR_ASPECT * height)
    # on a squarer screen its y range grows to fill the plot (run_figure's tall): the maximum
    # margin's lines end at the plot's sides or past its top and foot, not at the box's
    assert layout["yaxis"]["constrain"] == "range"
    (x0, x1), (y0, y1) = layout["xaxis"]["range"], layout["yaxis"]["range"]
    ends = [(x, y) for trace in header["figure"]["data"] if trace.get("mode") == "lines"
            for x, y in zip(trace["x"], trace["y"], strict=True) if x is not None]
    assert len(ends) >= 6  # the boundary and its two margins
    assert all(np.isclose(x, x0) or np.isclose(x, x1) or not y0 <= y <= y1 for x, y in ends)
    sync(at, PAGE, steps)  # the panels under it follow the one stepper's step
    gamma = max_margin(NOTES4.X, NOTES4.y).gamma
    assert metrics(at)["Maximum margin Margin(D)"] == f"≈ {round(gamma, 4):g}"


def test_on_a_projector_every_boundary_of_both_runs_is_in_sight_and_told_apart():
    """Train side by side at step 5 on a projector: the perceptron's boundary was off the plane
    (an arrow, "0.21 away") and the SVM's line was the maximum margin's green. The plane's
    ranges now hold every boundary of both runs that is within LINES_REACH of the points' box
    (checked by the corners' signs, brute force), and the SVM's line has a colour of its own."""
    at = section(open_app(page=PAGE), "Train side by side")
    by_key(at.toggle, "view.lecture").set_value(True).run()
    assert_clean(at)
    header, _ = stepper_run(at, PAGE)
    layout = header["figure"]["layout"]
    (x0, x1), (y0, y1) = layout["xaxis"]["range"], layout["yaxis"]["range"]
    perc, svm = traces()

    def crosses(w, b, box) -> bool:
        (a0, a1), (c0, c1) = box
        values = [w[0] * x + w[1] * y + b for x in (a0, a1) for y in (c0, c1)]
        return min(values) <= 0 <= max(values)

    points = view_box(NOTES4.X, aspect=PAIR_ASPECT)
    (p0, p1), (q0, q1) = points
    reach = tuple(((p0 + p1) / 2 + s * (p - (p0 + p1) / 2), (q0 + q1) / 2 + s * (q - (q0 + q1) / 2))
                  for s in (LINES_REACH,) for p, q in ((p0, q0), (p1, q1)))
    far = ((reach[0][0], reach[1][0]), (reach[0][1], reach[1][1]))
    drawn = [(trace.W[k], trace.b[k]) for trace in (perc, svm) for k in range(trace.steps + 1)
             if np.any(trace.W[k])]
    within = [(w, b) for w, b in drawn if crosses(w, b, far)]
    assert within and all(crosses(w, b, ((x0, x1), (y0, y1))) for w, b in within)
    # the perceptron's line at step 5 was off the points' own box: the case the ranges fix
    assert not crosses(perc.W[5], perc.b[5], points)
    colours = {trace.get("name"): (trace.get("line") or {}).get("color")
               for trace in header["figure"]["data"]}
    svm_colour = header["companion"]["palette"]["boundary"]
    assert colours["SVM"] == svm_colour != colours["maximum margin"]
    assert svm_colour != header["palette"]["boundary"]


def test_svm_settings_change_the_svm_run():
    at = section(open_app(page=PAGE), "Train side by side")
    by_key(at.select_slider, f"{PAGE}.lam").set_value(0.1).run()
    by_key(at.number_input, f"{PAGE}.eta0").set_value(0.5).run()
    by_key(at.number_input, f"{PAGE}.epochs").set_value(100).run()
    assert_clean(at)
    perc, svm = traces(lam=0.1, eta0=0.5, epochs=100)
    assert stepper_run(at, PAGE)[0]["steps"] == max(perc.steps, svm.steps)
    follow = stepper_run(at, f"{PAGE}.svm_run")[0]
    assert follow["svm"] == {"lam": 0.1, "eta0": 0.5}  # eta_t = eta0 / sqrt(t) in the page
    title = follow["figure"]["layout"]["legend"]["title"]["text"]  # beside the plot
    assert title == "SVM by subgradient descent<br>(λ = 0.1, η₀ = 0.5)"
    # the margin sweep marks the chosen lambda
    sweep = next(c for c in charts(at) if c["layout"].get("shapes"))
    assert any(shape.get("x0") == 0.1 for shape in sweep["layout"]["shapes"])


def test_non_separable_data_says_there_is_no_maximum_margin():
    at = section(choose_data(open_app(page=PAGE), "XOR (±1)"), "Train side by side")
    assert metrics(at)["Maximum margin Margin(D)"] == "not separable"
    assert "not linearly separable" in at.info[0].value


# ---------------------------------------------------------------- soft margin


def test_soft_margin_follows_C_and_draws_every_slack():
    at = choose_data(open_app(page=PAGE), "Noisy blobs (generator)")
    section(at, "Soft margin")
    data = noisy(40, 0.5, 0)
    for C in (0.01, 1.0, 100.0):
        by_key(at.select_slider, f"{PAGE}.C").set_value(C).run()
        assert_clean(at)
        sm = soft_margin(data.X, data.y, C=C)
        shown = metrics(at)
        assert shown["Margin violations"] == str(len(sm.violations))
        assert shown["Support vectors"] == str(len(sm.support))
        slack = next(t for t in charts(at)[0]["data"] if t.get("name", "").startswith("slack"))
        assert len(slack["x"]) == 3 * len(sm.violations)  # start, end, gap per violator
    assert any("Not separable" in w.value for w in at.warning)
    assert any(f"{100:g}" in line for line in at.latex[1].value.split("+"))


def test_soft_margin_says_whether_the_perceptron_converged():
    at = choose_data(open_app(page=PAGE), "Iris: setosa vs versicolor (sepal)")
    section(at, "Soft margin")
    # 50 epochs (the default) end with 14 of Iris's points still on the wrong side
    last = last_update(perceptron(IRIS.X, IRIS.y, max_epochs=50, every="update"))
    wrong = int(np.sum(IRIS.y * (IRIS.X @ last.w + last.b) <= 0))
    assert wrong == 14
    said = " ".join(w.value for w in at.warning)
    assert "has not yet" in said and f"{wrong} examples still misclassified" in said
    assert not any("converged" in s.value for s in at.success)
    choose_data(at, "Lecture notes' example: 4 points")
    run = last_update(perceptron(NOTES4.X, NOTES4.y, max_epochs=50, every="update"))
    assert any(f"converged after {run.mistakes} mistakes" in s.value for s in at.success)


# ---------------------------------------------------------------- generalization


def test_generalization_controls_and_the_bound():
    at = choose_data(open_app(page=PAGE), "Separable (generator)")
    section(at, "Generalization")
    by_key(at.slider, f"{PAGE}.test_fraction").set_value(0.4).run()
    by_key(at.number_input, f"{PAGE}.split_seed").set_value(3).run()
    by_key(at.slider, f"{PAGE}.runs").set_value(4).run()
    by_key(at.selectbox, f"{PAGE}.runs_order").set_value("shuffle_each_epoch").run()
    assert_clean(at)
    data = separable(40, 0.2, 0)
    train, _ = split(data.y, test_fraction=0.4, seed=3)
    ratio = mistake_bound(data.X[train], data.y[train])
    n = len(train)
    # the quotient written is that of the numerator written: 36.8434 / 25 ≈ 1.47374
    top = f"{ratio:.6g}"
    quotient = Fraction(top) / (n + 1)
    sign = "=" if Fraction(f"{float(quotient):.6g}") == quotient else r"\approx"
    assert f"\\frac{{{top}}}{{{n} + 1}} {sign} {float(quotient):.6g}" in latex(at)
    figure, errors = charts(at)[:2]
    runs = [t for t in figure["data"] if t.get("name", "").startswith("run ")]
    assert len(runs) == 4 and len(plotly_array(errors["data"][0]["y"])) == 4
    assert errors["data"][1]["x"] == ["SVM"]
    loo = leave_one_out_errors(data.X[train], data.y[train])  # trained to convergence
    label = "Leave-one-out errors of the perceptron on the training set"
    assert metrics(at)[label] == f"{loo} / {n}"
    # the SVM's test error is printed in its legend entry and does not change with the runs
    svm = figure["data"][-1]["name"]
    by_key(at.slider, f"{PAGE}.runs").set_value(7).run()
    assert charts(at)[0]["data"][-1]["name"] == svm
    assert len(plotly_array(charts(at)[1]["data"][0]["y"])) == 7


def test_iris_leave_one_out_is_the_theorems_count():
    # split seed 0 keeps 70 of Iris's 100 points; runs trained to convergence miss 2 of them
    # (runs cut at the sidebar's 50 epochs would miss 7)
    at = choose_data(open_app(page=PAGE), "Iris: setosa vs versicolor (sepal)")
    section(at, "Generalization")
    label = "Leave-one-out errors of the perceptron on the training set"
    assert metrics(at)[label] == "2 / 70"
    assert "not converged" not in str(charts(at)[0]["data"])
    assert not at.warning


def test_runs_that_cannot_converge_are_capped_to_the_views_budget_and_say_so():
    from lessons.svm.parts import RUNS_VISITS

    at = section(choose_data(open_app(page=PAGE), "Noisy blobs (generator)"), "Generalization")
    train, _ = split(noisy(40, 0.5, 0).y, test_fraction=0.3, seed=0)
    cap = RUNS_VISITS // (6 * len(train))
    assert any(f"Each run stops after {cap:,} epochs here" in c.value for c in at.caption)
    assert "these training points cannot be separated" in at.warning[0].value


def test_runs_whose_mistake_bounds_add_up_past_the_budget_are_capped(monkeypatch):
    import lessons.svm.parts as lesson

    monkeypatch.setattr(lesson, "RUNS_UPDATES", 10)  # Iris sepal: R²/γ² = 16,538 per run
    lesson.split_and_score.clear()  # its cache knows nothing of the budget
    try:
        at = section(choose_data(open_app(page=PAGE), "Iris: setosa vs versicolor (sepal)"),
                     "Generalization")
    finally:
        lesson.split_and_score.clear()
    cap = lesson.RUNS_VISITS // (6 * 70)
    assert any(f"Each run stops after {cap:,} epochs here" in c.value for c in at.caption)
    names = [t.get("name", "") for t in charts(at)[0]["data"]]
    if any("not converged" in name for name in names):
        assert "does not speak of their test errors" in at.warning[0].value


def test_a_split_that_leaves_no_test_set_shows_an_error():
    at = section(open_app(page=PAGE), "Generalization")
    by_key(at.slider, f"{PAGE}.test_fraction").set_value(0.1).run()
    assert_clean(at)
    assert "the test set is empty" in at.error[0].value


# ---------------------------------------------------------------- scikit-learn


def test_scikit_learn_numbers_agree_with_ours():
    at = section(open_app(page=PAGE), "In scikit-learn")
    code = at.code[-1].value
    assert "max_iter=20" in code and 'SVC(kernel="linear", C=25)' in code
    table = at.dataframe[0].value
    assert len(table) == 20 and (table["max |difference|"] == 0).all()
    svm_table, hard_table = (frame.value for frame in at.dataframe[1:3])
    assert hard_table["|difference|"].max() < 1e-4
    j = "J = mean hinge + λ/2‖w‖²"
    assert svm_table.loc[j].iloc[0] <= svm_table.loc[j].iloc[1] + 1e-9  # SVC is the minimum
    by_key(at.toggle, "train.bias").set_value(False).run()
    assert_clean(at)
    assert "fit_intercept=False" in at.code[-1].value
    assert (at.dataframe[0].value["max |difference|"] == 0).all()


# ---------------------------------------------------------------- every part on other data


@pytest.mark.parametrize("name", ["XOR (0/1)", "Iris: versicolor vs virginica (petal)",
                                  "Moons (generator)"])
def test_every_part_renders_on_other_data(name):
    at = choose_data(open_app(page=PAGE), name)
    for part in ("Train side by side", "Soft margin", "Generalization", "In scikit-learn",
                 "Losses"):
        section(at, part)
        assert chart_elements(at) or at.code
        assert not re.search(r"Traceback", " ".join(e.value for e in at.error))


def test_xor_soft_margin_is_w_zero_and_says_so():
    at = section(choose_data(open_app(page=PAGE), "XOR (0/1)"), "Soft margin")
    xor = BUILTIN["XOR (0/1)"]()
    assert np.allclose(soft_margin(xor.X, xor.y, C=1.0).w, 0.0)
    assert metrics(at)["Margin 1/‖w‖"] == "∞ (w = 0)"
    assert any("best soft margin is w = 0" in w.value for w in at.warning)


# ---------------------------------------------------------------- the view in the URL


def test_a_link_opens_the_same_view_and_ignores_bad_values():
    from streamlit.testing.v1 import AppTest

    from tests.apptest import ROOT, switch

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.query_params.update({"part": "Soft margin", "C": "100", "lam": "abc", "z": "9"})
    at.run()
    switch(at, PAGE)
    at.run()
    assert_clean(at)
    assert by_key(at.segmented_control, f"{PAGE}.part").value == "Soft margin"
    assert by_key(at.select_slider, f"{PAGE}.C").value == 100.0
    assert by_key(at.select_slider, f"{PAGE}.lam").value == 0.01  # "abc": the default
    sm = soft_margin(NOTES4.X, NOTES4.y, C=100.0)
    assert metrics(at)["Margin violations"] == str(len(sm.violations))
    by_key(at.select_slider, f"{PAGE}.C").set_value(0.1).run()
    assert at.query_params["C"] == "0.1" and at.query_params["part"] == "Soft margin"


def test_the_header_says_the_hinge_trades_the_margin_against_the_penalty():
    # the notes' 4 points at lambda = 0.125 (C = 1/(lambda N) = 2): the minimiser leaves
    # (2, 1) inside its margin with slack 2/3, so the hinge does not push every example out
    from sklearn.svm import SVC

    from core.soft_margin import lam_to_C
    svc = SVC(kernel="linear", C=lam_to_C(0.125, n=4), tol=1e-10).fit(NOTES4.X, NOTES4.y)
    slack = 1 - NOTES4.y * svc.decision_function(NOTES4.X)
    assert NOTES4.X[1].tolist() == [2.0, 1.0] and slack[1] == pytest.approx(2 / 3, abs=1e-6)
    at = open_app(page=PAGE)
    said = at.caption[0].value
    assert "toward y·a ≥ 1" in said and "traded off" in said and "slack" in said
    assert "every example is a margin beyond" not in said


def test_gamma_means_one_thing_margin_d_is_the_planes_and_c_is_the_seeds_gamma():
    at = section(open_app(page=PAGE), "Train side by side")
    mm = max_margin(NOTES4.X, NOTES4.y)
    assert metrics(at)["Maximum margin Margin(D)"] == f"≈ {round(mm.gamma, 4):g}"
    assert not any("γ" in label for label in metrics(at))
    names = [t.get("name") or "" for spec in charts(at) for t in spec["data"]]
    assert not any("γ" in n for n in names)
    section(at, "Soft margin")
    assert "C (the notes' γ" in by_key(at.select_slider, f"{PAGE}.C").label


def plain_rule(X, y, *, strict, w, b, epochs=100):
    """The rule written out on its own: updates made, cyclic, eta = 1."""
    w, updates = list(w), 0
    for _ in range(epochs):
        changed = False
        for x, label in zip(X.tolist(), y.tolist(), strict=True):
            m = label * (w[0] * x[0] + w[1] * x[1] + b)
            if m < 0 or (m == 0 and not strict):
                w, b = [w[0] + label * x[0], w[1] + label * x[1]], b + label
                updates, changed = updates + 1, True
        if not changed:
            return updates
    return updates


def test_the_strict_rule_never_starts_from_zero():
    at = open_app(page=PAGE)
    by_key(at.toggle, f"{PAGE}.strict").set_value(True).run()
    assert_clean(at)
    table, = (d.value for d in at.dataframe if "rule" in d.value.columns)
    rows = {(r["start"], r["rule"].split()[1]): r for _, r in table.iterrows()}
    notes = plain_rule(NOTES4.X, NOTES4.y, strict=False, w=(0, 0), b=0)
    assert rows[("w = 0, b = 0", "≤")]["updates"] == notes > 0
    assert rows[("w = 0, b = 0", "<")]["updates"] == 0
    assert rows[("w = 0, b = 0", "<")]["training errors at the end"] == "4 / 4"
    moved = plain_rule(NOTES4.X, NOTES4.y, strict=True, w=(0.2, 0.0), b=-0.1)
    assert rows[("w = (0.2, 0), b = -0.1", "<")]["updates"] == moved > 0
    assert at.query_params["strict"] == "1"


@settings(max_examples=60, deadline=None)
@given(points=st.lists(st.tuples(st.integers(-5, 5), st.integers(-5, 5)), min_size=1,
                       max_size=12),
       labels=st.lists(st.sampled_from([-1, 1]), min_size=12, max_size=12))
def test_strict_rule_from_zero_makes_no_update_on_any_data(points, labels):
    X = np.array(points, dtype=float)
    y = np.array(labels[:len(points)], dtype=float)
    updates, w, b, stopped = rule_run(X, y, strict=True)
    assert updates == 0 and stopped and not w.any() and b == 0
    assert rule_run(X, y, strict=False)[0] == plain_rule(X, y, strict=False, w=(0, 0), b=0)


def test_theorem_2_6_runs_as_an_experiment_over_random_draws():
    from core.generalization import theorem_2_6
    at = section(open_app(page=PAGE), "Generalization")
    by_key(at.button, f"{PAGE}.draws").click()
    at.run()
    assert_clean(at)
    table, = (d.value for d in at.dataframe if "mean test error" in d.value.columns)
    assert table["N"].tolist() == [5, 10, 20, 40]
    for _, row in table.iterrows():
        expected = theorem_2_6(NOTES4.X, NOTES4.y, n=int(row["N"]), draws=100,
                               seed=int(row["N"]))
        assert row["mean test error"] == pytest.approx(expected.error)
        assert row["E[R²/γ²]/(N + 1)"] == pytest.approx(expected.bound)
    names = [t.get("name") for t in charts(at)[-1]["data"]]
    assert names == ["bound E[R²/γ²]/(N + 1)", "mean test error over the draws"]
    assert any("(400 of 400 runs converged)" in c.value for c in at.caption)
