"""The explain layer: the step in words and maths beside the plane, held to the run."""

from __future__ import annotations

import base64
import re

import numpy as np
import pytest

from core.descent import svm_sgd
from core.perceptron import perceptron
from core.trace import outcome, record
from datasets.builtin import BUILTIN, separable
from tests.reference.maths import boundary_equation, step_lines
from ui.stepper import Run, pack, perceptron_run
from viz.maths import labelled, num

pytestmark = pytest.mark.browser

NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:e-?\d+)?")
# the layer drawn at steps ks into a box of its own: its paragraphs and its numbers
DRAW = """([text, ks, pair, ownsKeys]) => {
  const explain = pl.LAYERS.find((layer) => layer.name === "explain");
  const run = pl.unpack(pl.bytes(text));
  const part = explain.build({ side: pl.html("div", {}, document.body) });
  explain.load(part, run);
  if (part.box.hidden) return "hidden";
  return ks.map((k) => {
    explain.draw(part, { run, k, pair, ownsKeys });
    return { words: Array.from(part.box.querySelectorAll("p, span"), (p) => p.textContent),
             verdict: part.box.querySelector(".pl-verdict")?.className ?? null,
             numbers: Array.from(part.box.querySelectorAll("mn:not(.pl-sub)"),
                                 (n) => n.textContent.replace("\\u2212", "-")) };
  });
}"""
NOTES = BUILTIN["Lecture notes' example: 4 points"]()


def latex_numbers(lines: list[str]) -> list[str]:
    return [n for line in lines for n in NUMBER.findall(re.sub(r"x_[12]", "", line))]


def draw(page, run, ks, *, pair=False, owns=True) -> list[dict]:
    blob = pack({**run.header, "run": run.id}, run.columns)
    return page.evaluate(DRAW, [base64.b64encode(blob).decode(), list(ks), pair, owns])


def notes_run(init=((0.2, 0.0), -0.1), layers=None):
    settings = dict(eta=0.1, bias=True, order="cyclic", init=init, seed=0, max_epochs=5)
    trace = record(perceptron(NOTES.X, NOTES.y, **settings))
    run = perceptron_run(NOTES, trace, settings, outcome(trace, NOTES.X, NOTES.y, max_epochs=5),
                         **({"layers": layers} if layers else {}))
    return run, trace


@pytest.mark.parametrize("pair", [False, True])
def test_every_step_in_words_and_numbers(js, pair):
    run, t = notes_run()
    ks = list(range(run.steps + 1))
    for k, got in zip(ks, draw(js, run, ks, pair=pair), strict=True):
        w, b = t.W[k], t.b[k]
        if k == 0:
            assert got["words"] == ["Before the first step. The boundary is",
                                    "Press Step (→) to visit the first example."]
            assert got["numbers"] == latex_numbers([boundary_equation(w, b)])
            continue
        i, updated = int(t.index[k]), bool(t.updated[k])
        example = (f"example {i + 1} x = ({num(NOTES.X[i, 0])}, {num(NOTES.X[i, 1])}), "
                   f"y = {labelled(NOTES.y[i], NOTES.classes)}")
        head = example[0].upper() + example[1:] if pair else \
            f"Step {k}, epoch {t.epoch[k]}: {example}"
        verdict = "y·a ≤ 0: a mistake, so the weights move." if updated else \
            "y·a > 0: correct, no update."
        lines = step_lines(x=NOTES.X[i], y=float(NOTES.y[i]), w_before=t.W[k - 1],
                           b_before=t.b[k - 1], w_after=w, b_after=b, a=t.activation[k],
                           updated=updated, eta=0.1)
        # beside another run, the boundary after the step only where the lines above lack it
        after = [] if pair else ["New boundary:" if updated else "Boundary (unchanged):"]
        assert got["words"] == [head, verdict, *after], k
        assert got["verdict"] == ("pl-verdict pl-mistake" if updated else "pl-verdict")
        assert got["numbers"] == latex_numbers(lines) + (
            [] if pair else latex_numbers([boundary_equation(w, b)])), k


def test_from_w_0_there_is_no_boundary_and_a_hint_only_with_the_keys(js):
    run, _ = notes_run(init="zeros")
    got = draw(js, run, [0], owns=False)[0]
    assert got["words"] == ["Before the first step. The boundary is",
                            "Press Step to visit the first example."]
    assert got["numbers"] == ["0"]  # every a = b = 0


OLD_ENDINGS = ("no example was left inside the margin", "it converged (an epoch")


def test_past_the_end_of_a_shorter_svm_run_its_own_message_as_the_server_writes_it(js):
    data = separable(20, 0.3, 0)
    settings = dict(lam=0.01, eta=1.0, order="cyclic", bias=True, seed=0, max_epochs=20)
    trace = record(svm_sgd(data.X, data.y, **settings))
    run = perceptron_run(data, trace.padded(trace.steps + 3), settings,
                         outcome(trace, data.X, data.y, max_epochs=20),
                         descent={"lam": 0.01, "eta0": 1.0})
    message = (f"The descent ended at step {trace.steps}, when its 20 epochs ran out: "
               "2 examples are still inside the margin.")
    run = Run(run.id, run.steps, run.header.with_(result={**run.header.result, "message": message}),
              run.columns)
    got = draw(js, run, [trace.steps, trace.steps + 3])
    assert got[0]["words"][1].startswith("y·a")  # the SVM's own verdict
    assert got[1]["words"] == [message]
    assert not any(old in word for word in got[1]["words"] for old in OLD_ENDINGS)


def test_past_the_end_of_a_shorter_perceptron_run_the_step_and_its_outcome(js):
    settings = dict(eta=0.1, bias=True, order="cyclic", init=((0.2, 0.0), -0.1), seed=0,
                    max_epochs=5)
    trace = record(perceptron(NOTES.X, NOTES.y, **settings))
    result = outcome(trace, NOTES.X, NOTES.y, max_epochs=5)
    run = perceptron_run(NOTES, trace.padded(trace.steps + 2), settings, result)
    got = draw(js, run, [trace.steps + 1, trace.steps + 2])
    for step in got:
        assert step["words"] == [f"This run ended at step {trace.steps}: {result.message}"]
        assert not any(old in word for word in step["words"] for old in OLD_ENDINGS)


def test_a_run_that_does_not_explain_hides_the_box(js):
    run, _ = notes_run(layers=("boundary", "weights"))
    assert draw(js, run, [0]) == "hidden"


BADGE = """([text, k]) => {
  const explain = pl.LAYERS.find((layer) => layer.name === "explain");
  const run = pl.unpack(pl.bytes(text));
  const part = explain.build({ side: pl.html("div", {}, document.body) });
  explain.load(part, run);
  explain.draw(part, { run, k, pair: false, ownsKeys: true });
  const badge = part.box.querySelector(".pl-floats");
  return { badge: badge && { text: badge.textContent, title: badge.title,
                             description: badge.getAttribute("aria-description") },
           verdict: part.box.querySelector(".pl-verdict")?.textContent ?? null };
}"""
NOTE = "The data are not short decimals: the run is in floats."


def badge(page, run, k, *, exact, tie=None):
    header = {**run.header, "run": run.id, "exact": exact}
    if not exact:
        header["floats"] = {"mark": "≈ floats", "note": NOTE}
    columns = {**run.columns, **({"tie": tie} if tie is not None else {})}
    blob = pack(header, columns)
    return page.evaluate(BADGE, [base64.b64encode(blob).decode(), k])


@pytest.mark.parametrize("exact", [True, False])
def test_a_run_in_floats_wears_its_mark_with_its_reason(js, exact):
    run, trace = notes_run()
    for k in (0, 1, trace.steps):
        got = badge(js, run, k, exact=exact)
        assert got["badge"] == (None if exact else
                                {"text": "≈ floats", "title": NOTE, "description": NOTE}), k


def test_a_tie_within_rounding_says_the_run_takes_it_as_a_mistake(js):
    run, trace = notes_run()
    k = int(np.flatnonzero(trace.updated[1:])[0]) + 1
    tie = np.zeros(trace.steps + 1, dtype=np.uint8)
    tie[k] = 1
    got = badge(js, run, k, exact=False, tie=tie)
    assert got["verdict"].startswith("y·a is within rounding of 0: the run takes it as a tie, "
                                     "a mistake")
    assert badge(js, run, k, exact=False)["verdict"] == "y·a ≤ 0: a mistake, so the weights move."


def test_an_svm_tie_within_rounding_of_1(js):
    data = separable(20, 0.3, 0)
    settings = dict(lam=0.01, eta=1.0, order="cyclic", bias=True, seed=0, max_epochs=3)
    trace = record(svm_sgd(data.X, data.y, **settings))
    run = perceptron_run(data, trace, settings, outcome(trace, data.X, data.y, max_epochs=3),
                         descent={"lam": 0.01, "eta0": 1.0})
    tie = np.ones(trace.steps + 1, dtype=np.uint8)
    for k in (1, 2, 3):
        got = badge(js, run, k, exact=False, tie=tie)
        assert got["verdict"].startswith("y·a is within rounding of 1: the run takes it as"), k


def test_the_students_names_for_x1_and_x2_stand_beside_their_values_as_text(js):
    """A file's header names x1 and x2: the maths says "x₁ (Hours studied) = 1", literally."""
    from dataclasses import replace

    named = replace(NOTES, columns=("Hours studied", "<b>slept</b> & $x$"))
    settings = dict(eta=0.1, bias=True, order="cyclic", init=((0.2, 0.0), -0.1), seed=0,
                    max_epochs=5)
    trace = record(perceptron(named.X, named.y, **settings))
    run = perceptron_run(named, trace, settings,
                         outcome(trace, named.X, named.y, max_epochs=5))
    got = draw(js, run, [1])[0]
    i = int(trace.index[1])
    assert got["words"][0] == (
        f"Step 1, epoch 1: example 1, x₁ (Hours studied) = {num(NOTES.X[i, 0])}, "
        f"x₂ (<b>slept</b> & $x$) = {num(NOTES.X[i, 1])}, "
        f"y = {labelled(NOTES.y[i], NOTES.classes)}")
    bold = "() => document.querySelectorAll('.pl-head b').length"
    assert js.evaluate(bold) == 0  # the name's markup is text, not a tag
