"""The companion layer: a second run of the same points on the run's plane, its maths under
the run's (ui/stepper/runs.py's with_companion; the SVM with the perceptron on a projector)."""

from __future__ import annotations

import base64
import re
from dataclasses import replace

import numpy as np
import pytest

from core.descent import svm_sgd
from core.perceptron import perceptron
from core.trace import outcome, record
from datasets.builtin import BUILTIN
from testkit.stepper import COMPANION, boundary
from tests.browser.js.test_stepper import MOUNT, READY, SETTINGS
from ui.stepper import pack, perceptron_run, with_companion

pytestmark = pytest.mark.browser

NOTES = BUILTIN["Lecture notes' example: 4 points"]()
SVM = dict(lam=0.01, eta=1.0, order="cyclic", bias=True, seed=0, max_epochs=5)
# the companion's words at its edge when its line is off the view, and each run's maths
SEEN = """() => {
  const box = document.querySelector('#s1 .pl-stepper');
  const edge = box.querySelector('.pl-overlay .pl-offview-text[style]');
  const named = edge && edge.getAttribute('visibility') !== 'hidden' ? edge.textContent : null;
  const explains = [...box.querySelectorAll('.pl-side .pl-explain')];
  return { named, step: Number(box.dataset.step),
           maths: explains.map((e) => [e.className, e.querySelector('.pl-run-name')?.textContent,
                                       Boolean(e.querySelector('.pl-head'))]),
           closer: box.classList.contains('pl-with-companion') };
}"""


def shown(page) -> dict:
    """SEEN, and the companion's line in data coordinates (None when hidden) as ``ends``."""
    line = boundary(page, "#s1", COMPANION)
    ends = None if line is None else [[line["x1"], line["y1"]], [line["x2"], line["y2"]]]
    return {**page.evaluate(SEEN), "ends": ends}


def runs():
    svm = record(svm_sgd(NOTES.X, NOTES.y, **SVM))
    perc = record(perceptron(NOTES.X, NOTES.y, **SETTINGS))
    steps = max(svm.steps, perc.steps)
    svm, perc = svm.padded(steps), perc.padded(steps)
    run = perceptron_run(NOTES, perc, SETTINGS, outcome(perc, NOTES.X, NOTES.y, max_epochs=5))
    other = perceptron_run(NOTES, svm, SVM, outcome(svm, NOTES.X, NOTES.y, max_epochs=5),
                           layers=("boundary", "margins", "explain"),
                           words={"mistakes": "margin violation"},
                           descent={"lam": 0.01, "eta0": 1.0})
    run = replace(run, header=run.header.with_(name="Perceptron (η = 0.1)"))
    other = replace(other, header=other.header.with_(
        name="SVM (λ = 0.01)", words={**other.header.words, "boundary": "SVM"}))
    return run, other, svm


def mounted(page, run, start: int) -> None:
    blob = pack({**run.header, "run": run.id, "start": start, "keys": True}, run.columns)
    page.evaluate(MOUNT, ["s1", base64.b64encode(blob).decode()])
    page.wait_for_function(READY, arg="s1")


def test_the_companions_boundary_and_maths_follow_the_runs_step_and_go_with_it(page):
    page.emulate_media(reduced_motion="reduce")  # each step's line at once (no glide)
    run, other, svm = runs()
    mounted(page, with_companion(run, other), start=1)
    assert shown(page)["named"] is not None  # the SVM's first boundary: off the view
    drawn = 0
    for k in (2, 3, 4, 5):
        page.keyboard.press("ArrowRight")
        page.wait_for_function(
            f"() => document.querySelector('#s1 .pl-stepper').dataset.step === '{k}'")
        seen = shown(page)
        assert seen["closer"]
        # the run's maths, then the companion's, each under its name; the example they both
        # visit at this step named once, over the run's
        assert seen["maths"] == [
            ["pl-explain", "Perceptron (η = 0.1)", True],
            ["pl-explain pl-companion",
             f"SVM (λ = 0.01) · {svm.mistakes[k]} margin violation"
             + ("" if svm.mistakes[k] == 1 else "s"), False]]
        # outside the view, the arrow at its edge names it and says how far it is
        assert (seen["named"] is None) == (seen["ends"] is not None), seen
        if seen["named"]:
            assert re.fullmatch(r"SVM ≈? ?[\d.]+ away", seen["named"]), seen["named"]
        if seen["ends"] is not None:
            drawn += 1
            for x, y in seen["ends"]:
                w, b = svm.W[k], svm.b[k]
                assert abs(w @ (x, y) + b) / np.hypot(*w) < 0.01, (k, seen["ends"])
    assert drawn
    # the same stepper given a run of its own: no companion's maths, line or closer type left
    mounted(page, run, start=2)
    seen = shown(page)
    assert seen["maths"] == [["pl-explain", None, True]]
    assert seen["ends"] is None and seen["named"] is None and not seen["closer"]


# the companion's line in data coordinates at the start of every frame for ``ms``
FRAMES = """(ms) => {
  window.seen = null;
  const box = document.querySelector('#s1 .pl-stepper');
  const L = box.querySelector('.pl-plane .js-plotly-plot')._fullLayout;
  const line = box.querySelector('.pl-overlay line.pl-companion-line:not([stroke-dasharray])');
  const frames = [];
  const end = performance.now() + ms;
  const tick = (now) => {
    const a = (n) => Number(line.getAttribute(n));
    frames.push({ k: Number(box.dataset.step),
                  line: line.getAttribute('visibility') === 'visible'
                    ? [[L.xaxis.p2l(a('x1') - L.xaxis._offset),
                        L.yaxis.p2l(a('y1') - L.yaxis._offset)],
                       [L.xaxis.p2l(a('x2') - L.xaxis._offset),
                        L.yaxis.p2l(a('y2') - L.yaxis._offset)]] : null });
    if (now < end) requestAnimationFrame(tick);
    else window.seen = frames;
  };
  requestAnimationFrame(tick);
}"""


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_the_companions_boundary_glides_as_the_runs_does(page, motion):
    """Every frame of the SVM's line between two steps lies between its old line and its new
    one, ending on the new; under reduced motion the new shows at once."""
    page.emulate_media(reduced_motion=motion)
    run, other, svm = runs()
    mounted(page, with_companion(run, other), start=2)
    w0, b0, w1, b1 = svm.W[2], svm.b[2], svm.W[3], svm.b[3]
    assert not np.allclose(np.r_[w0, b0], np.r_[w1, b1])
    page.evaluate(FRAMES, 700)
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => window.seen !== null", timeout=5000)
    moved = [frame["line"] for frame in page.evaluate("() => window.seen")
             if frame["k"] == 3 and frame["line"]]
    # (a distance to a line, read back through the chart's axes)
    away = lambda w, b, p: abs(np.dot(w, p) + b) / np.hypot(*w)
    assert moved and all(away(w1, b1, p) < 1e-4 for p in moved[-1])
    between = {tuple(np.round(np.ravel(line), 9)) for line in moved[:-1]
               if not all(away(w1, b1, p) < 1e-4 for p in line)}
    if motion == "reduce":
        assert between == set()
    else:
        assert len(between) >= 3, "a glide has frames between the two lines"
        for line in moved:
            for p in [*line, np.mean(line, axis=0)]:
                # a point between the two lines: on opposite sides of them, or on one
                side = (np.dot(w0, p) + b0) * (np.dot(w1, p) + b1)
                assert side <= 1e-4 or min(away(w0, b0, p), away(w1, b1, p)) < 1e-4, (line, p)
