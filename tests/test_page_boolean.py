"""The Boolean lesson driven through AppTest: hand-made weights, training, XOR, the lift."""

from __future__ import annotations

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from core.boolean import FUNCTIONS, hand_weights, lift, train, truth_table
from tests.apptest import (
    ROOT,
    assert_clean,
    by_key,
    chart,
    latex,
    metrics,
    open_app,
    plotly_array,
    switch,
    whole_bundle_charts,
)

PAGE = "boolean"


def weights(at) -> tuple[float, float, float]:
    """(w1, w2, b) from the sliders, after checking the number boxes agree."""
    values = []
    for name in ("w1", "w2", "b"):
        slider = by_key(at.slider, f"{PAGE}.{name}").value
        assert by_key(at.number_input, f"{PAGE}.{name}_box").value == slider
        values.append(slider)
    return tuple(values)


def table(at):
    return at.dataframe[0].value


def section(at, name: str):
    """One of the lesson's parts, picked as a reader picks it (the row under the title)."""
    by_key(at.segmented_control, f"{PAGE}.part").set_value(name).run()
    assert_clean(at)
    return at


def choose(at, function: str | None = None, encoding: str | None = None):
    if function is not None:
        by_key(at.segmented_control, f"{PAGE}.function").set_value(function).run()
    if encoding is not None:
        by_key(at.radio, f"{PAGE}.encoding").set_value(encoding).run()
    assert_clean(at)
    return at


@pytest.fixture
def at():
    return open_app(PAGE)


def test_opens_on_and_with_the_slides_numbers(at):
    assert weights(at) == (20.0, 20.0, -30.0)
    rows = table(at)
    a = dict(zip(zip(rows["x₁"], rows["x₂"], strict=True), rows["a"],
                 strict=True))
    assert (a[("1", "1")], a[("0", "1")], a[("0", "0")]) == (10.0, -10.0, -30.0)
    assert list(rows["right"]) == ["✓"] * 4
    assert metrics(at)["Rows right"] == "4 / 4"
    text = " ".join(m.value for m in at.markdown)
    assert "**x** = (1, 1): *a* = 20 · 1 + 20 · 1 − 30 = 10 (wants *a* > 0) ✓" in text
    assert "**x** = (0, 1): *a* = 20 · 0 + 20 · 1 − 30 = −10 (wants *a* < 0) ✓" in text
    assert "*a* = 20 · 0 + 20 · 0 − 30 = −30" in text
    assert latex(at) == ""  # (no KaTeX before the plane's picture)


def test_sign_of_a_is_minus_one_for_negative_a_in_the_zero_one_encoding(at):
    # sign(-30) = -1 whatever the encoding; the output column speaks the table's 1/0
    assert "a < 0 false" in at.caption[0].value and "sign of a" in at.caption[0].value
    rows = table(at).set_index(["x₁", "x₂"])
    for key, a in zip((("0", "0"), ("0", "1"), ("1", "0"), ("1", "1")), (-30, -10, -10, 10),
                      strict=True):
        assert rows.loc[key, "a"] == a
        assert rows.loc[key, "sign a"] == {1: "+1", -1: "-1"}[int(np.sign(a))]
        assert rows.loc[key, "output"] == ("1" if a > 0 else "0")
    by_key(at.slider, f"{PAGE}.b").set_value(-20.0).run()
    by_key(at.number_input, f"{PAGE}.b_box").set_value(-20.0).run()
    rows = table(at).set_index(["x₁", "x₂"])
    assert rows.loc[("0", "1"), "a"] == 0 and rows.loc[("0", "1"), "sign a"] == "0"
    assert rows.loc[("0", "1"), "output"] == "none (a = 0)"


@pytest.mark.parametrize(("function", "expected"), [("AND", (1.0, 1.0, -1.0)),
                                                    ("OR", (1.0, 1.0, 1.0)),
                                                    ("NOT", (-1.0, 0.0, 0.0))])
def test_book_weights_load_with_the_plus_minus_one_encoding(at, function, expected):
    choose(at, function, "pm1")
    assert weights(at) == expected
    assert metrics(at)["Rows right"] == "4 / 4"
    if function == "AND":  # negative inputs in brackets, minus signs as such
        text = " ".join(m.value for m in at.markdown)
        assert "**x** = (−1, −1): *a* = 1 · (−1) + 1 · (−1) − 1 = −3 (wants *a* < 0) ✓" in text
    rows = table(at)
    assert set(rows["x₁"]) == {"-1", "1"}
    if function == "NOT":
        assert "x₂ (ignored)" in rows.columns
        assert "second input x₂ that it ignores" in at.info[0].value


def test_slider_and_number_box_stay_in_step_and_light_up_the_rows(at):
    by_key(at.slider, f"{PAGE}.b").set_value(-40.0).run()  # (1, 1) now gives a = 0
    assert weights(at) == (20.0, 20.0, -40.0)
    rows = table(at)
    assert list(rows["right"]) == ["✓", "✓", "✓", "✗"]  # a = 0 is not true
    assert metrics(at)["Rows right"] == "3 / 4"
    text = " ".join(m.value for m in at.markdown)
    assert "*a* = 20 · 1 + 20 · 1 − 40 = 0 (wants *a* > 0) ✗" in text
    by_key(at.number_input, f"{PAGE}.w2_box").set_value(-5.0).run()
    assert weights(at) == (20.0, -5.0, -40.0)
    figure = chart(at, f"{PAGE}.plane")
    wrong = next(t for t in figure["data"] if t.get("name") == "wrong row (✗)")
    assert plotly_array(wrong["x"]).tolist() == [1.0] and plotly_array(wrong["y"]).tolist() == [1.0]
    line = next(t for t in figure["data"] if t.get("name") == "w₁x₁ + w₂x₂ + b = 0")
    x, y = plotly_array(line["x"]), plotly_array(line["y"])
    np.testing.assert_allclose(20 * x - 5 * y - 40, 0, atol=1e-9)
    by_key(at.button, f"{PAGE}.hand").click()
    at.run()
    assert weights(at) == (20.0, 20.0, -30.0)


@pytest.mark.parametrize("encoding", ["01", "pm1"])
def test_training_table_and_trained_weights(at, encoding):
    section(choose(at, encoding=encoding), "training")
    runs = at.dataframe[0].value
    assert list(runs.index) == list(FUNCTIONS)
    for function in FUNCTIONS:
        t = truth_table(function, encoding=encoding)
        run = train(t.X, t.y)
        row = runs.loc[function]
        assert (row["mistakes"], row["w₁"], row["w₂"], row["b"]) == (
            run.mistakes, run.w[0], run.w[1], run.b)
        ends = row["how the run ends"]
        assert ends.startswith("cycles") if function == "XOR" else ends.startswith("converged")
    choose(at, "OR")
    by_key(at.button, f"{PAGE}.trained").click()
    at.run()
    t = truth_table("OR", encoding=encoding)
    run = train(t.X, t.y)
    assert "OR converges after" in at.success[0].value
    section(at, "weights")  # the trained weights are the weights' part's
    assert weights(at) == (run.w[0], run.w[1], run.b)
    assert metrics(at)["Rows right"] == "4 / 4"
    if encoding == "pm1":  # the perceptron finds the book's x1 + x2 + 1 itself
        hand = hand_weights("OR", encoding="pm1")
        assert weights(at) == (*hand.w, hand.b)


@pytest.mark.parametrize("encoding", ["01", "pm1"])
def test_xor_fails_three_of_four_and_the_lift_fixes_it(at, encoding):
    choose(at, "XOR", encoding)
    assert metrics(at)["Rows right"] == "3 / 4"
    section(at, "training")
    assert "never converges" in at.warning[0].value
    assert "back at w = 0, b = 0" in at.warning[0].value
    assert by_key(at.button, f"{PAGE}.trained").disabled
    section(at, "xor")
    assert metrics(at)["Best any line does on XOR"] == "3 / 4"
    text = " ".join(m.value for m in at.markdown)
    assert "in 14 of the 2⁴ = 16 possible ways" in text
    links = [link.proto.page for link in at.get("page_link")]
    assert any("nonseparable" in page for page in links) or "Non-separable data" in text

    t = truth_table("XOR", encoding=encoding)
    run = train(lift(t.X), t.y)
    section(at, "lift")
    surface = next(tr for tr in chart(at, f"{PAGE}.lifted")["data"] if tr["type"] == "surface")
    # the 3-D lift is drawn by the whole Plotly the page fetches after its first picture, not
    # by st.plotly_chart (Streamlit's own, evaluated before the lesson's first chart)
    assert at.get("plotly_chart") == []
    assert [name.rsplit("-", 1)[1] for name in whole_bundle_charts(at)] == [f"{PAGE}.lifted"]
    x1, x2, x3 = (plotly_array(surface[k]) for k in ("x", "y", "z"))
    drawn = ~np.isnan(x3)
    np.testing.assert_allclose((run.w[0] * x1 + run.w[1] * x2 + run.w[2] * x3 + run.b)[drawn],
                               0, atol=1e-9)
    contour = next(tr for tr in chart(at, f"{PAGE}.curve")["data"] if tr["type"] == "contour")
    assert contour["contours"]["start"] == contour["contours"]["end"] == 0
    xs, ys, values = (plotly_array(contour[k]) for k in ("x", "y", "z"))
    g1, g2 = np.meshgrid(xs, ys)
    expected = run.w[0] * g1 + run.w[1] * g2 + run.w[2] * g1 * g2 + run.b
    np.testing.assert_allclose(values, expected, atol=1e-9)


def test_other_lessons_keep_their_sidebar_settings(at):
    switch(at, "step_through")
    at.run()
    by_key(at.selectbox, "data.choice").set_value("OR (±1)").run()
    by_key(at.number_input, "train.eta").set_value(0.5).run()
    switch(at, "boolean")
    at.run()
    assert_clean(at)
    switch(at, "step_through")
    at.run()
    assert by_key(at.selectbox, "data.choice").value == "OR (±1)"
    assert by_key(at.number_input, "train.eta").value == 0.5


def test_a_link_restores_function_encoding_and_weights_and_skips_bad_values():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.query_params.update({"fn": "XOR", "enc": "pm1", "w1": "-2.5", "w2": "abc", "b": "99"})
    at.run()
    switch(at, "boolean")
    at.run()
    assert_clean(at)
    assert by_key(at.segmented_control, f"{PAGE}.function").value == "XOR"
    assert by_key(at.radio, f"{PAGE}.encoding").value == "pm1"
    # w1 from the link; w2 = abc and b = 99 (out of range) keep the hand-made 1 and 1
    assert weights(at) == (-2.5, 1.0, 1.0)
    assert at.query_params["w1"] == "-2.5" and at.query_params["fn"] == "XOR"


def test_training_endings_are_worded_from_the_run():
    xor = truth_table("XOR", encoding="01")
    assert train(xor.X, xor.y).ending == ("cycles: every 1 epoch the weights are back at "
                                          "w = 0, b = 0")
    both = truth_table("AND", encoding="01")
    assert train(both.X, both.y).ending == "converged after 9 epochs"
    run = train([[0.0, 0.0], [1.0, 1.0], [0.0, 1.0], [1.0, 0.0]], [1, 1, -1, -1], max_epochs=1)
    assert run.ending == "no convergence in 1 epoch"


def test_one_part_at_a_time_and_on_a_projector_its_picker_is_on_the_title_row(at):
    """A page of all five parts built every element of them before its first picture: the
    reader picks one (the weights' plane first); on a projector the picker is a drop-down on
    the title's row, on the page (in the sidebar, which a projector keeps closed, the room
    could not see which part the page was on), so that the plane has the height under the
    title."""
    headers = [h.value for h in at.header]
    assert headers == [] and len(at.dataframe) == 1  # the weights' part alone
    assert by_key(at.segmented_control, f"{PAGE}.part").value == "weights"
    assert [h.value for h in section(at, "parity").header] == ["Parity of more bits"]
    by_key(at.toggle, "view.lecture").set_value(True).run()
    assert_clean(at)
    assert not [c for c in at.segmented_control if c.key == f"{PAGE}.part"]
    assert not [c for c in at.sidebar.selectbox if c.key == f"{PAGE}.part"]
    assert not [c for c in at.sidebar.radio if c.key == f"{PAGE}.part"]
    picker = by_key(at.main.selectbox, f"{PAGE}.part")
    assert picker.value == "parity" and picker.label == "Part"
    # the function on the same row, a drop-down there, so that the row holds both and Share
    function = by_key(at.main.selectbox, f"{PAGE}.function")
    assert function.value == "AND"
    function.set_value("XOR").run()
    assert_clean(at)
    assert at.query_params["fn"] == "XOR"
    picker.set_value("xor").run()
    assert [h.value for h in at.header] == ["Why no line computes XOR"]
    assert at.query_params["part"] == "xor"
