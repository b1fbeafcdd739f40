"""layers/class.js: the stepper in a class: a press told, the class's step taken without
telling it back, the class's question asked in Predict's box and its answers revealed."""

from __future__ import annotations

import base64

import numpy as np
import pytest

from core.perceptron import perceptron
from core.trace import outcome, record
from datasets.builtin import BUILTIN
from ui.stepper import pack, perceptron_run

pytestmark = pytest.mark.browser

SETTINGS = dict(eta=0.1, bias=True, order="cyclic", init=((0.2, 0.0), -0.1), seed=0,
                max_epochs=5)
NOTES = BUILTIN["Lecture notes' example: 4 points"]()


def packed(**extra) -> tuple[str, object]:
    trace = record(perceptron(NOTES.X, NOTES.y, **SETTINGS))
    run = perceptron_run(NOTES, trace, SETTINGS, outcome(trace, NOTES.X, NOTES.y, max_epochs=5))
    blob = pack({**run.header, "run": run.id, "start": 0, "keys": True, **extra}, run.columns)
    return base64.b64encode(blob).decode(), trace


MOUNT = """(text) => {
  window.told = [];
  window.answers = [];
  window.addEventListener("pl-step", (event) => told.push(event.detail.k));
  window.addEventListener("pl-answer", (event) => answers.push(event.detail));
  const root = pl.html("div", { id: "one" }, document.body);
  pl.mountStepper({ parentElement: root, data: pl.bytes(text), setStateValue: () => {} });
}"""
STEP = "() => document.querySelector('.pl-stepper').dataset.step"
QUIZ = """() => { const box = document.querySelector(".pl-quiz");
  return box.hidden ? null : { text: Array.from(box.querySelectorAll("p"), (p) => p.textContent),
    buttons: Array.from(box.querySelectorAll("button"), (b) => b.textContent),
    bars: Array.from(box.querySelectorAll(".pl-class-bar"), (b) => b.textContent) }; }"""


def mounted(page, **extra):
    text, trace = packed(**extra)
    page.evaluate(MOUNT, text)
    page.wait_for_function("() => document.querySelector('.pl-stepper')?.dataset.step === '0'")
    return trace


def test_a_press_is_told_and_the_classs_step_is_not_told_back(page):
    mounted(page)
    page.keyboard.press("ArrowRight")
    page.wait_for_function(f"() => ({STEP})() === '1'")
    page.evaluate("() => window.dispatchEvent(new CustomEvent('pl-class', { detail: { k: 3 } }))")
    page.wait_for_function(f"() => ({STEP})() === '3'")
    page.keyboard.press("ArrowRight")
    page.wait_for_function(f"() => ({STEP})() === '4'")
    assert page.evaluate("() => told") == [1, 4]


def test_a_stepper_drawn_after_the_strip_asks_for_the_classs_step(page):
    # a reloaded page loads Plotly before its stepper is there: the strip told the step and
    # the question to no one; the stepper asks for them as it starts listening
    page.evaluate("""() => window.addEventListener("pl-class-ask", () => window.dispatchEvent(
        new CustomEvent("pl-class", { detail: { k: 3, question: null } })))""")
    text, _ = packed()
    page.evaluate(MOUNT, text)
    page.wait_for_function(f"() => ({STEP})() === '3'")
    assert page.evaluate("() => told") == []  # the class's step is not told back


def test_a_follower_takes_no_part(page):
    mounted(page, follow="g")
    page.evaluate("() => window.dispatchEvent(new CustomEvent('pl-class', { detail: { k: 3 } }))")
    page.wait_for_timeout(100)
    assert page.evaluate(STEP) == "0" and page.evaluate("() => told") == []


def test_the_classs_question_is_asked_answered_and_revealed(page):
    trace = mounted(page)
    step = int(np.flatnonzero(trace.updated)[0])  # a mistake
    q = {"id": "q1", "step": step, "kind": "turn", "revealed": False,
         "choices": ["no_mistake", "anticlockwise", "clockwise"]}
    tell = "(detail) => window.dispatchEvent(new CustomEvent('pl-class', { detail }))"
    page.evaluate(tell, {"k": step - 1, "question": q, "lecturer": False, "answered": None,
                         "canAnswer": True})
    got = page.evaluate(QUIZ)
    assert got["text"][0] == "The class is asked:"
    assert got["text"][1].endswith("which way does w turn?")
    # the example as the notes number it, from 1 (the data's row + 1)
    assert got["text"][1].startswith(f"Step {step} visits example {trace.index[step] + 1}: ")
    # said as it arrives, by the stepper's live region, and not overwritten by a redraw
    live = "() => document.querySelector('.pl-stepper [aria-live=polite]').textContent"
    assert page.evaluate(live) == f"The class is asked: {got['text'][1]}"
    page.evaluate("() => document.querySelector('.pl-stepper').parentElement"
                  ".__plStepper.schedule()")
    page.wait_for_timeout(100)
    assert page.evaluate(live) == f"The class is asked: {got['text'][1]}"
    assert got["buttons"] == ["Mistake", "No mistake"]
    page.get_by_role("button", name="Mistake", exact=True).click()
    buttons = page.evaluate(QUIZ)["buttons"]
    assert buttons == ["\u21ba anticlockwise", "\u21bb clockwise"]
    page.get_by_role("button", name=buttons[0]).click()
    assert page.evaluate("() => answers") == [{"question": "q1", "choice": "anticlockwise"}]
    truth = page.evaluate("""(step) => pl.classTruth(
      document.querySelector('.pl-stepper').parentElement.__plStepper.run, step)""", step)
    assert truth in ("anticlockwise", "clockwise", "mistake")
    page.evaluate(tell, {"k": step, "question": {**q, "revealed": True, "counts": [1, 2, 3]},
                         "lecturer": False, "answered": "anticlockwise", "canAnswer": False})
    page.wait_for_function(f"() => ({STEP})() === '{step}'")
    got = page.evaluate(QUIZ)
    assert len(got["bars"]) == 3 and sum("\u2713" in bar for bar in got["bars"]) == 1
    assert got["text"][-1].startswith("6 answers. It was a mistake")
    page.evaluate(tell, {"question": None})
    assert page.evaluate(QUIZ) is None
    assert page.evaluate("() => told") == []  # the class moved it every time


def test_the_turn_question_is_askable_only_where_w_turns_one_way(page):
    # XOR in 0/1 from w = 0: step 1 leaves w at 0, step 2 starts it from 0, step 3 turns it
    # clockwise, step 4 takes it back to 0 (tests/browser/js/test_exact.py has the words)
    data = BUILTIN["XOR (0/1)"]()
    trace = record(perceptron(data.X, data.y, eta=1.0, max_epochs=3))
    run = perceptron_run(data, trace, {"eta": 1.0, "bias": True},
                         outcome(trace, data.X, data.y, max_epochs=3))
    blob = pack({**run.header, "run": run.id, "start": 0, "keys": True}, run.columns)
    page.evaluate(MOUNT, base64.b64encode(blob).decode())
    page.wait_for_function("() => document.querySelector('.pl-stepper')?.dataset.step === '0'")
    askable = []
    for k in range(4):  # the question is on step k + 1
        page.evaluate("(k) => window.dispatchEvent(new CustomEvent('pl-class', "
                      "{ detail: { k } }))", k)
        page.wait_for_function(f"() => ({STEP})() === '{k}'")
        askable.append(page.evaluate(
            "() => document.querySelector('.pl-stepper').dataset.turnAskable"))
    assert askable == ["false", "false", "true", "false"]


def test_a_kernel_run_in_a_class_draws_and_is_asked_only_whether_a_step_is_a_mistake(page):
    # the kernel perceptron's run, as its lesson sends it, has no w (its page paints sign s(x)
    # from the updates): no step of it has a way for w to turn, and its draws read no w
    from core.kernel import Kernel, kernel_perceptron
    from datasets.shapes import moons
    from lessons.variants.parts import kernel_run

    data = moons(30, 0.1, 0)
    run = {"eta": 1.0, "order": "cyclic", "bias": True, "max_epochs": 3, "seed": 0}
    params = {"name": "rbf", "width": 0.5}
    trace = record(kernel_perceptron(data.X, data.y, kernel=Kernel(**params), **run))
    sent = kernel_run(data, trace, params, run, Kernel(**params))
    assert "W" not in sent.columns
    blob = pack({**sent.header, "run": sent.id, "start": 0, "keys": True}, sent.columns)
    page.evaluate(MOUNT, base64.b64encode(blob).decode())
    page.wait_for_function("() => document.querySelector('.pl-stepper')?.dataset.step === '0'")
    step = int(np.flatnonzero(trace.updated[1:])[0]) + 1  # the first mistake
    assert not trace.updated[1:step].any()
    askable = []
    for k in range(step + 1):  # the question is on step k + 1
        page.evaluate("(k) => window.dispatchEvent(new CustomEvent('pl-class', "
                      "{ detail: { k } }))", k)
        page.wait_for_function(f"() => ({STEP})() === '{k}'")
        askable.append(page.evaluate(
            "() => document.querySelector('.pl-stepper').dataset.turnAskable"))
    assert askable == ["false"] * (step + 1)
    truths = page.evaluate("""(steps) => steps.map((k) => pl.classTruth(
      document.querySelector('.pl-stepper').parentElement.__plStepper.run, k))""",
                           [step - 1, step] if step > 1 else [step])
    assert truths == (["no_mistake", "mistake"] if step > 1 else ["mistake"])
    q = {"id": "q1", "step": step, "kind": "turn", "revealed": True, "counts": [1, 2, 3],
         "choices": ["no_mistake", "anticlockwise", "clockwise"]}
    page.evaluate("(detail) => window.dispatchEvent(new CustomEvent('pl-class', { detail }))",
                  {"k": step, "question": q, "lecturer": False, "answered": None,
                   "canAnswer": False})
    page.wait_for_function(f"() => ({STEP})() === '{step}'")
    assert page.evaluate(QUIZ)["text"][-1] == \
        "6 answers. It was a mistake: its \u03b1 grows by one. The step is shown."
