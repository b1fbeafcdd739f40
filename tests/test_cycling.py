"""Cycle detection against a brute-force run in fractions; the exact run against core; remedies."""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.cycles import find_cycle, updates_until
from core.exact_runs import (
    decimals,
    exact_perceptron,
    exact_rule,
    fixed_rows,
    float_departure,
)
from core.geometry import linearly_separable
from core.perceptron import initial_weights, perceptron
from core.pocket import epoch_report, pocket
from core.trace import training_errors
from core.variants import averaged_perceptron
from datasets.builtin import boolean, iris, noisy
from datasets.shapes import xor_blobs
from lessons.nonseparable.figures import (
    LOOP_POINTS,
    PATH_POINTS,
    cycle_latex,
    errors_figure,
    path_note,
    path_rows,
    trajectory_figure,
)
from viz.plane import legend_at_foot

# ---------------------------------------------------------------- the brute-force reference


def dec(value) -> Fraction:
    """A float that stands for a short decimal, as that decimal."""
    return Fraction(repr(float(value)))


def brute_force(X, y, *, eta=1.0, init=((0.0, 0.0), 0.0), bias=True, rows=None,
                max_epochs=200):
    """The seeds' rule in fractions, one visit at a time, every epoch start kept in a dict."""
    X = [[dec(v) for v in row] for row in np.asarray(X, dtype=float)]
    y = [int(v) for v in y]
    eta = dec(eta)
    w, b = [dec(v) for v in init[0]], dec(init[1])
    rows = range(len(y)) if rows is None else [int(i) for i in rows]
    seen, mistakes = {}, 0
    for epoch in range(1, max_epochs + 1):
        key = (tuple(w), b)
        if key in seen:
            first, before = seen[key]
            return dict(status="cycle", first=first, repeat=epoch, updates=mistakes - before,
                        w=tuple(w), b=b, mistakes=mistakes)
        seen[key] = (epoch, mistakes)
        changed = False
        for i in rows:
            a = sum(wj * xj for wj, xj in zip(w, X[i], strict=True)) + b
            if y[i] * a <= 0:
                w = [wj + eta * y[i] * xj for wj, xj in zip(w, X[i], strict=True)]
                b = b + eta * y[i] if bias else b
                mistakes += 1
                changed = True
        if not changed:
            return dict(status="converged", epochs=epoch, mistakes=mistakes)
    return dict(status="none", mistakes=mistakes)


def assert_same(cycle, reference):
    assert cycle.status == reference["status"]
    assert cycle.mistakes == reference["mistakes"]
    if reference["status"] == "cycle":
        assert (cycle.first, cycle.repeat) == (reference["first"], reference["repeat"])
        assert cycle.period == reference["repeat"] - reference["first"]
        assert cycle.updates == reference["updates"]
        assert cycle.w == reference["w"] and cycle.b == reference["b"]
    if reference["status"] == "converged":
        assert cycle.epochs == reference["epochs"]


small_ints = st.integers(-3, 3)


@st.composite
def problems(draw, values=small_ints):
    """Small data sets (labels at random: separable or not), a learning rate, an order."""
    n = draw(st.integers(1, 6))
    X = np.array(draw(st.lists(st.tuples(values, values), min_size=n, max_size=n)), float)
    y = np.array(draw(st.lists(st.sampled_from([-1.0, 1.0]), min_size=n, max_size=n)))
    eta = draw(st.sampled_from([1.0, 2.0, 0.5, 0.1, 0.3]))
    bias = draw(st.booleans())
    w0 = draw(st.tuples(st.sampled_from([0.0, 0.5, -1.2, 2.0]), st.sampled_from([0.0, 0.1, -1.0])))
    b0 = draw(st.sampled_from([0.0, -0.7, 1.0])) if bias else 0.0
    rows = np.array(draw(st.permutations(range(n))))
    return X, y, eta, bias, (w0, b0), rows


# ---------------------------------------------------------------- cycle detection


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems())
def test_first_repeat_and_period_match_the_brute_force(problem):
    X, y, eta, bias, init, rows = problem
    cycle = find_cycle(X, y, eta=eta, init=init, bias=bias, rows=rows, max_epochs=200)
    assert_same(cycle, brute_force(X, y, eta=eta, init=init, bias=bias, rows=rows,
                                   max_epochs=200))


@settings(max_examples=150, deadline=None)
@given(problems())
def test_a_cycle_or_convergence_tells_separable_from_not(problem):
    X, y, eta, bias, init, rows = problem
    cycle = find_cycle(X, y, eta=eta, init=init, bias=bias, rows=rows, max_epochs=2000)
    assert cycle.status in ("cycle", "converged")  # small integer data never runs that long
    assert linearly_separable(X, y, bias=bias) == (cycle.status == "converged")


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 12))
def test_separable_data_converges_with_no_cycle(seed, n):
    rng = np.random.default_rng(seed)
    X = rng.integers(-5, 6, size=(n, 2)).astype(float)
    u, c = rng.integers(-3, 4, size=2), rng.integers(-2, 3)
    if not np.any(u):
        u = np.array([1, 0])
    side = X @ u + c + 0.5  # never 0: integer plus a half
    y = np.where(side > 0, 1.0, -1.0)
    cycle = find_cycle(X, y)
    assert cycle.status == "converged" and cycle.first is None
    assert linearly_separable(X, y)
    assert_same(cycle, brute_force(X, y, max_epochs=10_000))


@pytest.mark.parametrize("encoding", ["01", "pm1"])
def test_xor_cycles_at_once_through_zero(encoding):
    # By hand: from w = 0, b = 0 every one of the four examples is a mistake in epoch 1, and the
    # four updates add up to zero (sum of y_n x_n is 0 and sum of y_n is 0), so epoch 2 starts
    # where epoch 1 did.
    data = boolean("XOR", encoding)
    for eta in (1.0, 0.1):
        cycle = find_cycle(data.X, data.y, eta=eta)
        assert (cycle.status, cycle.first, cycle.repeat, cycle.period, cycle.updates) == \
            ("cycle", 1, 2, 1, 4)
        assert cycle.w == (0, 0) and cycle.b == 0
        assert sum(data.y[:, None] * data.X).tolist() == [0, 0] and sum(data.y) == 0


@pytest.mark.parametrize("eta", [1.0, 0.1])
def test_iris_versicolor_virginica_cycles_as_the_fraction_run_says(eta):
    data = iris("versicolor", "virginica", (2, 3))
    assert decimals(data.X) == 1
    cycle = find_cycle(data.X, data.y, eta=eta)
    reference = brute_force(data.X, data.y, eta=eta, max_epochs=3000)
    assert_same(cycle, reference)
    assert cycle.period <= 10  # a short loop, found well inside the budget


def test_noisy_blobs_cycle_matches_the_fraction_run():
    data = noisy(40, 0.5, 0)  # the sidebar's default blobs
    assert decimals(data.X) <= 2
    cycle = find_cycle(data.X, data.y, max_epochs=2000)
    assert cycle.status == "cycle"
    assert_same(cycle, brute_force(data.X, data.y, max_epochs=2000))


def test_the_path_closes_on_itself_over_one_period():
    data = iris("versicolor", "virginica", (2, 3))
    cycle = find_cycle(data.X, data.y)
    loop = slice(cycle.cycle_start, cycle.cycle_start + cycle.updates + 1)
    W, B = cycle.path_w[loop], cycle.path_b[loop]
    np.testing.assert_array_equal(W[0], W[-1])
    assert B[0] == B[-1]
    np.testing.assert_allclose(W[0], [float(v) for v in cycle.w])
    assert len(cycle.path_w) == cycle.mistakes + 1


def test_budget_says_no_repeat_within_n_epochs():
    data = noisy(40, 0.5, 0)
    cycle = find_cycle(data.X, data.y, max_epochs=100)
    assert cycle.status == "none" and cycle.epochs == 100
    assert cycle.message == "No repeat within 100 epochs (the search budget)."
    visits = find_cycle(data.X, data.y, max_visits=40 * 30)
    assert visits.status == "none" and visits.epochs == 30


def test_large_numbers_switch_to_python_integers_and_stay_exact():
    data = boolean("XOR", "pm1")
    X = data.X * 1_000_000_000.5  # activations near 1e20 in units of 10^-8: past int64
    _, _, rule, problem = exact_rule(X, data.y, eta=0.000001, init="zeros", bias=True)
    assert problem == "" and rule.wide is False  # nothing has grown yet
    run = exact_perceptron(X, data.y, eta=0.000001, max_epochs=2)
    list(run)
    assert run.rule.wide is True
    cycle = find_cycle(X, data.y, eta=0.000001, init=((0.5, 0.0), 0.25), max_epochs=200)
    assert cycle.status == "cycle"
    assert_same(cycle, brute_force(X, data.y, eta=0.000001, init=((0.5, 0.0), 0.25),
                                   max_epochs=200))


def test_numbers_that_are_not_short_decimals_get_no_exact_search():
    X = [[0.1234567, 0.0], [1.0, 1.0]]
    cycle = find_cycle(X, [1, -1])
    assert cycle.status == "inexact"
    assert "row 0, column x1 = 0.1234567" in cycle.reason
    assert find_cycle([[0.0, 1.0]], [1], eta=1 / 3).reason.startswith("eta")
    assert find_cycle([[0.0, 1.0]], [1], init="random").status == "inexact"
    with pytest.raises(ValueError, match="short decimals"):
        next(exact_perceptron(X, [1, -1]))


@pytest.mark.parametrize(("kwargs", "message"), [
    (dict(eta=-1.0), "eta must be > 0"),
    (dict(rows=[0, 0]), "rows must be an ordering of 0..1"),
])
def test_invalid_settings_raise_with_the_setting_named(kwargs, message):
    with pytest.raises(ValueError, match=message):
        find_cycle([[0.0, 1.0], [1.0, 0.0]], [1, -1], **kwargs)


def test_decimals():
    assert decimals([1, -3, 0]) == 0
    assert decimals([0.1, 0.25]) == 2
    assert decimals([4.7, 1.4]) == 1
    assert decimals([1 / 3]) is None
    assert decimals([1e-7]) is None
    assert decimals([123456.789]) == 3
    assert decimals([1_000_000_000.5]) == 1
    # k decimals only when exact: 0.1 + 0.2 is not the float 0.3, so no exact run on it
    assert decimals([0.1 + 0.2]) is None and decimals([0.3]) == 1
    assert decimals([1.0000000004]) is None and decimals([1.0000004]) is None


@settings(max_examples=200, deadline=None)
@given(m=st.integers(-10**9, 10**9), k=st.integers(0, 6))
def test_decimals_against_the_decimal_written_out(m, k):
    # an independent reference: the float read from the text "m / 10^k" with k places
    from decimal import Decimal
    v = float(Decimal(m).scaleb(-k))
    found = decimals([v])
    assert found is not None and found <= k
    assert Decimal(round(v * 10**found)).scaleb(-found) == Decimal(repr(v))
    # one float step away is no longer that decimal
    assert decimals([np.nextafter(v, np.inf)]) in (None, *range(k + 1, 7))


def test_a_separable_set_a_hair_from_a_tie_is_not_called_cycling():
    # 1.0000000004 is not 1: the set is separable (x1 > 1.0000000002), and no exact search on
    # it may round it to 1, where points 0 and 1 would coincide with opposite labels
    X = np.array([[1.0000000004, 0.0], [1.0, 0.0], [0.0, 1.0]])
    y = np.array([1.0, -1.0, -1.0])
    assert linearly_separable(X, y)
    found = find_cycle(X, y)
    assert found.status == "inexact" and found.status != "cycle"
    rounded = find_cycle(np.round(X, 6), y)
    assert rounded.status == "cycle"  # what the old 1e-9 tolerance searched


# ---------------------------------------------------------------- exact run versus core


@settings(max_examples=200, deadline=None)
@given(problems(values=st.integers(-9, 9)), st.sampled_from(["cyclic", "shuffle_once"]),
       st.integers(0, 1000))
def test_exact_run_makes_the_same_mistakes_as_core_on_integer_data(problem, order, seed):
    X, y, _, bias, _, _ = problem
    eta = 0.5  # dyadic: floats add it exactly, so the float run is exact too
    rows = fixed_rows(X, y, order=order, seed=seed)
    exact = list(exact_perceptron(X, y, eta=eta, bias=bias, rows=rows, max_epochs=30,
                                  every="visit"))
    plain = list(perceptron(X, y, eta=eta, bias=bias, order=order, seed=seed, max_epochs=30))
    assert [s.t for s in exact] == [s.t for s in plain]
    assert [s.index for s in exact] == [s.index for s in plain]
    assert [s.updated for s in exact] == [s.updated for s in plain]
    for a, b in zip(exact, plain, strict=True):
        np.testing.assert_array_equal(a.w, b.w)
        assert a.b == b.b and a.activation == b.activation and a.mistakes == b.mistakes
    assert float_departure(X, y, eta=eta, bias=bias, order=order, seed=seed,
                           max_epochs=30) is None


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 15))
def test_core_is_the_exact_run_and_rounding_leaves_it_only_at_a_tie(seed, n):
    rng = np.random.default_rng(seed)
    X = np.round(rng.normal(size=(n, 2)), 1)
    y = rng.choice([-1.0, 1.0], size=n)
    eta = float(rng.choice([1.0, 0.1, 0.3]))
    exact = [s.t for s in exact_perceptron(X, y, eta=eta, max_epochs=200, every="update")]
    assert exact == [s.t for s in perceptron(X, y, eta=eta, max_epochs=200, every="update")]
    departure = float_departure(X, y, eta=eta, max_epochs=200)
    if departure is None:
        return
    # one decimal in x and eta: a nonzero exact a is a multiple of 0.01, far from rounding,
    # so rounding can only leave the exact run at a tie, which the exact rule updates on
    assert departure.exact_activation == 0 and abs(departure.float_activation) < 1e-9
    assert departure.t in exact
    assert y[departure.index] * departure.float_activation > 0


def test_iris_float_run_leaves_the_exact_one_at_a_tie():
    data = iris("versicolor", "virginica", (2, 3))
    departure = float_departure(data.X, data.y, max_epochs=1500)
    assert departure is not None and departure.exact_activation == 0
    assert 0 < abs(departure.float_activation) < 1e-9
    exact = [s.t for s in exact_perceptron(data.X, data.y, max_epochs=departure.epoch,
                                           every="update")]
    assert departure.t in exact  # the exact rule updates on the tie, the float run does not


def test_from_epoch_skips_the_way_in_and_keeps_the_real_numbers():
    data = iris("versicolor", "virginica", (2, 3))
    cycle = find_cycle(data.X, data.y)
    late = list(exact_perceptron(data.X, data.y, from_epoch=cycle.first,
                                 max_epochs=cycle.repeat - 1, every="update"))
    assert {s.epoch for s in late} == {cycle.first}
    assert len(late) == cycle.updates
    np.testing.assert_allclose(late[-1].w, [float(v) for v in cycle.w])
    assert late[-1].mistakes == cycle.mistakes


def assert_same_report(a, b):
    """Two epoch reports equal field by field (floats included: the same sums in one order)."""
    for name in ("epoch", "updates", "errors_last", "errors_pocket", "errors_averaged",
                 "max_norm"):
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=name)
    assert (a.n, a.complete) == (b.n, b.complete)


def assert_walked_once_is_walked_again(X, y, cycle, epochs, *, max_visits=200_000, **settings):
    """The search's path, laid out to ``epochs``, gives what walking the run again gives."""
    updates = updates_until(cycle, len(y), epochs)
    assert updates is not None
    settings = dict(dict(eta=1.0, init="zeros", bias=True, order="cyclic"), **settings,
                    max_epochs=epochs)
    walked = list(exact_perceptron(X, y, rows=fixed_rows(X, y, **settings), every="update",
                                   **{k: settings[k] for k in ("eta", "init", "bias",
                                                               "max_epochs")}))
    t, W, B = updates
    assert t.tolist() == [s.t for s in walked]
    np.testing.assert_array_equal(W[1:], np.array([s.w for s in walked]).reshape(-1, W.shape[1]))
    np.testing.assert_array_equal(B[1:], [s.b for s in walked])
    assert_same_report(epoch_report(X, y, max_visits=max_visits, updates=updates, **settings),
                       epoch_report(X, y, max_visits=max_visits, **settings))
    assert float_departure(X, y, exact_updates=t, **settings) == \
        float_departure(X, y, **settings)


@pytest.mark.parametrize("data", [xor_blobs(), noisy(40, 0.5, 0), boolean("XOR", "01"),
                                  iris("versicolor", "virginica", (2, 3))],
                         ids=["xor-blobs", "noisy-blobs", "xor", "iris"])
def test_the_page_walks_the_exact_run_once_and_shows_the_same_numbers(data):
    cycle = find_cycle(data.X, data.y, max_visits=200_000)
    assert cycle.status == "cycle"
    # the page's report reaches one period past the repeat (XOR blobs: 888 epochs)
    epochs = min(cycle.repeat + cycle.period, 200_000 // len(data.y))
    assert_walked_once_is_walked_again(data.X, data.y, cycle, epochs)
    # a report cut by its visit budget, and fewer epochs than the search ran
    assert_walked_once_is_walked_again(data.X, data.y, cycle, epochs, max_visits=1_000)
    assert_walked_once_is_walked_again(data.X, data.y, cycle, max(1, cycle.repeat // 2))


def test_the_shared_walk_keeps_where_floats_part_from_the_exact_run():
    data = iris("versicolor", "virginica", (2, 3))
    cycle = find_cycle(data.X, data.y)
    t, _, _ = updates_until(cycle, len(data.y), 1500)
    departure = float_departure(data.X, data.y, max_epochs=1500, exact_updates=t)
    assert departure is not None and departure == float_departure(data.X, data.y, max_epochs=1500)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(), st.integers(1, 40), st.sampled_from(["cyclic", "shuffle_once"]),
       st.integers(0, 100))
def test_updates_until_is_the_run_walked_again(problem, epochs, order, seed):
    X, y, eta, bias, init, _ = problem
    settings = dict(eta=eta, init=init, bias=bias, order=order, seed=seed)
    cycle = find_cycle(X, y, eta=eta, init=init, bias=bias, max_epochs=200,
                       rows=fixed_rows(X, y, **settings))
    if cycle.status == "none":
        epochs = min(epochs, cycle.epochs)
    assert_walked_once_is_walked_again(X, y, cycle, epochs, **settings)


def test_updates_until_says_when_the_path_cannot_reach():
    data = noisy(40, 0.5, 0)
    short = find_cycle(data.X, data.y, max_epochs=10)
    assert short.status == "none" and updates_until(short, 40, 11) is None
    assert updates_until(short, 40, 10) is not None
    assert updates_until(find_cycle(data.X, data.y, init="random"), 40, 5) is None


# ---------------------------------------------------------------- remedies


@st.composite
def runs(draw):
    n = draw(st.integers(1, 12))
    seed = draw(st.integers(0, 10**6))
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2))
    y = rng.choice([-1.0, 1.0], size=n)
    order = draw(st.sampled_from(["cyclic", "shuffle_each_epoch", "random",
                                  "random_misclassified"]))
    return X, y, dict(order=order, seed=seed, init=draw(st.sampled_from(["zeros", "random"])),
                      max_epochs=draw(st.integers(1, 8)))


@settings(max_examples=150, deadline=None)
@given(runs())
def test_pocket_is_the_best_weights_of_the_stream(run):
    X, y, kwargs = run
    w0, b0 = initial_weights(2, init=kwargs["init"], seed=kwargs["seed"])
    run = perceptron(X, y, **kwargs)
    steps = list(perceptron(X, y, **kwargs))
    seen = [(np.asarray(w0), b0)] + [(s.w, s.b) for s in steps]
    errors = [training_errors(X, y, w, b) for w, b in seen]
    for k, p in enumerate(pocket(X, y, run), start=1):
        assert (p.step.t, p.step.index, p.step.updated) == (
            steps[k - 1].t, steps[k - 1].index, steps[k - 1].updated)
        assert p.errors == errors[k]
        assert p.pocket_errors == min(errors[: k + 1]) <= p.errors
        first = int(np.argmin(errors[: k + 1]))  # the first minimiser is kept
        np.testing.assert_array_equal(p.w_pocket, seen[first][0])
        assert p.b_pocket == seen[first][1]
        assert training_errors(X, y, p.w_pocket, p.b_pocket) == p.pocket_errors


@settings(max_examples=80, deadline=None)
@given(runs())
def test_epoch_report_matches_the_visit_stream(run):
    X, y, kwargs = run
    w0, b0 = initial_weights(2, init=kwargs["init"], seed=kwargs["seed"])
    report = epoch_report(X, y, **kwargs)
    steps = list(averaged_perceptron(X, y, **kwargs))
    epochs = sorted({s.epoch for s in steps})
    assert report.epoch.tolist() == epochs
    best = training_errors(X, y, w0, b0)
    start = np.linalg.norm(w0)
    for e, row in zip(epochs, range(len(epochs)), strict=True):
        inside = [s for s in steps if s.epoch == e]
        last = inside[-1]
        assert report.updates[row] == sum(s.updated for s in inside)
        assert report.errors_last[row] == training_errors(X, y, last.w, last.b)
        assert report.errors_averaged[row] == training_errors(X, y, last.w_avg, last.b_avg)
        best = min([best] + [training_errors(X, y, s.w, s.b) for s in inside])
        assert report.errors_pocket[row] == best <= report.errors_last[row]
        norms = [start] + [np.linalg.norm(s.w) for s in inside]
        assert report.max_norm[row] == pytest.approx(max(norms))
        start = np.linalg.norm(last.w)
    assert report.complete


def test_on_xor_the_remedies_beat_the_last_weights_and_norm_stays_bounded():
    data = boolean("XOR", "01")
    report = epoch_report(data.X, data.y, max_epochs=50)
    assert np.all(report.errors_last == 4)  # each epoch ends back at w = 0, b = 0
    assert np.all(report.errors_pocket[1:] <= 2) and np.all(report.errors_averaged[1:] <= 2)
    assert report.max_norm.max() == pytest.approx(np.sqrt(2))  # w = (1, 1) at most


def test_report_stops_at_its_visit_budget():
    data = noisy(40, 0.5, 0)
    report = epoch_report(data.X, data.y, max_epochs=100, max_visits=400)
    assert not report.complete and report.epoch[-1] == 10


def test_fixed_rows():
    X, y = np.zeros((5, 2)), np.ones(5)
    assert fixed_rows(X, y).tolist() == [0, 1, 2, 3, 4]
    assert sorted(fixed_rows(X, y, order="shuffle_once", seed=3).tolist()) == [0, 1, 2, 3, 4]
    assert fixed_rows(X, y, order="random") is None
    with pytest.raises(ValueError, match="order must be 'cyclic' or 'shuffle_once'"):
        float_departure(X, y, order="random")


# ---------------------------------------------------------------- figures and LaTeX


def test_trajectory_draws_the_loop_closed_and_the_errors_chart_three_series():
    data = boolean("XOR", "pm1")
    cycle = find_cycle(data.X, data.y)
    fig = trajectory_figure(cycle.path_w, cycle.path_b, cycle_start=cycle.cycle_start,
                            cycle_updates=cycle.updates, current=([1.0, 1.0], -1.0))
    loop = next(t for t in fig.data if t.name.startswith("the loop"))
    assert (loop.x[0], loop.y[0]) == (loop.x[-1], loop.y[-1]) and len(loop.x) == 5
    fig3 = trajectory_figure(cycle.path_w, cycle.path_b, three_d=True)
    assert {t.type for t in fig3.data} == {"scatter3d"}
    report = epoch_report(data.X, data.y, max_epochs=5)
    spec = json.loads(errors_figure(report, cycle=(1, 2)).to_json())
    names = [t.get("name") for t in spec["data"]]
    assert names[:3] == ["last weights", "pocket (best seen)", "averaged"]
    assert "one period (epoch 1)" in names
    # the legend goes under the plots (the figure's foot), never over the top row of errors,
    # where the last weights' line runs on XOR
    legend = spec["layout"]["legend"]
    assert legend["y"] < 0 and legend["yanchor"] == "top"
    foot = legend_at_foot(errors_figure(report, cycle=(1, 2))).layout.legend
    assert (foot.yref, foot.y, foot.yanchor) == ("container", 0, "bottom")
    # the band covers the period's p = k - j epochs, j .. k - 1, not p + 1 of them
    for j, k in ((1, 2), (3, 7)):
        spec = json.loads(errors_figure(epoch_report(data.X, data.y, max_epochs=9),
                                        cycle=(j, k)).to_json())
        bands = spec["layout"]["shapes"]
        assert {(s["x0"], s["x1"]) for s in bands} == {(j - 0.5, k - 1 + 0.5)}
        assert sum(1 for t in spec["data"] if (t.get("name") or "").startswith("one period")) == 1
    assert "one period (epochs 3–6)" in [t.get("name") for t in spec["data"]]


def test_a_long_path_draws_a_bounded_number_of_points_and_every_one_on_its_loop():
    data = noisy(40, 0.5, 0)  # the sidebar's default blobs: 3,849 weights, a 2,318-update loop
    cycle = find_cycle(data.X, data.y)
    length, loop = len(cycle.path_w), (cycle.cycle_start, cycle.updates)
    assert length > PATH_POINTS and cycle.updates + 1 <= LOOP_POINTS
    fig = trajectory_figure(cycle.path_w, cycle.path_b, cycle_start=loop[0],
                            cycle_updates=loop[1], current=(cycle.path_w[-1], cycle.path_b[-1]))
    path = fig.data[0]
    rows = np.asarray(path.customdata)[:, 0].astype(int)  # hover names each point's own update
    assert len(rows) <= PATH_POINTS and {0, length - 1} <= set(rows.tolist())
    assert set(range(loop[0], loop[0] + loop[1] + 1)) <= set(rows.tolist())
    np.testing.assert_array_equal(np.c_[path.x, path.y], cycle.path_w[rows])
    assert path.name == f"path of (w₁, w₂): {len(rows):,} of its {length:,} points"
    drawn = next(t for t in fig.data if t.name.startswith("the loop"))
    np.testing.assert_array_equal(np.c_[drawn.x, drawn.y],
                                  cycle.path_w[loop[0]:loop[0] + loop[1] + 1])
    # the colour scale and the axes still span the whole path
    assert (path.marker.cmin, path.marker.cmax) == (cycle.path_b.min(), cycle.path_b.max())
    assert fig.layout.xaxis.range[0] <= cycle.path_w[:, 0].min()
    assert "with every one on the loop" in path_note(length, loop)


def test_the_largest_path_costs_a_tenth_of_its_weight_in_figure():
    rng = np.random.default_rng(0)  # 100,000 updates: the most a search keeps
    W, B = np.cumsum(rng.normal(size=(100_001, 2)), axis=0), rng.normal(size=100_001)
    whole = len(trajectory_figure(W, B, max_points=len(W)).to_json())
    thin = trajectory_figure(W, B, cycle_start=90_000, cycle_updates=10_000)
    assert len(thin.to_json()) < whole / 10
    assert len(thin.data[0].x) <= PATH_POINTS
    loop = next(t for t in thin.data if t.name.startswith("the loop"))
    assert len(loop.x) <= PATH_POINTS and (loop.x[0], loop.x[-1]) == (W[90_000, 0], W[-1, 0])
    assert "with every one on the loop" not in path_note(len(W), (90_000, 10_000))


@given(st.integers(1, 20_000), st.integers(0, 19_999), st.integers(0, 19_999))
def test_path_rows_are_bounded_sorted_and_keep_the_ends(length, start, updates):
    loop = (min(start, length - 1), min(updates, length - 1 - min(start, length - 1)))
    rows = path_rows(length, loop)
    assert len(rows) <= PATH_POINTS and np.all(np.diff(rows) > 0)
    assert rows[0] == 0 and rows[-1] == length - 1
    if loop[1] + 1 <= LOOP_POINTS:
        assert set(range(loop[0], loop[0] + loop[1] + 1)) <= set(rows.tolist())
    assert (path_note(length, loop) == "") == (len(rows) == length)


def test_cycle_latex_writes_the_repeat_and_the_updates_that_cancel():
    data = boolean("XOR", "pm1")
    lines = cycle_latex(find_cycle(data.X, data.y))
    assert r"\mathbf{w}_{\text{epoch }2} = \mathbf{w}_{\text{epoch }1} = \left(0,\ 0\right)" \
        in lines[0]
    assert "p = 2 - 1 = 1" in lines[1] and "q = 4" in lines[1]
    assert r"\left(1,\ 1\right) + \left(-1,\ 1\right)" in lines[2]
    assert lines[3].endswith("-1 + 1 + 1 - 1 = 0")


def test_cycle_latex_groups_the_thousands_of_a_long_period():
    from dataclasses import replace
    data = boolean("XOR", "pm1")
    cycle = find_cycle(data.X, data.y)
    assert r"q = 138{,}994\text{ updates per period}" in cycle_latex(
        replace(cycle, updates=138994, cycle_start=None))[1]
    assert r"q = 1\text{ update per period}" in cycle_latex(
        replace(cycle, updates=1, cycle_start=None))[1]


def test_the_search_reports_its_progress_and_stops_at_its_visit_budget():
    data = noisy(40, 0.5, 0)
    done: list[float] = []
    cycle = find_cycle(data.X, data.y, max_visits=400, progress=done.append)
    assert cycle.status == "none" and cycle.epochs == cycle.budget == 10
    assert done == sorted(done) and done[0] > 0 and done[-1] == 1.0
    full = find_cycle(data.X, data.y, progress=done.append)
    assert full.status == "cycle" and done[-1] <= 1.0
