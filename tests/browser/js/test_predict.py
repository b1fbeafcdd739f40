"""predict.js: the questions before a step, what the answers are held to, and the score."""

from __future__ import annotations

import base64

import numpy as np
import pytest

from core.perceptron import perceptron
from core.trace import outcome, record
from datasets.builtin import BUILTIN, noisy
from ui.stepper import pack, perceptron_run
from viz.maths import labelled, num

pytestmark = pytest.mark.browser

SETTINGS = dict(eta=0.1, bias=True, order="cyclic", init=((0.2, 0.0), -0.1), seed=0,
                max_epochs=5)
NOTES = BUILTIN["Lecture notes' example: 4 points"]()


def packed(data, settings=SETTINGS) -> tuple[str, object]:
    trace = record(perceptron(data.X, data.y, **settings))
    run = perceptron_run(data, trace, settings, outcome(trace, data.X, data.y, max_epochs=5))
    return base64.b64encode(pack(run.header, run.columns)).decode(), trace


# a Predict over boxes of its own; went: the steps it showed
SETUP = """(text) => {
  document.body.replaceChildren();
  const toggle = pl.html("input", { type: "checkbox" }, pl.html("label", {}, document.body));
  const quiz = pl.html("div", { hidden: "" }, document.body);
  const score = pl.html("div", { hidden: "" }, document.body);
  window.went = [];
  window.predict = new pl.Predict(quiz, score, toggle, (k) => window.went.push(k));
  window.run = pl.unpack(pl.bytes(text));
  predict.load(run.header);
}"""
STATE = """() => ({ quiz: predict.box.hidden ? null
                     : Array.from(predict.box.querySelectorAll("p"), (p) => p.textContent),
                   buttons: Array.from(predict.box.querySelectorAll("button"),
                                       (b) => b.textContent),
                   focused: document.activeElement?.textContent ?? null,
                   score: predict.scoreLine.hidden ? null : predict.scoreLine.textContent,
                   went: [...went] })"""


def click(page, label: str) -> dict:
    page.evaluate("""(label) => Array.from(predict.box.querySelectorAll("button"))
                                  .find((b) => b.textContent === label).click()""", label)
    return page.evaluate(STATE)


def test_each_question_is_held_to_the_run(js):
    """Whether step k is a mistake and which way w turns, for every step of a run."""
    data = noisy(30, 0.8, 2)
    text, trace = packed(data, {**SETTINGS, "init": "zeros"})
    js.evaluate(SETUP, text)
    asked = js.evaluate("""() => {
      const out = [];
      for (let k = 1; k <= run.header.steps; k++) {
        predict.ask(run, k);
        out.push([predict.quiz.mistake, predict.quiz.turn]);
      }
      return out;
    }""")
    for k, (mistake, turn) in enumerate(asked, start=1):
        wb, wa = trace.W[k - 1], trace.W[k]
        cross = wb[0] * wa[1] - wb[1] * wa[0]
        expected = 0 if not np.any(wb) or abs(cross) < 1e-12 else int(np.sign(cross))
        assert (mistake, turn) == (bool(trace.updated[k]), expected), k


def test_a_mistake_then_the_way_w_turns(js):
    text, trace = packed(NOTES)
    js.evaluate(SETUP, text)
    k = 2  # the notes' second step: a mistake that turns w
    i = int(trace.index[k])
    wb, wa = trace.W[k - 1], trace.W[k]
    way = "clockwise" if wb[0] * wa[1] - wb[1] * wa[0] < 0 else "anticlockwise"
    js.evaluate("(k) => predict.ask(run, k)", k)
    got = js.evaluate(STATE)
    question = (f"Step {k} visits example {i + 1}: x = ({num(NOTES.X[i, 0])}, "
                f"{num(NOTES.X[i, 1])}), y = {labelled(NOTES.y[i], NOTES.classes)}. "
                "Is it a mistake?")
    assert got["quiz"] == [question]
    assert got["buttons"] == ["Mistake", "No mistake"] and got["focused"] == "Mistake"
    got = click(js, "Mistake")
    assert got["quiz"] == [question, "Which way does w (and with it the boundary) turn?"]
    assert got["buttons"] == ["↺ anticlockwise", "↻ clockwise"] and got["went"] == []
    wrong = "↻ clockwise" if way == "anticlockwise" else "↺ anticlockwise"
    got = click(js, wrong)
    assert got["quiz"] is None and got["went"] == [k]
    assert got["score"] == f"Not quite: it was a mistake, but w turns {way}. " \
                           "Predictions: 0 / 1 right."
    js.evaluate("(k) => predict.ask(run, k)", k)
    click(js, "Mistake")
    got = click(js, "↻ clockwise" if way == "clockwise" else "↺ anticlockwise")
    assert got["score"] == "Right. Predictions: 1 / 2 right." and got["went"] == [k, k]


@pytest.mark.parametrize(("said", "score"), [
    ("No mistake", "Right. Predictions: 1 / 1 right."),
    ("Mistake", "Not quite: it was correct. Predictions: 0 / 1 right.")])
def test_a_correct_step(js, said, score):
    text, trace = packed(NOTES)
    k = int(np.flatnonzero(~trace.updated[1:].astype(bool))[0]) + 1
    js.evaluate(SETUP, text)
    js.evaluate("(k) => predict.ask(run, k)", k)
    got = click(js, said)
    assert got["score"] == score and got["went"] == [k] and got["quiz"] is None


def test_the_toggle_explains_itself_once_and_a_kernel_run_has_none(js):
    text, _ = packed(NOTES)
    js.evaluate(SETUP, text)
    got = js.evaluate("""() => {
      predict.toggle.checked = true;
      predict.toggled(true);
      const first = predict.scoreLine.hidden ? null : predict.scoreLine.textContent;
      predict.toggled(false);
      const again = predict.scoreLine.textContent;
      predict.toggle.checked = false;
      predict.toggled(true);
      const off = predict.scoreLine.hidden;
      predict.load({ layers: ["kernel", "visited"] });
      return [first, again, off, predict.toggle.parentElement.hidden];
    }""")
    assert got == ["Predict: press Step (→) and answer before the step is shown.",
                   "Predict: press Step and answer before the step is shown.", True, True]


# what a screen reader gets: the questions that describe the group with the focus, and
# whether the score line is a status
SAID = """() => {
  const group = document.activeElement?.closest("[aria-describedby]");
  return { described: group ? group.getAttribute("aria-describedby").split(" ")
             .map((id) => document.getElementById(id)?.textContent ?? null) : [],
           score: predict.scoreLine.getAttribute("role") };
}"""


def test_the_questions_describe_the_answers_and_the_score_is_a_status(js):
    text, _ = packed(NOTES)
    js.evaluate(SETUP, text)
    k = 2  # a mistake that turns w
    js.evaluate("(k) => predict.ask(run, k)", k)
    got = js.evaluate(SAID)
    assert got["score"] == "status"
    assert len(got["described"]) == 1 and got["described"][0].endswith("Is it a mistake?")
    click(js, "Mistake")
    got = js.evaluate(SAID)
    assert got["described"][1] == "Which way does w (and with it the boundary) turn?"
    js.evaluate("() => predict.close()")
    assert js.evaluate("() => predict.box.hasAttribute('aria-describedby')") is False


@pytest.mark.parametrize(("k", "fact"), [
    (1, "w was 0 and is still 0: it has no direction to turn"),
    (2, "w had no direction before it: it now points along (0, 1)"),
    (4, "w became 0: it has no direction now, and there is no boundary")])
def test_from_w_0_and_to_w_0_a_mistake_is_the_whole_true_answer(js, k, fact):
    # XOR in 0/1 from w = 0: steps 1, 2 and 4 are mistakes where w turns neither way, so no
    # "which way" is asked and the reveal says what w did
    settings = {**SETTINGS, "eta": 1.0, "init": "zeros"}
    text, trace = packed(BUILTIN["XOR (0/1)"](), settings)
    assert trace.updated[k]
    js.evaluate(SETUP, text)
    js.evaluate("(k) => predict.ask(run, k)", k)
    state = click(js, "Mistake")
    assert state["score"] == f"Right: it was a mistake, and {fact}. Predictions: 1 / 1 right."
    js.evaluate(SETUP, text)
    js.evaluate("(k) => predict.ask(run, k)", k)
    state = click(js, "No mistake")
    assert state["score"] == (f"Not quite: it was a mistake, and {fact}. "
                              "Predictions: 0 / 1 right.")


# a Predict inside a stepper's parts: its live region, and Step, where the focus goes back
SETUP_SAID = """(text) => {
  document.body.replaceChildren();
  const toggle = pl.html("input", { type: "checkbox" }, pl.html("label", {}, document.body));
  window.step = pl.html("button", { type: "button" }, document.body, "Step");
  window.live = pl.html("div", { "aria-live": "polite" }, document.body);
  const quiz = pl.html("div", { hidden: "" }, document.body);
  const score = pl.html("div", { hidden: "" }, document.body);
  window.went = [];
  window.predict = new pl.Predict(quiz, score, toggle, (k) => window.went.push(k),
                                  { announce: live, resume: () => step });
  window.run = pl.unpack(pl.bytes(text));
  predict.load(run.header);
}"""


@pytest.mark.parametrize(("k", "answers"), [(2, ["Mistake", "↺ anticlockwise"]),
                                            (1, ["No mistake"])])
def test_each_question_is_said_as_it_appears_and_the_focus_stays_after_the_answer(js, k,
                                                                                   answers):
    text, _ = packed(NOTES)
    js.evaluate(SETUP_SAID, text)
    js.evaluate("(k) => predict.ask(run, k)", k)
    got = js.evaluate(STATE)
    assert js.evaluate("() => live.textContent") == got["quiz"][0]
    for said in answers:
        if js.evaluate("() => predict.quiz !== null"):
            got = click(js, said)
            if got["quiz"] is not None:  # which way: said as it appears too
                assert js.evaluate("() => live.textContent") == got["quiz"][-1]
    assert got["quiz"] is None and got["went"] == [k]
    assert got["focused"] == "Step"  # not the page's body: the answer's button has gone
