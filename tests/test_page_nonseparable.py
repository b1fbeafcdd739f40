"""The non-separable lesson driven through AppTest: data buttons, banner, step controls, views."""

from __future__ import annotations

import pytest

from core.cycles import find_cycle
from core.exact_runs import exact_perceptron, fixed_rows, float_departure
from core.pocket import epoch_report
from core.trace import training_errors
from datasets.builtin import BUILTIN, noisy
from tests.apptest import (
    assert_clean,
    by_key,
    charts,
    click,
    latex,
    metrics,
    open_app,
    plotly_array,
)

PAGE = "nonseparable"
XOR = "XOR (0/1)"
IRIS = "Iris: versicolor vs virginica (petal)"


def trace_names(at) -> set[str]:
    return {t.get("name") for spec in charts(at) for t in spec["data"]}


@pytest.fixture(scope="module")
def xor():
    """The page on XOR (0/1), chosen with its button."""
    at = open_app(page=PAGE)
    click(at, f"{PAGE}.use.XOR (0/1)")
    return at


def test_separable_default_says_so_and_points_to_step_through():
    at = open_app(page=PAGE)
    data = BUILTIN["Lecture notes' example: 4 points"]()
    cycle = find_cycle(data.X, data.y)
    assert cycle.status == "converged"
    text = at.info[0].value
    assert "linearly separable" in text
    assert f"after {cycle.mistakes} mistakes in {cycle.epochs} epochs" in text
    assert not at.success  # no cycle banner


@pytest.mark.parametrize(("label", "name"), [
    ("XOR (0/1)", "XOR (0/1)"), ("XOR (±1)", "XOR (±1)"),
    ("Noisy blobs", "Noisy blobs (generator)"),
    ("Iris versicolor / virginica", IRIS),
])
def test_each_suggested_data_button_shows_its_cycle(label, name):
    at = open_app(page=PAGE)
    click(at, f"{PAGE}.use.{label}")
    assert by_key(at.selectbox, "data.choice").value == name
    data = noisy(40, 0.5, 0) if "generator" in name else BUILTIN[name]()
    cycle = find_cycle(data.X, data.y)
    assert cycle.status == "cycle"
    assert at.success[0].value == (
        f"Cycle found: the weights at the start of epoch {cycle.repeat} equal those at epoch "
        f"{cycle.first} (period {cycle.period} epoch{'s' if cycle.period > 1 else ''}, "
        f"{cycle.updates} updates).")
    assert rf"\text{{epoch }}{cycle.repeat}" in latex(at)
    assert f"the loop ({cycle.updates} updates)" in trace_names(at)


def test_xor_banner_shows_the_repeated_weights_and_the_cancelling_updates(xor):
    text = latex(xor)
    assert r"\mathbf{w}_{\text{epoch }2} = \mathbf{w}_{\text{epoch }1} = \left(0,\ 0\right)" \
        in text
    assert r"\left(0,\ 0\right) + \left(0,\ 1\right) + \left(1,\ 0\right) + " \
           r"\left(-1,\ -1\right) = \left(0,\ 0\right)" in text
    assert "-1 + 1 + 1 - 1 = 0" in text


def test_step_controls_walk_the_exact_run(xor):
    at = xor
    data = BUILTIN[XOR]()
    steps = list(exact_perceptron(data.X, data.y, max_epochs=50, every="visit"))
    assert metrics(at)["Step t"] == "start"
    for k in (1, 2, 3):
        click(at, f"{PAGE}.step")
        step = steps[k - 1]
        shown = metrics(at)
        assert shown["Step t"] == str(k) and shown["Mistakes so far"] == str(step.mistakes)
        assert shown["Training errors now"] == \
            f"{training_errors(data.X, data.y, step.w, step.b)} / 4"
    click(at, f"{PAGE}.back")
    assert metrics(at)["Step t"] == "2"
    click(at, f"{PAGE}.next")
    assert metrics(at)["Step t"] == "3"
    click(at, f"{PAGE}.reset")
    assert metrics(at)["Step t"] == "start"
    slider = by_key(at.slider, f"{PAGE}.t")
    slider.set_value(slider.max).run()
    assert metrics(at)["Step t"] == str(len(steps)) and metrics(at)["Epoch"] == "50"


def test_error_chart_and_remedy_numbers_match_the_core(xor):
    data = BUILTIN[XOR]()
    report = epoch_report(data.X, data.y, max_epochs=50)
    shown = metrics(xor)
    assert shown["Last weights, epoch 50"] == f"{report.errors_last[-1]} / 4"
    assert shown["Pocket (best seen)"] == f"{report.errors_pocket[-1]} / 4"
    assert shown["Averaged"] == f"{report.errors_averaged[-1]} / 4"
    errors = next(s for s in charts(xor) if any(t.get("name") == "last weights"
                                                for t in s["data"]))
    series = {t["name"]: plotly_array(t["y"]).tolist() for t in errors["data"] if t.get("name")}
    assert series["last weights"] == report.errors_last.tolist()
    assert series["pocket (best seen)"] == report.errors_pocket.tolist()
    assert series["averaged"] == report.errors_averaged.tolist()
    assert series["max ‖w‖ in the epoch"] == pytest.approx(report.max_norm.tolist())


def test_three_d_toggle_and_play_view(xor):
    at = xor
    by_key(at.toggle, f"{PAGE}.three_d").set_value(True).run()
    assert_clean(at)
    assert any(t.get("type") == "scatter3d" for s in charts(at) for t in s["data"])
    by_key(at.toggle, f"{PAGE}.three_d").set_value(False).run()
    by_key(at.segmented_control, f"{PAGE}.view").set_value("Play").run()
    assert_clean(at)
    frames = [s for s in charts(at) if s.get("frames")]
    assert len(frames) == 1 and len(frames[0]["frames"]) == 4 * 50 + 1
    assert not any(b.key == f"{PAGE}.step" for b in at.button)  # no step buttons in Play
    by_key(at.segmented_control, f"{PAGE}.view").set_value("Step by step").run()
    assert any(b.key == f"{PAGE}.step" for b in at.button)


def test_iris_inside_the_cycle_steps_through_one_period():
    at = open_app(page=PAGE)
    click(at, f"{PAGE}.use.Iris versicolor / virginica")
    data = BUILTIN[IRIS]()
    cycle = find_cycle(data.X, data.y)
    departure = float_departure(data.X, data.y, max_epochs=cycle.repeat + cycle.period)
    assert any(f"step {departure.t:,} (epoch {departure.epoch}" in c.value for c in at.caption)
    part = by_key(at.segmented_control, f"{PAGE}.part")
    part.set_value("cycle").run()
    assert_clean(at)
    click(at, f"{PAGE}.next")
    shown = metrics(at)
    assert shown["Epoch"] == str(cycle.first)
    first_update = next(iter(exact_perceptron(data.X, data.y, from_epoch=cycle.first,
                                              max_epochs=cycle.first)))
    assert shown["Step t"] == f"{first_update.t:,}"
    assert shown["Mistakes so far"] == f"{first_update.mistakes:,}"
    slider = by_key(at.slider, f"{PAGE}.t")
    slider.set_value(slider.max).run()
    assert metrics(at)["Mistakes so far"] == f"{cycle.mistakes:,}"
    # one period later the boundary is the one the loop started from
    w = [float(v) for v in cycle.w]
    assert metrics(at)["Training errors now"] == \
        f"{training_errors(data.X, data.y, w, float(cycle.b))} / 100"


@pytest.mark.parametrize("order", ["shuffle_once", "shuffle_each_epoch", "random",
                                   "random_misclassified"])
def test_other_orders(order):
    at = open_app(page=PAGE)
    click(at, f"{PAGE}.use.XOR (±1)")
    by_key(at.selectbox, "train.order").set_value(order).run()
    by_key(at.number_input, "train.seed").set_value(5).run()
    assert_clean(at)
    data = BUILTIN["XOR (±1)"]()
    if order == "shuffle_once":
        rows = fixed_rows(data.X, data.y, order=order, seed=5)
        cycle = find_cycle(data.X, data.y, rows=rows)
        assert at.success[0].value == cycle.message
    else:
        assert "changes from epoch to epoch" in at.info[0].value
        assert "path of (w₁, w₂) after each update" in trace_names(at)
        assert "max ‖w‖ in the epoch" in trace_names(at)


def test_random_init_has_no_exact_search_and_max_epochs_sets_the_chart():
    at = open_app(page=PAGE)
    click(at, f"{PAGE}.use.XOR (0/1)")
    by_key(at.number_input, "train.max_epochs").set_value(7).run()
    assert "Last weights, epoch 7" in metrics(at)
    by_key(at.radio, "train.init").set_value("random").run()
    assert_clean(at)
    assert "No exact cycle search: the initial weights are random" in at.warning[0].value


def test_typed_init_and_eta_keep_the_search_exact():
    at = open_app(page=PAGE)
    click(at, f"{PAGE}.use.XOR (0/1)")
    by_key(at.radio, "train.init").set_value("typed").run()
    by_key(at.number_input, "train.w1").set_value(0.3).run()
    by_key(at.number_input, "train.eta").set_value(0.2).run()
    assert_clean(at)
    data = BUILTIN[XOR]()
    cycle = find_cycle(data.X, data.y, eta=0.2, init=((0.3, 0.0), 0.0))
    assert cycle.status == "cycle" and at.success[0].value == cycle.message


def test_without_a_bias_the_search_follows_the_toggle():
    at = open_app(page=PAGE)
    click(at, f"{PAGE}.use.XOR (±1)")
    by_key(at.toggle, "train.bias").set_value(False).run()
    assert_clean(at)
    data = BUILTIN["XOR (±1)"]()
    cycle = find_cycle(data.X, data.y, bias=False)
    assert cycle.status == "cycle" and at.success[0].value == cycle.message
    assert r"\sum_{\text{one period}} \eta\, y_n =" not in latex(at)  # b never moves
