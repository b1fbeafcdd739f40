"""The corner sweep in the page: the stepper's own sentences on degenerate data (tests/corners.py)
against Fractions, in Chromium.

For every update of a run the page says which way w turns, or why it names no way (exact.js's
turnOf and movedWords, through a class's reveal, classTruthWords, which Predict shares), and
its status line counts the training errors. Each case runs with the bias on and off, as an
exact run (eta = 1) and as its float twin (eta = 1/3: from w = 0 the same decisions, its
numbers in floats). Claims:

1. exact run: the page's turn is the Fractions turn (anticlockwise, clockwise, or none with
   the right words: w did not change, kept its direction, a half turn, from or to 0);
2. float twin (while its decisions are the exact run's): it names the exact turn's way or,
   within rounding, no way and says so; it never names a way where the exact run has none,
   nor the other way;
3. exact run: the training errors in the status line are the Fractions count at that step.

Twelve cases (each one page evaluation per run) keep it to a few seconds
(CORNER_PAGE_EXAMPLES=200 sweeps deeper); the Python side of
the sweep, with its count of claims, is tests/test_corner_sweep.py.
"""

from __future__ import annotations

import base64
import os

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from core.perceptron import perceptron
from core.trace import outcome, record
from datasets import Dataset
from tests.corners import FLOAT_ETA, F, arrays, corner_cases, dot, turn_kind
from ui.floats import marked
from ui.stepper import pack, perceptron_run

pytestmark = pytest.mark.browser

SAYS = """([text]) => {
  const run = pl.unpack(pl.bytes(text));
  const c = run.columns;
  const out = [];
  for (let k = 1; k <= run.header.steps; k++) {
    if (pl.row(c.index, k) < 0) { out.push(null); continue; }
    out.push({ truth: pl.classTruth(run, k), words: pl.classTruthWords(run, k),
               status: pl.statusText(run, k) });
  }
  return out;
}"""

WORDS = {"same": ("w did not change: only b moved", "neither w nor b changed"),
         "kept": ("w kept its direction",), "flip": ("w turned half round",),
         "from0": ("w had no direction before it",), "to0": ("w became 0",),
         "none": ("w was 0 and is still 0",)}


def page_says(js, X, y, *, eta: float, bias: bool):
    data = Dataset("corner", X, y)
    trace = record(perceptron(X, y, eta=eta, bias=bias, max_epochs=6))
    run = marked(perceptron_run(data, trace, {"eta": eta, "bias": bias},
                                outcome(trace, X, y, max_epochs=6),
                                layers=("boundary", "errors")), trace)
    blob = base64.b64encode(pack({**run.header, "run": run.id}, run.columns)).decode()
    return trace, js.evaluate(SAYS, [blob])


def errors_in_fractions(pts, labels, w, b) -> int:
    return sum(y * (dot(w, p) + b) <= 0 for p, y in zip(pts, labels, strict=True))


@settings(max_examples=int(os.environ.get("CORNER_PAGE_EXAMPLES", "12")), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(case=corner_cases(), bias=st.booleans())
# the float twin's w = (-5.6e-17, 1) shortened along itself: its turn of 1e-16 rad is rounding
@example(case=("collinear", [[F(1.5), F(-2)], [F(0), F(-2)], [F(-1), F(-3)]], [-1, 1, -1]),
         bias=False)
def test_the_pages_turns_and_counts_hold_in_the_corners(js, case, bias):
    _, pts, labels = case
    X, y = arrays(pts, labels)
    exact, said = page_says(js, X, y, eta=1.0, bias=bias)
    twin, twin_said = page_says(js, X, y, eta=FLOAT_ETA, bias=bias)
    assert not twin.exact
    truths = {}
    for k in range(1, exact.steps + 1):
        page = said[k - 1]
        if page is None or not exact.updated[k]:
            continue
        if exact.exact:
            kind, way = turn_kind(exact.W[k - 1], exact.W[k])
            truths[k] = (kind, way)
            if kind == "turn":
                assert page["truth"] == ("anticlockwise" if way > 0 else "clockwise"), page
            else:
                assert page["truth"] == "mistake", (kind, page)
                moved = F(exact.b[k]) != F(exact.b[k - 1])
                phrases = WORDS[kind]
                if kind == "same":
                    phrases = phrases[:1] if moved else phrases[1:]
                assert any(p in page["words"] for p in phrases), (kind, page)
            wrong = errors_in_fractions(pts, labels, [F(v) for v in exact.W[k]], F(exact.b[k]))
            assert f"{wrong} / {len(labels)} training errors" in page["status"], page
    # the twin is compared while it has made the exact run's decisions: a w that should be 0
    # but is a rounding residue (1e-17) can part them (core's float walk, not the page)
    parted = np.flatnonzero(exact.updated[:twin.steps + 1] != twin.updated[:exact.steps + 1])
    same_until = int(parted[0]) if parted.size else min(exact.steps, twin.steps) + 1
    for k, (kind, way) in truths.items():
        if k >= same_until or twin_said[k - 1] is None:
            continue
        float_truth = twin_said[k - 1]["truth"]
        if kind == "turn":
            named = "anticlockwise" if way > 0 else "clockwise"
            assert float_truth in (named, "mistake"), (k, kind, twin_said[k - 1])
            if float_truth == "mistake":
                assert "as far as the floats can tell" in twin_said[k - 1]["words"]
        else:
            assert float_truth == "mistake", (k, kind, twin_said[k - 1])
            assert any(p in twin_said[k - 1]["words"] for p in WORDS[kind]) or \
                "as far as the floats can tell" in twin_said[k - 1]["words"], (k, kind)
