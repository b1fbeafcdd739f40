"""The step-through lesson driven through AppTest: controls, numbers, data, errors."""

from __future__ import annotations

import json

import numpy as np
import pytest

from core.perceptron import perceptron
from datasets.builtin import BUILTIN, GENERATORS
from tests.apptest import assert_clean, by_key, click, latex, metrics, open_app, position, upload

PAGE = "step_through"


@pytest.fixture
def notes_example():
    """The app with the seeds' worked example loaded."""
    at = open_app()
    at.button[0].click()
    at.run()
    assert_clean(at)
    return at


def test_opens_at_step_zero_with_controls():
    at = open_app()
    assert position(at) == 0
    labels = [b.label for b in at.button]
    for label in ("Back", "Step", "Next mistake", "Reset"):
        assert label in labels
    assert by_key(at.button, f"{PAGE}.back").disabled


def test_notes_example_numbers_are_shown_step_by_step(notes_example):
    at = notes_example
    assert by_key(at.selectbox, "data.choice").value == "Lecture notes' example: 4 points"
    click(at, f"{PAGE}.step")
    text = latex(at)
    assert "(0.2)(1) + (0)(1) - 0.1" in text and "= 0.1" in text      # a = 0.1
    assert "(-1)(0.1) = -0.1 \\le 0" in text and "mistake: update" in text
    assert "\\left(0.1,\\ -0.1\\right)" in text and "= -0.2" in text   # w, b after
    click(at, f"{PAGE}.step")
    text = latex(at)
    assert "\\left(0.3,\\ 0\\right)" in text and "-0.2 + 0.1 = -0.1" in text
    click(at, f"{PAGE}.step")
    text = latex(at)
    assert "= 0.35 > 0" in text and "no update" in text
    assert metrics(at)["Mistakes so far"] == "2"


def test_back_returns_exactly_to_the_previous_state(notes_example):
    at = notes_example
    for _ in range(3):
        click(at, f"{PAGE}.step")
    before = (metrics(at), latex(at))
    click(at, f"{PAGE}.step")
    click(at, f"{PAGE}.back")
    assert (metrics(at), latex(at)) == before


def test_next_mistake_skips_to_the_next_update_and_reset_goes_home(notes_example):
    at = notes_example
    for _ in range(3):
        click(at, f"{PAGE}.step")  # step 3 is correct: no update
    click(at, f"{PAGE}.next")
    assert position(at) == 4 and metrics(at)["Mistakes so far"] == "3"
    click(at, f"{PAGE}.reset")
    assert position(at) == 0


def test_slider_jumps_to_the_end_and_shows_convergence(notes_example):
    at = notes_example
    slider = by_key(at.slider, f"{PAGE}.t")
    slider.set_value(slider.max).run()
    assert_clean(at)
    assert metrics(at)["Status"] == "converged"
    assert "Converged after 8 mistakes in 5 epochs." in [s.value for s in at.success]


def test_xor_never_converges_and_says_so():
    at = open_app()
    by_key(at.selectbox, "data.choice").set_value("XOR (0/1)").run()
    slider = by_key(at.slider, f"{PAGE}.t")
    slider.set_value(slider.max).run()
    assert metrics(at)["Status"] == "not converged"
    assert "Max epochs (50) reached" in at.warning[0].value


@pytest.mark.parametrize("name", list(BUILTIN) + list(GENERATORS))
def test_every_data_set_trains_and_steps(name):
    at = open_app()
    by_key(at.selectbox, "data.choice").set_value(name).run()
    assert_clean(at)
    click(at, f"{PAGE}.next")
    assert position(at) >= 1


@pytest.mark.parametrize("order", ["cyclic", "shuffle_once", "shuffle_each_epoch", "random",
                                   "random_misclassified"])
def test_every_order_runs_and_matches_the_core(order):
    at = open_app()
    by_key(at.selectbox, "data.choice").set_value("Separable (generator)").run()
    by_key(at.selectbox, "train.order").set_value(order).run()
    by_key(at.number_input, "train.seed").set_value(7).run()
    assert_clean(at)
    at_end = by_key(at.slider, f"{PAGE}.t")
    from datasets.builtin import separable

    data = separable(40, 0.2, 0)
    steps = list(perceptron(data.X, data.y, order=order, seed=7, max_epochs=50))
    assert at_end.max == len(steps)


def test_random_and_typed_init_and_no_bias():
    at = open_app()
    by_key(at.radio, "train.init").set_value("random").run()
    assert_clean(at)
    by_key(at.radio, "train.init").set_value("typed").run()
    by_key(at.number_input, "train.w1").set_value(1.0).run()
    by_key(at.number_input, "train.b").set_value(-2.0).run()
    text = latex(at)
    assert "1\\,x_1 + 0\\,x_2 - 2 = 0" in text  # the typed boundary before the first step
    by_key(at.toggle, "train.bias").set_value(False).run()
    click(at, f"{PAGE}.step")
    assert "b \\leftarrow" not in latex(at)


def test_changing_the_run_goes_back_to_step_zero(notes_example):
    at = notes_example
    click(at, f"{PAGE}.step")
    by_key(at.number_input, "train.eta").set_value(0.5).run()
    assert position(at) == 0


def test_upload_a_csv_becomes_your_data():
    at = open_app()
    upload(at, "mine.csv", b"x1,x2,label\n0,0,cat\n1,1,dog\n2,0,cat\n")
    assert_clean(at)
    assert by_key(at.selectbox, "data.choice").value == "Your data"
    assert "3 points" in at.sidebar.caption[0].value and "dog" in at.sidebar.caption[0].value


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "the file is empty"),
        (b"x1,x2,label\n1,abc,0\n2,2,1\n", "row 2, column 'x2': 'abc' is not a number"),
        (b"x1,x2,label\n1,1,0\n2,2,0\n", "only one class"),
        (b"\x00\x01\x02binary", "not a text CSV file"),
    ],
)
def test_a_bad_csv_shows_a_message_and_keeps_the_data(content, message):
    at = open_app()
    upload(at, "good.csv", b"x1,x2,label\n0,0,a\n1,1,b\n2,0,a\n")
    upload(at, "bad.csv", content)
    assert_clean(at)
    errors = [e.value for e in at.error]
    assert any(message in e and "previous data is kept" in e for e in errors), errors
    assert by_key(at.selectbox, "data.choice").value == "Your data"
    assert "3 points" in at.sidebar.caption[0].value


def test_play_view_carries_only_the_moving_traces_in_its_frames(notes_example):
    at = notes_example
    by_key(at.segmented_control, f"{PAGE}.view").set_value("Play").run()
    assert_clean(at)
    charts = at.get("plotly_chart")
    assert len(charts) == 1
    figure = json.loads(charts[0].proto.spec)
    frames = figure["frames"]
    assert len(frames) == 21  # the initial state and each of the 20 steps
    # each frame moves traces 0 and 1 and carries nothing else: no points, no styles
    assert all(set(frame) == {"data", "name"} and len(frame["data"]) == 2 for frame in frames)
    assert all(set(frame["data"][0]) <= {"x", "y", "type"} for frame in frames)
    assert len(figure["data"][2]["x"]) + len(figure["data"][3]["x"]) == 4  # the points, once
    # the boundary in the last frame is the final one: 0.3 x1 - 0.3 x2 - 0.1 = 0
    x, y = np.array(frames[-1]["data"][0]["x"][:2]), np.array(frames[-1]["data"][0]["y"][:2])
    np.testing.assert_allclose(0.3 * x - 0.3 * y - 0.1, 0, atol=1e-3)
