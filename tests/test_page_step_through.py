"""The step-through lesson driven through AppTest: controls, numbers, data, errors."""

from __future__ import annotations

import json

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from core.perceptron import perceptron
from datasets.builtin import BUILTIN, GENERATORS
from tests.apptest import (
    ROOT,
    assert_clean,
    by_key,
    chart_elements,
    open_app,
    shown,
    stepper_element,
    stepper_run,
    sync,
    upload,
)

PAGE = "step_through"


@pytest.fixture
def notes_example():
    """The app with the lecture notes' worked example loaded."""
    at = open_app()
    at.button[0].click()
    at.run()
    assert_clean(at)
    return at


def notes_run():
    """The lecture notes' worked example, trained as the page trains it."""
    from datasets.builtin import BUILTIN, NOTES_ETA, NOTES_INIT

    data = BUILTIN["Lecture notes' example: 4 points"]()
    return data, list(perceptron(data.X, data.y, eta=NOTES_ETA, init=NOTES_INIT))


def test_opens_at_step_zero_with_the_stepper_and_no_server_buttons():
    at = open_app()
    header, columns = stepper_run(at, PAGE)
    assert header["start"] == 0 and at.session_state[f"{PAGE}.t"] == 0
    assert "step" not in at.query_params
    # stepping is the browser's: no Step/Back buttons or slider reach the server
    labels = [b.label for b in at.button]
    assert not {"Back", "Step", "Next mistake", "Reset"} & set(labels)
    assert not [s for s in at.slider if s.key == f"{PAGE}.t"]
    assert not chart_elements(at)  # the charts are drawn by the stepper
    assert columns["W"].shape == (header["steps"] + 1, 2)


def test_the_run_sent_is_the_core_run_column_for_column(notes_example):
    header, columns = stepper_run(notes_example, PAGE)
    data, steps = notes_run()
    assert header["steps"] == len(steps) == 20
    np.testing.assert_array_equal(columns["X"], data.X)
    np.testing.assert_array_equal(columns["y"], data.y)
    np.testing.assert_array_equal(columns["W"][0], [0.2, 0.0])
    assert columns["b"][0] == -0.1
    for k, step in enumerate(steps, start=1):
        np.testing.assert_array_equal(columns["W"][k], step.w)
        assert columns["b"][k] == step.b and columns["activation"][k] == step.activation
        assert columns["index"][k] == step.index and columns["updated"][k] == step.updated
        assert columns["epoch"][k] == step.epoch and columns["mistakes"][k] == step.mistakes
    assert header["eta"] == 0.1 and header["bias"] is True
    assert header["result"]["converged"] and "8 mistakes in 5 epochs" in header["result"]["message"]


def test_a_sync_keeps_the_step_in_session_and_address_and_survives_a_rerun(notes_example):
    at = sync(notes_example, PAGE, 7)
    assert at.session_state[f"{PAGE}.t"] == 7
    assert at.query_params["step"] == "7"
    header, _ = stepper_run(at, PAGE)
    assert header["start"] == 7  # a page opened again (or another page and back) starts there
    sync(at, PAGE, 0)
    assert "step" not in at.query_params


@pytest.mark.parametrize("report", [{"run": "another-run", "k": 3}, {"k": 3}, {"run": None},
                                    "7", {"run": "R", "k": 999}, {"run": "R", "k": -1},
                                    {"run": "R", "k": 2.5}, {"run": "R", "k": True}])
def test_stale_or_malformed_reports_change_nothing(notes_example, report):
    from streamlit.proto.WidgetStates_pb2 import WidgetState

    at = sync(notes_example, PAGE, 4)
    header, _ = stepper_run(at, PAGE)
    if isinstance(report, dict) and report.get("run") == "R":
        report = {**report, "run": header["run"]}
    states = at._tree.get_widget_states()
    states.widgets.append(WidgetState(id=stepper_element(at, PAGE).proto.id,
                                      json_value=json.dumps({"position": report})))
    at._run(states)
    assert_clean(at)
    assert at.session_state[f"{PAGE}.t"] == 4 and at.query_params["step"] == "4"


def test_a_link_opens_at_its_step_and_an_old_t_link_still_works():
    for param in ("step", "t"):
        at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
        at.query_params.update({"data": "lecture-notes-example-4-points", param: "6"})
        at.run()
        assert_clean(at)
        assert stepper_run(at, PAGE)[0]["start"] == 6
        assert at.query_params["step"] == "6" and "t" not in at.query_params


def test_a_link_past_the_end_opens_at_the_end():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.query_params.update({"data": "lecture-notes-example-4-points", "step": "5000"})
    at.run()
    header, _ = stepper_run(at, PAGE)
    assert header["start"] == header["steps"]


def test_xor_never_converges_and_says_so():
    at = open_app()
    by_key(at.selectbox, "data.choice").set_value("XOR (0/1)").run()
    header, _ = stepper_run(at, PAGE)
    assert not header["result"]["converged"]
    assert "Max epochs (50) reached" in header["result"]["message"]


@pytest.mark.parametrize("name", list(BUILTIN) + list(GENERATORS))
def test_every_data_set_trains_and_packs(name):
    at = open_app()
    by_key(at.selectbox, "data.choice").set_value(name).run()
    assert_clean(at)
    header, columns = stepper_run(at, PAGE)
    assert header["steps"] >= 1 and len(columns["y"]) == len(columns["X"])
    sync(at, PAGE, 1)
    assert at.session_state[f"{PAGE}.t"] == 1


@pytest.mark.parametrize("order", ["cyclic", "shuffle_once", "shuffle_each_epoch", "random",
                                   "random_misclassified"])
def test_every_order_runs_and_matches_the_core(order):
    at = open_app()
    by_key(at.selectbox, "data.choice").set_value("Separable (generator)").run()
    by_key(at.selectbox, "train.order").set_value(order).run()
    by_key(at.number_input, "train.seed").set_value(7).run()
    assert_clean(at)
    from datasets.builtin import separable

    data = separable(40, 0.2, 0)
    steps = list(perceptron(data.X, data.y, order=order, seed=7, max_epochs=50))
    header, columns = stepper_run(at, PAGE)
    assert header["steps"] == len(steps)
    np.testing.assert_array_equal(columns["index"][1:], [s.index for s in steps])


def test_random_and_typed_init_and_no_bias():
    at = open_app()
    by_key(at.radio, "train.init").set_value("random").run()
    assert_clean(at)
    by_key(at.radio, "train.init").set_value("typed").run()
    by_key(at.number_input, "train.w1").set_value(1.0).run()
    by_key(at.number_input, "train.b").set_value(-2.0).run()
    _, columns = stepper_run(at, PAGE)
    np.testing.assert_array_equal(columns["W"][0], [1.0, 0.0])
    assert columns["b"][0] == -2.0
    by_key(at.toggle, "train.bias").set_value(False).run()
    header, columns = stepper_run(at, PAGE)
    assert header["bias"] is False and not columns["b"].any()


def test_changing_the_run_goes_back_to_step_zero(notes_example):
    at = sync(notes_example, PAGE, 3)
    by_key(at.number_input, "train.eta").set_value(0.5).run()
    assert at.session_state[f"{PAGE}.t"] == 0
    assert stepper_run(at, PAGE)[0]["start"] == 0
    assert "step" not in at.query_params


def test_a_report_from_the_old_run_after_a_change_is_ignored(notes_example):
    old = stepper_run(notes_example, PAGE)[0]["run"]
    at = notes_example
    by_key(at.number_input, "train.eta").set_value(0.5).run()
    sync(at, PAGE, 3, run=old)
    assert at.session_state[f"{PAGE}.t"] == 0


def test_lecture_mode_sends_a_bigger_figure():
    at = open_app()
    normal = stepper_run(at, PAGE)[0]
    by_key(at.toggle, "view.lecture").set_value(True).run()
    lecture = stepper_run(at, PAGE)[0]
    assert lecture["lecture"] and not normal["lecture"]
    assert lecture["figure"]["layout"]["height"] > normal["figure"]["layout"]["height"]
    assert normal["run"] == lecture["run"]  # the same run: the browser keeps its step


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
    errors = [shown(e.value) for e in at.error]
    assert any(message in e and "previous data is kept" in e for e in errors), errors
    assert by_key(at.selectbox, "data.choice").value == "Your data"
    assert "3 points" in at.sidebar.caption[0].value


def test_an_eta_stepped_in_floating_point_stays_a_short_decimal_and_the_run_exact():
    at = open_app()
    # what the number box's + gives from 0.2 with a step of 0.1
    by_key(at.number_input, "train.eta").set_value(0.2 + 0.1).run()
    assert_clean(at)
    caption = next(c.value for c in at.caption if c.value.startswith("Where this run ends"))
    assert "Not exact" not in caption
    data = BUILTIN["Lecture notes' example: 4 points"]()
    steps = list(perceptron(data.X, data.y, eta=0.3))
    assert stepper_run(at, PAGE)[0]["steps"] == len(steps)


def _a_request_with(at, eta: float, init: str, shown: int | None = None):
    """The page's next request: η and the initial weights as it sends them, and (when given)
    the hidden count of buttons it has seen (ui.state.shown_marker)."""
    by_key(at.number_input, "train.eta").set_value(eta)
    by_key(at.radio, "train.init").set_value(init)
    if shown is not None:
        by_key(at.number_input, "pl-shown").set_value(shown)
    return at.run()


def test_a_request_sent_before_the_buttons_run_reached_the_page_does_not_undo_it(
        notes_example):
    """A click sent while the notes' example's run was on its way carries the widgets' values
    from before it (η = 1, zero weights) and the count of buttons the page had seen then (0):
    the example's values stay, and the run is the notes'."""
    at = _a_request_with(notes_example, 1.0, "zeros", shown=0)
    assert at.session_state["train.eta"] == 0.1 and at.session_state["train.init"] == "typed"
    header, columns = stepper_run(at, PAGE)
    _, steps = notes_run()
    assert header["steps"] == len(steps) == 20
    assert np.allclose(columns["W"][-1], steps[-1].w)


def test_a_change_made_after_the_page_had_the_buttons_run_is_kept(notes_example):
    """The same values sent once the page had the example's run (its count says so) are the
    reader's own choice: η = 1 and zero weights stay."""
    at = _a_request_with(notes_example, 1.0, "zeros")
    assert at.session_state["train.eta"] == 1.0 and at.session_state["train.init"] == "zeros"
    at = _a_request_with(at, 0.1, "typed", shown=0)  # (no button pending: nothing is held)
    at = _a_request_with(at, 1.0, "zeros", shown=0)
    assert at.session_state["train.eta"] == 1.0


def test_a_projectors_notes_button_has_no_help_to_cover_the_step():
    """Pressed by key, the button keeps the focus while the arrows step: its help would lie
    over the status and the maths for the room. A reader's page keeps the help (what the
    notes give and what is reconstructed)."""
    def notes_button(at):
        return next(b for b in at.button if b.label == "Lecture notes' example")

    at = open_app()
    assert "reconstructed from the numbers" in notes_button(at).help
    by_key(at.toggle, "view.lecture").set_value(True).run()
    assert not notes_button(at).help
