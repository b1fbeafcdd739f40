"""status.js: the status line at every step, against the same line written here from the run."""

from __future__ import annotations

import base64

import numpy as np
import pytest

from core.decimals import Misclassified
from core.exact_runs import exact_perceptron
from core.geometry import geometric_margin
from core.perceptron import perceptron
from core.trace import outcome, record
from datasets.builtin import BUILTIN, noisy, separable
from tests.browser.js.test_companion import runs as companion_runs
from tests.reference.wire import unpack
from ui.stepper import Run, pack, perceptron_run, with_companion
from viz import describe
from viz.maths import num

pytestmark = pytest.mark.browser

LINES = """([text, pair]) => {
  const run = pl.unpack(pl.bytes(text));
  const lines = [];
  for (let k = 0; k <= run.header.steps; k++) lines.push(pl.statusText(run, k, pair));
  return { lines, longest: pl.longestStatus(run, pair) };
}"""


def expected(header: dict, columns: dict, k: int, pair: bool) -> str:
    """The status line after k steps, as the page should write it."""
    steps, layers, words = header["steps"], header["layers"], header["words"]
    mistakes = int(columns["mistakes"][k])
    end = "" if pair else "still learning"
    if k == steps:
        end = "converged" if header["result"]["converged"] else "not converged"
    X, y = columns["X"], columns["y"]
    w, b = columns["W"][k], columns["b"][k]
    extra = ""
    if "errors" in layers:
        wrong = Misclassified(X, y).count(w, b)  # exactly, on short decimals
        extra += f" · {wrong} / {len(y)} training errors"
    if "band" in layers:
        margin = geometric_margin(X, y, w, float(b))
        extra += f" · margin {'≈ ' + num(margin) if np.isfinite(margin) else '−∞'}"
    where = f"Step {k} / {steps}"
    if header.get("t0"):
        where = f"Step {header['t0'] + k} ({k} / {steps} {words.get('window', 'shown')})"
    word = words.get("mistakes", "mistake") + ("" if mistakes == 1 else "s")
    epoch = int(columns["epoch"][k]) if k else 0
    return f"{where} · epoch {epoch} · {mistakes} {word}{extra}" + (f" · {end}" if end else "")


def assert_lines(page, run: Run, pair: bool = False) -> None:
    blob = pack({**run.header, "run": run.id}, run.columns)
    got = page.evaluate(LINES, [base64.b64encode(blob).decode(), pair])
    header, columns = unpack(blob)
    lines = [expected(header, columns, k, pair) for k in range(run.steps + 1)]
    assert got["lines"] == lines
    assert got["longest"] == max(len(lines[0]), len(lines[-1]))


SETTINGS = dict(eta=0.1, bias=True, order="cyclic", init="zeros", seed=0, max_epochs=6)


@pytest.mark.parametrize("pair", [False, True])
@pytest.mark.parametrize("data", [separable(20, 0.3, 1), noisy(25, 0.8, 2),
                                  BUILTIN["Lecture notes' example: 4 points"]()])
def test_where_the_run_is_and_how_it_ends(js, data, pair):
    trace = record(perceptron(data.X, data.y, **SETTINGS))
    assert_lines(js, perceptron_run(data, trace, SETTINGS,
                                    outcome(trace, data.X, data.y, max_epochs=6)), pair)


@pytest.mark.parametrize("layers", [("band",), ("errors",), ("band", "errors")])
def test_the_margin_and_the_training_errors_when_the_lesson_counts_them(js, layers):
    for data in (separable(30, 0.3, 4), noisy(30, 0.8, 5)):
        trace = record(perceptron(data.X, data.y, **SETTINGS))
        assert_lines(js, perceptron_run(data, trace, SETTINGS,
                                        outcome(trace, data.X, data.y, max_epochs=6),
                                        layers=("boundary", *layers)))


def test_a_window_counts_its_steps_as_the_run_does_in_the_lessons_words(js):
    data = BUILTIN["XOR (±1)"]()
    window = record(exact_perceptron(data.X, data.y, max_epochs=4, every="visit", from_epoch=3))
    run = perceptron_run(data, window, {**SETTINGS, "eta": 1.0, "max_epochs": 4},
                         outcome(window, data.X, data.y, max_epochs=4),
                         words={"window": "of the period", "mistakes": "violation"})
    assert_lines(js, run)


SAID = """([text]) => {
  const run = pl.unpack(pl.bytes(text));
  const said = [];
  for (let k = 0; k <= run.header.steps; k++) said.push(pl.announceText(run, k));
  return said;
}"""


def said(page, run: Run, **header) -> list[str]:
    blob = pack({**run.header, "run": run.id, **header}, run.columns)
    lines = page.evaluate(SAID, [base64.b64encode(blob).decode()])
    return [line.replace("\u2212", "-") for line in lines]


def test_what_each_step_means_is_said_with_the_maths_numbers(js):
    data = BUILTIN["Lecture notes' example: 4 points"]()
    settings = {**SETTINGS, "init": ((0.2, 0.0), -0.1)}
    trace = record(perceptron(data.X, data.y, **settings))
    run = perceptron_run(data, trace, settings, outcome(trace, data.X, data.y, max_epochs=6))
    lines = said(js, run)
    assert lines[0] == f"Step 0 of {trace.steps}: before the first step."
    pair = lambda w: f"({num(w[0])}, {num(w[1])})"
    for k in range(1, trace.steps + 1):
        i = int(trace.index[k])
        ya = float(data.y[i] * trace.activation[k])
        head = f"Step {k} of {trace.steps}: example {i + 1}, y·a = {num(ya)}, "
        if trace.updated[k]:
            p, q = trace.W[k - 1], trace.W[k]
            verb = "turns" if p[0] * q[1] - p[1] * q[0] else "goes"  # no turn: no direction
            meaning = (f"a mistake: w {verb} from {pair(trace.W[k - 1])} to {pair(trace.W[k])}, "
                       f"and b from {num(trace.b[k - 1])} to {num(trace.b[k])}.")
        else:
            meaning = "correct, no update."
        assert lines[k] == head + meaning, k
    # the lecture notes count training examples from 1: step 1 visits example 1, step 2 example 2
    assert lines[1].startswith("Step 1 of ") and ": example 1, y·a = -0.1, a mistake" in lines[1]
    # the lecture notes' second step, as the lesson says it
    assert lines[2].startswith("Step 2 of ") and \
        "example 2, y·a = -0.1, a mistake: w turns from (0.1, -0.1) to (0.3, 0)" in lines[2]


def test_a_companions_step_is_said_after_the_runs_by_its_name(js):
    """Two runs on one plane (with_companion): each step says the run's meaning, then the
    companion's under its name, as it would say it alone."""
    run, other, svm = companion_runs()
    steps = svm.steps
    both, alone, own = said(js, with_companion(run, other)), said(js, other), said(js, run)
    assert both[0] == own[0]  # before the first step: where the run is
    for k in range(1, steps + 1):
        meaning = alone[k].split(": ", 1)[1]
        assert both[k] == f"{own[k]} SVM (λ = 0.01): {meaning}", k
    assert "inside the margin: a hinge step" in both[1]


def test_in_floats_the_results_are_said_approximately_and_past_the_end_the_servers_words(js):
    data = separable(20, 0.3, 1)
    trace = record(perceptron(data.X, data.y, **SETTINGS))
    result = outcome(trace, data.X, data.y, max_epochs=6)
    run = perceptron_run(data, trace.padded(trace.steps + 2), SETTINGS, result)
    lines = said(js, run, exact=False, floats={"mark": "≈ floats", "note": "floats"})
    assert all("y·a ≈ " in line for line in lines[1:trace.steps + 1])
    assert lines[-1] == f"Step {trace.steps + 2} of {trace.steps + 2}: {result.message}"


def test_a_kernel_run_says_which_example_and_whether_its_alpha_grew(js):
    # a kernel run is sent with no w (its page paints sign s(x) from the updates)
    from core.kernel import Kernel, kernel_perceptron
    from ui.stepper import epoch_columns

    data = BUILTIN["XOR (±1)"]()
    trace = record(kernel_perceptron(data.X, data.y, kernel=Kernel("polynomial", degree=2),
                                     max_epochs=6))
    header = {"steps": trace.steps, "eta": 1.0, "bias": True, "classes": list(data.classes),
              "layers": ["kernel", "visited"], "result": {"converged": True, "message": ""},
              "words": {}}
    columns = {"X": np.asarray(data.X, dtype=float), "y": np.asarray(data.y).astype(np.int8),
               "index": trace.index.astype(np.int16), "updated": trace.updated.astype(np.uint8),
               "mistakes0": np.asarray(trace.mistakes[:1], dtype=np.int32),
               **epoch_columns(trace)}
    lines = said(js, Run("kernel", trace.steps, header, columns))
    assert lines[0] == f"Step 0 of {trace.steps}: before the first step."
    for k in range(1, trace.steps + 1):
        verdict = "a mistake: its α grows by one" if trace.updated[k] else "correct, no update"
        assert lines[k] == f"Step {k} of {trace.steps}: example {trace.index[k] + 1}, {verdict}.", k
    assert trace.updated[1:].any() and not trace.updated[1:].all()  # both are said


NAMES = """([text]) => {
  const run = pl.unpack(pl.bytes(text));
  return Array.from({ length: run.header.steps + 1 }, (_, k) => pl.planeWords(run, k));
}"""


@pytest.mark.parametrize("svm", [False, True])
def test_the_plane_is_named_by_its_boundary_at_every_step(js, svm):
    data = BUILTIN["Lecture notes' example: 4 points"]()
    settings = {**SETTINGS, "init": ((0.2, 0.0), -0.1)}
    trace = record(perceptron(data.X, data.y, **settings))
    run = perceptron_run(data, trace, settings, outcome(trace, data.X, data.y, max_epochs=6))
    blob = pack({**run.header, "run": run.id, "svm": svm}, run.columns)
    names = js.evaluate(NAMES, [base64.b64encode(blob).decode()])
    name = "The SVM's boundary" if svm else "The perceptron's boundary"
    for k, words in enumerate(names):
        assert words == describe.boundary(data.X, data.y, trace.W[k], trace.b[k], name=name), k
    kernel = pack({**run.header, "run": run.id, "layers": ["kernel"]}, run.columns)
    assert set(js.evaluate(NAMES, [base64.b64encode(kernel).decode()])) == \
        {"The kernel perceptron's boundary over the points."}
