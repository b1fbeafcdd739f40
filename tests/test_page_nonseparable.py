"""The non-separable lesson driven through AppTest: data buttons, banner, step controls, views."""

from __future__ import annotations

import pytest

from core.cycles import find_cycle
from core.exact_runs import exact_perceptron, fixed_rows, float_departure
from core.pocket import epoch_report
from core.words import plural
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
    stepper_run,
    sync,
)
from viz.maths import is_shown

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


def test_on_a_projector_the_sets_the_page_names_are_on_the_page():
    """Lecture mode said "Pick one of the sets to try" with the sets only in the sidebar, which
    a projector keeps closed: the buttons are on the page, and pick the set."""
    at = open_app(page=PAGE)
    by_key(at.toggle, "view.lecture").set_value(True).run()
    assert_clean(at)
    assert "Pick one of the sets" in at.info[0].value
    assert not [b for b in at.sidebar.button if b.key.startswith(f"{PAGE}.use.")]
    buttons = [b for b in at.main.button if b.key.startswith(f"{PAGE}.use.")]
    assert len(buttons) == 4
    click(at, f"{PAGE}.use.XOR (0/1)")
    assert by_key(at.selectbox, "data.choice").value == XOR


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
        f"{cycle.first} (period {plural(cycle.period, 'epoch')}, "
        f"{plural(cycle.updates, 'update')}).")
    assert rf"\text{{epoch }}{cycle.repeat}" in latex(at)
    assert f"the loop ({plural(cycle.updates, 'update')})" in trace_names(at)


def test_xor_banner_shows_the_repeated_weights_and_the_cancelling_updates(xor):
    text = latex(xor)
    assert r"\mathbf{w}_{\text{epoch }2} = \mathbf{w}_{\text{epoch }1} = \left(0,\ 0\right)" \
        in text
    assert r"\left(0,\ 0\right) + \left(0,\ 1\right) + \left(1,\ 0\right) + " \
           r"\left(-1,\ -1\right) = \left(0,\ 0\right)" in text
    assert "-1 + 1 + 1 - 1 = 0" in text


def current_point(at) -> list[float]:
    """The weights the weight-space chart marks as this step's."""
    spec = next(s for s in charts(at) if any(t.get("name") == "weights now" for t in s["data"]))
    now = next(t for t in spec["data"] if t.get("name") == "weights now")
    return [plotly_array(now["x"])[0], plotly_array(now["y"])[0]]


def test_the_exact_run_is_stepped_in_the_page_and_the_chart_follows(xor):
    at = xor
    data = BUILTIN[XOR]()
    steps = list(exact_perceptron(data.X, data.y, max_epochs=50, every="visit"))
    header, columns = stepper_run(at, PAGE)
    assert header["steps"] == len(steps) and "errors" in header["layers"]
    for k in (1, 2, 3, len(steps)):
        step = steps[k - 1]
        assert columns["W"][k].tolist() == [float(v) for v in step.w]
        assert columns["mistakes"][k] == step.mistakes and columns["epoch"][k] == step.epoch
    assert columns["epoch"][-1] == 50
    sync(at, PAGE, 3)
    assert at.query_params["step"] == "3"
    assert current_point(at) == [float(v) for v in steps[2].w]


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


def test_three_d_toggle(xor):
    at = xor
    by_key(at.toggle, f"{PAGE}.three_d").set_value(True).run()
    assert_clean(at)
    assert any(t.get("type") == "scatter3d" for s in charts(at) for t in s["data"])
    by_key(at.toggle, f"{PAGE}.three_d").set_value(False).run()
    assert not any(s.get("frames") for s in charts(at))  # no animation of frames any more


def test_iris_inside_the_cycle_steps_through_one_period():
    at = open_app(page=PAGE)
    click(at, f"{PAGE}.use.Iris versicolor / virginica")
    data = BUILTIN[IRIS]()
    cycle = find_cycle(data.X, data.y)
    departure = float_departure(data.X, data.y, max_epochs=cycle.repeat + cycle.period)
    assert any(f"step {departure.t:,} (epoch {departure.epoch}" in c.value for c in at.caption)
    part = by_key(at.segmented_control, f"{PAGE}.watch")
    part.set_value("cycle").run()
    assert_clean(at)
    header, columns = stepper_run(at, PAGE)
    first_update = next(iter(exact_perceptron(data.X, data.y, from_epoch=cycle.first,
                                              max_epochs=cycle.first)))
    k = int(columns["updated"].argmax())
    assert columns["epoch"][k] == cycle.first and columns["mistakes"][k] == first_update.mistakes
    assert columns["mistakes"][-1] == cycle.mistakes
    # one period later the boundary is the one the loop started from
    w = [float(v) for v in cycle.w]
    assert columns["W"][-1].tolist() == w == columns["W"][0].tolist()
    assert columns["b"][-1] == float(cycle.b)
    sync(at, PAGE, header["steps"])
    assert current_point(at) == w


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


def test_the_cycling_theorem_is_stated_with_its_condition(xor):
    # the theorem bounds the weights; an exact repeat needs rational numbers (a finite lattice)
    said = xor.caption[0].value
    assert "stay bounded" in said and "rational" in said and "need not repeat exactly" in said
    assert "comes back, exactly" not in said
    report = epoch_report(*(lambda d: (d.X, d.y))(BUILTIN[XOR]()), max_epochs=200)
    assert max(report.max_norm) == max(report.max_norm[:10])  # bounded from the first loop


def test_freund_and_schapires_bound_sits_beside_the_run():
    from core.geometry import non_separable_bound
    from core.perceptron import perceptron
    from core.soft_margin import soft_margin
    at = open_app(page=PAGE)
    click(at, f"{PAGE}.use.Noisy blobs")
    data = noisy(40, 0.5, 0)
    shown = metrics(at)
    label, = (k for k in shown if k.startswith("Mistakes in "))
    passes = int(label.split()[2].replace(",", ""))
    made = sum(1 for _ in perceptron(data.X, data.y, max_epochs=passes, every="update"))
    sm = soft_margin(data.X, data.y, C=1.0)
    bound, _ = non_separable_bound(data.X, data.y, [*sm.w, sm.b], passes=passes)
    assert shown[label] == f"{made:,}"
    written = shown["Freund and Schapire's bound"]  # "≈" before a rounded bound
    assert written.startswith("≈ ") == (not is_shown(bound))
    assert float(written.removeprefix("≈ ").replace(",", "")) == pytest.approx(bound, rel=1e-5)
    assert made <= bound


def test_a_long_search_is_capped_with_a_notice_and_goes_on_behind_a_button(monkeypatch):
    import lessons.nonseparable.parts as lesson

    data = BUILTIN[IRIS]()
    cycle = find_cycle(data.X, data.y)  # needs 146,300 visits
    monkeypatch.setattr(lesson, "VIEW_VISITS", 10_000)
    at = open_app(page=PAGE)
    click(at, f"{PAGE}.use.Iris versicolor / virginica")
    assert not at.success
    assert at.warning[0].value.startswith(
        "No repeat within the first 100 epochs (10,000 visits).")
    assert "stops its first search there" in at.warning[0].value
    click(at, f"{PAGE}.search_longer")
    assert at.success[0].value.startswith(
        f"Cycle found: the weights at the start of epoch {cycle.repeat}")
    # other data starts with the page's own search again (noisy blobs need 34,980 visits)
    click(at, f"{PAGE}.use.Noisy blobs")
    assert not at.success and at.warning
