"""The margin lesson driven through AppTest: the numbers shown against core, every control."""

from __future__ import annotations

import math

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from core.geometry import best_unit_separator, geometric_margin, mistake_bound, radius
from core.max_margin import max_margin
from core.perceptron import ORDERS, perceptron
from datasets.builtin import BUILTIN, GENERATORS, notes_four_points
from tests.apptest import (
    ROOT,
    assert_clean,
    by_key,
    chart,
    chart_elements,
    click,
    latex,
    metrics,
    open_app,
    plotly_array,
    stepper_run,
    switch,
    sync,
)
from viz.shapes import band

PAGE = "margin"


def names_of(figure: dict) -> list[str]:
    return [trace.get("name", "") for trace in figure["data"]]


def chart_keys(at) -> list[str]:
    return [widget.rsplit(f"-{PAGE}.", 1)[-1] for widget, _, _ in chart_elements(at)]


def traces(figure: dict) -> dict[str, dict]:
    """The traces of a figure by name, with x and y as plain lists."""
    return {trace.get("name", ""): {**trace, "x": plotly_array(trace.get("x")).tolist(),
                                    "y": plotly_array(trace.get("y")).tolist()}
            for trace in figure["data"]}


def shown_number(text: str) -> float:
    """A metric's number; "≈ 0.353553" is written so where the number is not the value."""
    return {"∞": math.inf, "−∞": -math.inf}.get(text) or float(text.removeprefix("≈ "))


def data_of(name: str):
    """The data set the sidebar builds for a name, with its default parameters."""
    if name in BUILTIN:
        return BUILTIN[name]()
    generator = GENERATORS[name]
    return generator.make(40, generator.shape_range[2], 0)


@pytest.fixture
def at():
    return open_app(PAGE)


def test_notes_points_show_their_bound_and_margins(at):
    shown = metrics(at)
    data = notes_four_points()
    # R = ||(2, 2, 1)|| = 3 and gamma = 1/3 in the space of (x, 1): the bound is 81
    assert shown["Bound R²/γ²"] == "81" == f"{mistake_bound(data.X, data.y):g}"
    assert shown_number(shown["γ of the bound"]) == pytest.approx(1 / 3, rel=1e-5)
    assert shown_number(shown["Maximum margin (plane)"]) == pytest.approx(
        max_margin(data.X, data.y).gamma, rel=1e-5)
    assert shown["Margin of this boundary"] == "−∞"  # w = 0 separates nothing
    text = latex(at)
    # 2.82843 and 0.333333 are rounded (√8, 1/3): what follows them is "≈", not "="
    assert r"\sqrt{1 + 2.82843^2} \approx 3" in text and r"\approx 0.333333" in text
    assert r"\frac{3^2}{0.333333^2} \approx 81" in text
    assert shown["γ of the bound"] == "≈ 0.333333"
    # side by side, the maximum-margin separator is a chart beside the run, and the proof's
    # chart follows; the run itself is the stepper's plane (other charts may come and go)
    assert {"maximum", "proof"} <= set(chart_keys(at)), chart_keys(at)
    header, _ = stepper_run(at, PAGE)
    assert "band" in header["layers"] and header["point_traces"] == []
    assert any(n.startswith("ball of radius R = 3 around the (x, 1)")
               for n in names_of(header["figure"]))


def check_bound(at, name: str, bias: bool) -> None:
    """The bound metric is mistake_bound, and the run's last mistake count stays under it."""
    data = data_of(name)
    bound = mistake_bound(data.X, data.y, bias=bias)
    assert shown_number(metrics(at)["Bound R²/γ²"]) == pytest.approx(bound, rel=1e-5), name
    header, columns = stepper_run(at, PAGE)
    sync(at, PAGE, header["steps"])
    assert int(columns["mistakes"][-1]) <= bound, (name, bias)
    if math.isinf(bound):
        assert any("bound R²/γ² is infinite" in w.value for w in at.warning), name


def test_the_bound_shown_is_mistake_bound_on_every_data_set(at):
    for name in list(BUILTIN) + list(GENERATORS):
        by_key(at.selectbox, "data.choice").set_value(name).run()
        check_bound(at, name, True)
    by_key(at.toggle, "train.bias").set_value(False).run()
    for name in ("Lecture notes' example: 2 points", "AND (±1)", "OR (0/1)",
                 "Separable (generator)"):
        by_key(at.selectbox, "data.choice").set_value(name).run()
        check_bound(at, name, False)


def test_stepping_shows_the_margin_of_each_boundary(at):
    data = notes_four_points()
    steps = list(perceptron(data.X, data.y))
    k = [s.t for s in steps if s.updated][1]  # the second mistake
    sync(at, PAGE, k)
    step = steps[k - 1]
    expected = geometric_margin(data.X, data.y, step.w, step.b)
    shown = metrics(at)["Margin of this boundary"]
    assert shown_number(shown) == pytest.approx(expected, rel=1e-5)
    sync(at, PAGE, len(steps))
    final = steps[-1]
    margin = geometric_margin(data.X, data.y, final.w, final.b)
    assert margin > 0
    assert shown_number(metrics(at)["Margin of this boundary"]) == pytest.approx(margin, rel=1e-5)
    assert "(it separates }" in latex(at)
    _, columns = stepper_run(at, PAGE)
    np.testing.assert_array_equal(columns["W"][-1], final.w)


def test_maximum_margin_chart_circles_the_support_vectors(at):
    data = notes_four_points()
    mm = max_margin(data.X, data.y)
    figure = traces(chart(at, f"{PAGE}.maximum"))
    rings = figure["support vectors"]
    assert sorted(zip(rings["x"], rings["y"], strict=True)) == sorted(
        map(tuple, data.X[mm.support]))
    band = figure["maximum-margin band"]
    corners = np.column_stack([band["x"], band["y"]])
    # every corner of the shaded band lies within gamma of the separator
    distance = np.abs(corners @ mm.w + mm.b) / np.linalg.norm(mm.w)
    assert np.all(distance <= mm.gamma * (1 + 1e-9))
    # R = 3 is the radius of a ball around the (x, 1); the points' plane (third coordinate 1)
    # cuts it in the circle of radius sqrt(R^2 - 1) = max ||x|| = sqrt(8), which is drawn
    name, = (n for n in figure if n.startswith("ball of radius R = 3 around the (x, 1)"))
    circle = figure[name]
    assert np.hypot(circle["x"], circle["y"]) == pytest.approx(math.sqrt(8))
    assert np.max(np.linalg.norm(np.column_stack([data.X, np.ones(4)]), axis=1)) == 3.0
    assert "= max ‖x‖" in name and not any(n.startswith("max ‖x‖") for n in figure)


def test_overlay_and_ball_toggles(at):
    by_key(at.segmented_control, f"{PAGE}.layout").set_value("Overlaid").run()
    assert_clean(at)
    # overlaid, the maximum-margin separator is drawn on the stepper's plane, not beside it
    assert "maximum" not in chart_keys(at) and "proof" in chart_keys(at), chart_keys(at)
    figure = stepper_run(at, PAGE)[0]["figure"]
    assert "support vectors" in names_of(figure)
    wide = figure["layout"]["xaxis"]["range"]
    by_key(at.toggle, f"{PAGE}.ball").set_value(False).run()
    narrow = stepper_run(at, PAGE)[0]["figure"]["layout"]["xaxis"]["range"]
    assert narrow[1] - narrow[0] < wide[1] - wide[0]
    assert wide[0] < -math.sqrt(8) < math.sqrt(8) < wide[1]  # the whole circle is in view


def test_on_a_projector_the_separators_layout_is_on_the_page(at):
    """Lecture mode: "Side by side / Overlaid", which the page's words name, was only in the
    sidebar a projector keeps closed; it is on the page (the title's row)."""
    by_key(at.toggle, "view.lecture").set_value(True).run()
    assert_clean(at)
    assert not [c for c in at.sidebar.segmented_control if c.key == f"{PAGE}.layout"]
    layout = by_key(at.main.segmented_control, f"{PAGE}.layout")
    layout.set_value("Overlaid").run()
    assert_clean(at)
    assert "support vectors" in names_of(stepper_run(at, PAGE)[0]["figure"])


def test_xor_has_an_infinite_bound_and_points_to_the_nonseparable_lesson(at):
    by_key(at.selectbox, "data.choice").set_value("XOR (0/1)").run()
    assert_clean(at)
    assert metrics(at)["Bound R²/γ²"] == "∞"
    assert metrics(at)["Maximum margin (plane)"] == "none"
    assert any("bound R²/γ² is infinite" in w.value for w in at.warning)
    links = [link.proto.page for link in at.get("page_link")]
    shown = links + [m.value for m in at.markdown]
    assert any("nonseparable" in text or "Non-separable data" in text for text in shown)
    assert "proof" not in chart_keys(at)


def test_without_a_bias_the_bound_lives_in_the_plane(at):
    by_key(at.toggle, "train.bias").set_value(False).run()
    assert_clean(at)
    data = notes_four_points()
    text = latex(at)
    assert r"\text{no bias: the perceptron sees }" in text
    u, gamma = best_unit_separator(data.X, data.y, bias=False)
    line = traces(chart(at, f"{PAGE}.maximum"))["line of the bound's u (u·(x, 1) = 0)"]
    points = np.column_stack([line["x"], line["y"]])
    np.testing.assert_allclose(points @ u, 0, atol=1e-9)  # through the origin
    assert shown_number(metrics(at)["Bound R²/γ²"]) == pytest.approx(
        radius(data.X, bias=False) ** 2 / gamma**2, rel=1e-5)


def test_proof_chart_keeps_both_inequalities_and_marks_the_current_update(at):
    _, columns = stepper_run(at, PAGE)
    sync(at, PAGE, int(np.flatnonzero(columns["updated"])[2]))  # the third mistake
    figure = traces(chart(at, f"{PAGE}.proof"))
    t = np.array(figure["u·wₜ"]["x"])
    projections = np.array(figure["u·wₜ"]["y"])
    squares = np.array(figure["‖wₜ‖²"]["y"])
    gamma, R = 1 / 3, 3.0
    assert np.all(projections >= t * gamma - 1e-9)
    assert np.all(squares <= t * R**2 + 1e-9)
    now = figure["now: t = 3"]
    assert now["x"] == [3] and now["y"][0] == pytest.approx(projections[3])
    line = figure["lower bound tγ"]
    assert line["y"][1] == pytest.approx(line["x"][1] * gamma)


def test_other_starts_and_rates_are_explained(at):
    by_key(at.number_input, "train.eta").set_value(0.5).run()
    assert_clean(at)
    captions = " ".join(c.value for c in at.caption)
    assert "both sides scale" in captions
    line = traces(chart(at, f"{PAGE}.proof"))["upper bound tη²R²"]
    assert line["y"][1] == pytest.approx(line["x"][1] * 0.25 * 9)

    by_key(at.radio, "train.init").set_value("typed").run()
    by_key(at.number_input, "train.w1").set_value(1.0).run()
    assert_clean(at)
    assert "not guaranteed" in at.info[0].value
    figure = traces(chart(at, f"{PAGE}.proof"))
    start = figure["upper bound ‖w₀‖² + tη²R²"]  # w0 = (1, 0, 0): the line starts at 1
    assert start["y"][0] == pytest.approx(1.0)
    assert "lower bound u·w₀ + tηγ" in figure
    captions = " ".join(c.value for c in at.caption)
    assert "starts from w₀ = (1, 0, 0)" in captions and "needs w₀ = 0" in captions


def test_experiment_runs_on_demand_and_stays_under_the_bound(at):
    assert "experiment" not in chart_keys(at)
    click(at, f"{PAGE}.run")
    figure = traces(chart(at, f"{PAGE}.experiment"))
    line = figure["mistakes = bound (y = x)"]
    assert line["x"] == line["y"]
    runs = [trace for name, trace in figure.items() if name != "mistakes = bound (y = x)"]
    assert len(runs) == len(ORDERS)  # one trace per visiting order
    bounds = np.concatenate([trace["x"] for trace in runs])
    mistakes = np.concatenate([trace["y"] for trace in runs])
    assert len(bounds) == 180 and np.all(mistakes <= bounds)
    assert "180 runs: 180 within the bound" in " ".join(c.value for c in at.caption)


def test_the_margin_band_is_the_strip_inside_the_box():
    rng = np.random.default_rng(3)
    box = ((-2.0, 2.0), (-1.0, 3.0))
    for _ in range(20):
        w, b, h = rng.normal(size=2), float(rng.normal()), float(rng.uniform(0.1, 1.0))
        xs, ys = band(w, b, h * np.linalg.norm(w), box)  # a half-width h, as a level of w·x + b
        inside = rng.uniform([-2, -1], [2, 3], size=(4000, 2))
        in_band = np.abs(inside @ w + b) / np.linalg.norm(w) <= h
        if not xs:
            assert not in_band.any()
            continue
        # shoelace area against the share of random points of the box inside the band
        area = 0.5 * abs(np.dot(xs[:-1], ys[1:]) - np.dot(xs[1:], ys[:-1]))
        assert area == pytest.approx(16 * in_band.mean(), abs=0.5)


def test_a_link_restores_the_view_and_skips_bad_values():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.query_params.update({"sep": "Overlaid", "ball": "maybe"})
    at.run()
    switch(at, PAGE)
    at.run()
    assert_clean(at)
    assert by_key(at.segmented_control, f"{PAGE}.layout").value == "Overlaid"
    assert by_key(at.toggle, f"{PAGE}.ball").value is True  # "maybe" is not 0 or 1
    by_key(at.toggle, f"{PAGE}.ball").set_value(False).run()
    assert at.query_params["ball"] == "0"


def test_the_subtitle_names_the_bounds_own_gamma_and_the_plane_version_fails():
    # a separable set shifted away from the origin: its plane margin and max ||x|| would
    # "bound" the mistakes below what the run makes; R^2/gamma^2 of (x, 1) holds
    from sklearn.svm import SVC

    from datasets.builtin import separable
    data = separable(40, 0.2, 1)
    X, y = data.X + 5.0, data.y
    svc = SVC(kernel="linear", C=1e8, tol=1e-10).fit(X, y)
    plane_margin = 1 / np.linalg.norm(svc.coef_)
    assert plane_margin == pytest.approx(max_margin(X, y).gamma, rel=1e-4)
    plane_bound = np.max(np.sum(X**2, axis=1)) / plane_margin**2
    *_, last = perceptron(X, y, max_epochs=100_000, every="update")
    # the run's count is the notes' rule's, counted again in fractions
    assert last.mistakes == exact_mistakes(X, [int(v) for v in y], 1, (0, 0), 0)
    assert plane_bound < last.mistakes <= mistake_bound(X, y)
    at = open_app(page="margin")
    said = at.caption[0].value
    assert "(x, 1)" in said and "not the plane's margin" in said and "Margin(D)" in said


def exact_mistakes(X, y, eta, w, b):
    """The notes' rule in fractions, cyclic, to convergence: an independent count."""
    from fractions import Fraction
    X = [[Fraction(str(v)) for v in row] for row in X]
    eta = Fraction(str(eta))
    w, b, mistakes = [Fraction(str(v)) for v in w], Fraction(str(b)), 0
    while True:
        changed = False
        for x, label in zip(X, y, strict=True):
            if label * (sum(wj * xj for wj, xj in zip(w, x, strict=True)) + b) <= 0:
                w = [wj + eta * label * xj for wj, xj in zip(w, x, strict=True)]
                b, mistakes, changed = b + eta * label, mistakes + 1, True
        if not changed:
            return mistakes


def test_novikoffs_theorem_is_stated_whole_and_fails_from_a_non_zero_start(at):
    text = latex(at)
    for part in (r"\lVert \mathbf{z}_n \rVert \le R", r"\gamma > 0", r"\mathbf{w}_0 = \mathbf{0}",
                 r"\eta > 0", "any order", r"R^2/\gamma^2"):
        assert part in text
    table, = (d.value for d in at.dataframe if "bound R²/γ²" in d.value.columns)
    data = notes_four_points()
    y = [int(v) for v in data.y]
    # the notes' 4 points from w0 = (-3, 3), b0 = 2: 30, 142 and 1353 mistakes (exact), bound 81
    assert [exact_mistakes(data.X, y, eta, (-3, 3), 2) for eta in (1, 0.1, 0.01)] == \
        [30, 142, 1353]
    assert table["mistakes from w₀ = (-3, 3), b₀ = 2"].tolist() == [30, 142, 1353]
    zero = exact_mistakes(data.X, y, 1, (0, 0), 0)
    assert table["mistakes from w₀ = 0, b₀ = 0"].tolist() == [zero] * 3 == [22] * 3
    assert table["bound R²/γ²"].tolist() == ["81"] * 3


def test_an_update_raises_y_a_by_eta_norm_plus_one_and_may_need_repeating(at):
    data = notes_four_points()
    steps = list(perceptron(data.X, data.y))
    # step 10 updates on (2, 1): y*a = -6 and one update adds ||x||^2 + 1 = 6, reaching 0,
    # still a mistake under y*a <= 0: on its own the example needs 2 updates
    step = steps[9]
    assert step.updated and step.index == 1
    x, y = data.X[1], data.y[1]
    assert y * step.activation == -6 and y * (x @ step.w + step.b) == 0
    sync(at, PAGE, 10)
    assert r"= 0 - (-6) = \eta(\lVert\mathbf{x}\rVert^2 + 1) = 1\cdot 6 = 6" in latex(at)
    assert any("needs 2 updates before y·a > 0" in c.value for c in at.caption)
    sync(at, PAGE, 2)  # (2, 1) again, from -4: one update of 6 flips it
    assert r"= 2 - (-4) =" in latex(at)
    assert any("One update was enough" in c.value for c in at.caption)


def test_a_tie_after_an_update_in_tenths_is_not_called_enough():
    # the notes' 2 points with eta = 0.1 from w = 0: step 7 updates on (1, 1) from y*a = -0.3
    # and adds 0.1 * (1 + 1 + 1) = 0.3: exactly 0, a tie, so one update did not flip it
    # (in floats 0.1 * 3 is 0.30000000000000004 and the tie vanished)
    at = open_app(PAGE)
    by_key(at.selectbox, "data.choice").set_value("Lecture notes' example: 2 points").run()
    by_key(at.number_input, "train.eta").set_value(0.1).run()
    assert_clean(at)
    sync(at, PAGE, 7)
    captions = " ".join(c.value for c in at.caption)
    assert "Step 7 updated on example 1" in captions
    assert "One update was enough" not in captions
    assert "y·a is now 0, a tie, which is still a mistake" in captions
    assert "needs 2 updates before y·a > 0" in captions
    assert r"= 0 - (-0.3) =" in latex(at)
