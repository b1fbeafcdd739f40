"""exact.js and the page's decisions: on an exact run every sign, tie, count and comparison the
page shows is the one core's exact walk makes, checked here with Fractions.

The runs are short decimals with ties forced (a point that sits on the boundary right after
the first update), run by core (in integers); the page unpacks them and decides in Chromium.
"""

from __future__ import annotations

import base64
import re
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.decimals import exact_decimals
from core.perceptron import perceptron
from core.trace import outcome, record
from datasets import Dataset
from datasets.builtin import BUILTIN, noisy
from ui.floats import marked
from ui.stepper import pack, perceptron_run

pytestmark = pytest.mark.browser

LAYERS = ("boundary", "visited", "band", "errors")
# every decision the page shows at every step: the status line (errors, the margin), the
# plane's words (the sides, the points on the line), the class's answer (mistake, which way
# w turns), the margin's closest point, and a
DECISIONS = """([text]) => {
  const run = pl.unpack(pl.bytes(text));
  const c = run.columns;
  const out = [];
  for (let k = 0; k <= run.header.steps; k++) {
    const w = pl.row(c.W, k);
    const b = pl.row(c.b, k);
    const scores = pl.exactScores ? pl.exactScores(run, w, b) : null;
    out.push({ status: pl.statusText(run, k), words: pl.planeWords(run, k),
               truth: k && pl.row(c.index, k) >= 0 ? pl.classTruth(run, k) : null,
               closest: pl.margins(c.X.values, c.y.values, w, b, scores).closest,
               a: k ? pl.row(c.activation, k) : null });
  }
  return out;
}"""


def page_decisions(page, run) -> list[dict]:
    blob = pack({**run.header, "run": run.id}, run.columns)
    return page.evaluate(DECISIONS, [base64.b64encode(blob).decode()])


def exact_facts(X, y, trace, k: int) -> dict:
    """What core's exact walk decides after k steps, in Fractions."""
    x = exact_decimals(X)
    w = exact_decimals(trace.W[k])
    b = exact_decimals([trace.b[k]])[0]
    a = [sum((wj * xj for wj, xj in zip(w, row, strict=True)), Fraction(0)) + b for row in x]
    ya = [yi * ai for yi, ai in zip(y, a, strict=True)]
    wrong = sum(v <= 0 for v in ya)
    separates = wrong == 0 and any(w)
    facts = {"wrong": wrong, "separates": separates,
             "closest": min(range(len(ya)), key=lambda i: (ya[i], i)),
             "margin": float(min(ya)) / float(np.hypot(*map(float, w))) if separates else None,
             "positive": sum(v > 0 for v in a), "negative": sum(v < 0 for v in a),
             "on": sum(v == 0 for v in a)}
    if k and trace.index[k] >= 0:
        if not trace.updated[k]:
            facts["truth"] = "no_mistake"
        else:
            p, q = exact_decimals(trace.W[k - 1]), exact_decimals(trace.W[k])
            cross = p[0] * q[1] - p[1] * q[0]
            facts["truth"] = ("mistake" if not any(p) or not any(q) or cross == 0
                              else "anticlockwise" if cross > 0 else "clockwise")
    return facts


def read_page(got: dict, n: int) -> dict:
    """The decisions in what the page wrote."""
    wrong = int(re.search(rf"(\d+) / {n} training errors", got["status"]).group(1))
    margin = re.search(r"margin (−∞|≈ )?([-\d.e+]*)", got["status"])
    sides = {}
    for key, pattern in (("positive", r"positive side \(a > 0\): (\d+)"),
                         ("negative", r"negative side: (\d+)"), ("on", r"On the line: (\d+)")):
        found = re.search(pattern, got["words"])
        sides[key] = int(found.group(1)) if found else 0
    return {"wrong": wrong, "separates": margin.group(1) != "−∞",
            "margin": None if margin.group(1) == "−∞" else float(margin.group(2)), **sides}


def differences(page, X, y, trace, eta: float, bias: bool) -> list[str]:
    """Every decision where the page and core's exact walk differ, said."""
    data = Dataset("runs", np.asarray(X, dtype=float), np.asarray(y, dtype=float))
    settings_ = {"eta": eta, "bias": bias}
    run = marked(perceptron_run(data, trace, settings_, outcome(trace, data.X, data.y,
                                                                   max_epochs=6),
                                layers=LAYERS), trace)
    got = page_decisions(page, run)
    found = []
    for k, step in enumerate(got):
        want = exact_facts(data.X, data.y, trace, k)
        said = read_page(step, len(y))
        for key in ("wrong", "separates"):
            if said[key] != want[key]:
                found.append(f"step {k}: {key} {said[key]} on the page, {want[key]} exactly")
        if (trace.W[k] != 0).any():  # w = 0 draws no line: the words say so, with no sides
            for key in ("positive", "negative", "on"):
                if said[key] != want[key]:
                    found.append(f"step {k}: {key} {said[key]} on the page, {want[key]} exactly")
        # the margin's value is a float (num writes 6 figures)
        if want["separates"] and said["margin"] is not None and \
                abs(said["margin"] - want["margin"]) > 1e-5 * abs(want["margin"]):
            found.append(f"step {k}: margin {said['margin']}, {want['margin']} exactly")
        if step["closest"] != want["closest"]:
            found.append(f"step {k}: closest {step['closest']}, {want['closest']} exactly")
        if "truth" in want and step["truth"] != want["truth"]:
            found.append(f"step {k}: {step['truth']} on the page, {want['truth']} exactly")
        if k and trace.index[k] >= 0 and step["a"] != trace.activation[k]:
            found.append(f"step {k}: a = {step['a']} on the page, {trace.activation[k]!r}")
    return found


@st.composite
def tied_runs(draw):
    """Short decimals (one place) with a point on the boundary right after the first update:
    x0 = (1, q) of class y0 makes w = eta y0 x0 and b = eta y0 (0 without a bias), and
    z = (-1 - q v, v) (z = (-q v, v) without a bias) then has a = 0 exactly: a tie, a mistake."""
    bias = draw(st.booleans())
    q, v = (Fraction(draw(st.integers(-20, 20)), 10) for _ in range(2))
    z = (-(1 if bias else 0) - q * v, v)
    rest = draw(st.lists(st.tuples(st.integers(-25, 25), st.integers(-25, 25)), min_size=1,
                         max_size=5))
    X = [(1, float(q)), tuple(map(float, z)), *[(a / 10, c / 10) for a, c in rest]]
    y = draw(st.lists(st.sampled_from([-1.0, 1.0]), min_size=len(X), max_size=len(X)))
    eta = draw(st.sampled_from([0.1, 0.2, 0.3, 0.7, 1.0]))
    return X, y, eta, bias


@settings(max_examples=40, deadline=None)
@given(run=tied_runs())
def test_every_decision_the_page_shows_is_the_exact_walks(js, run):
    X, y, eta, bias = run
    trace = record(perceptron(X, y, eta=eta, bias=bias, max_epochs=6))
    assert trace.exact
    assert differences(js, X, y, trace, eta, bias) == []


def test_the_forced_ties_happen_and_floats_miss_some(js):
    """The strategy's ties are real: the tie point's a is 0 exactly at step 2, and on some
    runs the float sum says otherwise (what the page's floats got wrong)."""
    X, y = [(1, -2.0), (-4.2, -1.6), (0.4, -0.1)], [1.0, -1.0, 1.0]
    trace = record(perceptron(X, y, eta=0.1, max_epochs=6))
    assert trace.W[1].tolist() == [0.1, -0.2] and trace.b[1] == 0.1
    assert trace.activation[2] == 0 and trace.updated[2]
    assert 0.1 * -4.2 + -0.2 * -1.6 + 0.1 != 0  # in floats the tie is missed


def test_the_notes_4_points_at_step_28_are_a_tie_not_a_separator(js):
    # w = (3/10, -2/5), b = 1/10: example 0 (x = (1, 1), y = -1) has a = 0 exactly (5.55e-17
    # in floats): a mistake, so the margin is -inf
    data = BUILTIN["Lecture notes' example: 4 points"]()
    trace = record(perceptron(data.X, data.y, eta=0.1, max_epochs=100))
    assert trace.W[28].tolist() == [0.3, -0.4] and trace.b[28] == 0.1
    run = marked(perceptron_run(data, trace, {"eta": 0.1, "bias": True},
                                outcome(trace, data.X, data.y, max_epochs=100), layers=LAYERS),
                 trace)
    step = page_decisions(js, run)[28]
    assert "margin −∞" in step["status"] and "1 / 4 training errors" in step["status"]
    assert "On the line: 1 point." in step["words"] and "Margin" not in step["words"]


@pytest.mark.parametrize(("data", "k", "wrong"), [
    (noisy(60, 0.5, 0), 1448, 3),  # point 58: a = 0.0273 - 0.0273 = 0 exactly
    (BUILTIN["Iris: versicolor vs virginica (petal)"](), 901, 50),
])
def test_the_status_line_counts_errors_exactly(js, data, k, wrong):
    trace = record(perceptron(data.X, data.y, eta=0.1, max_epochs=100))
    run = marked(perceptron_run(data, trace, {"eta": 0.1, "bias": True},
                                outcome(trace, data.X, data.y, max_epochs=100),
                                layers=("boundary", "errors")), trace)
    status = page_decisions(js, run)[k]["status"]
    assert f"{wrong} / {len(data.y)} training errors" in status


CLASS_WORDS = """([text, steps]) => {
  const run = pl.unpack(pl.bytes(text));
  return steps.map((k) => [pl.classTruth(run, k), pl.classTruthWords(run, k)]);
}"""


def test_the_turn_has_a_true_answer_from_w_0_to_w_0_and_on_a_half_turn(js):
    # XOR in 0/1: step 1 visits (0, 0), w stays 0; step 2 starts w from 0; step 4 takes w
    # from (1, 1) back to 0
    data = BUILTIN["XOR (0/1)"]()
    trace = record(perceptron(data.X, data.y, eta=1.0, max_epochs=3))
    run = perceptron_run(data, trace, {"eta": 1.0, "bias": True},
                         outcome(trace, data.X, data.y, max_epochs=3))
    blob = base64.b64encode(pack({**run.header, "run": run.id}, run.columns)).decode()
    got = js.evaluate(CLASS_WORDS, [blob, [1, 2, 3, 4]])
    assert got[0] == ["mistake", "It was a mistake, and w was 0 and is still 0: it has no "
                                 "direction to turn."]
    assert got[1] == ["mistake", "It was a mistake, and w had no direction before it: it now "
                                 "points along (0, 1)."]
    assert got[2] == ["clockwise", "It was a mistake: w turns clockwise."]
    assert got[3] == ["mistake", "It was a mistake, and w became 0: it has no direction now, "
                                 "and there is no boundary."]
    # a half turn: w = (1, 0) meets x = (-2, 0) of class -1... from (1, 0) to (-1, 0)
    X, y = [(1.0, 0.0), (2.0, 0.0)], [1.0, -1.0]
    flip = record(perceptron(X, y, eta=1.0, bias=False, max_epochs=2))
    assert flip.W[1].tolist() == [1, 0] and flip.W[2].tolist() == [-1, 0]
    data = Dataset("flip", np.array(X), np.array(y))
    run = perceptron_run(data, flip, {"eta": 1.0, "bias": False},
                         outcome(flip, data.X, data.y, max_epochs=2))
    blob = base64.b64encode(pack({**run.header, "run": run.id}, run.columns)).decode()
    assert js.evaluate(CLASS_WORDS, [blob, [2]])[0] == [
        "mistake", "It was a mistake, and w turned half round: it now points the opposite way, "
                   "(−1, 0), neither anticlockwise nor clockwise."]


@pytest.mark.parametrize(("wb", "wa", "kind", "way"), [
    ([0, 0], [0.3, -0.4], "from0", 0), ([0.3, 0.1], [0, 0], "to0", 0), ([0, 0], [0, 0], "none", 0),
    ([1, 2], [1, 2], "same", 0), ([1, 0], [1, 0.1], "turn", 1), ([1, 0], [1, -0.1], "turn", -1)])
def test_turn_of_says_how_w_moved(js, wb, wa, kind, way):
    got = js.evaluate("([wb, wa]) => pl.turnOf({ header: {}, columns: {} }, wb, wa)", [wb, wa])
    assert got == {"kind": kind, "way": way}


@pytest.mark.parametrize(("wb", "wa", "kind"), [([1, 2], [2, 4], "kept"),
                                                ([1, 2], [-0.5, -1], "flip"),
                                                # a residue of w + ηyx cancelling: no direction
                                                ([2 / 3, 1 / 6], [2.8e-17, 0], "to0"),
                                                ([-2.8e-17, 0], [2 / 3, 0], "from0")])
def test_a_float_run_cannot_tell_a_turn_within_rounding_of_none(js, wb, wa, kind):
    # a run in floats (no scale): a cross product within rounding of 0 names no way
    got = js.evaluate("([wb, wa]) => pl.turnOf({ header: {}, columns: {} }, wb, wa)", [wb, wa])
    assert got == {"kind": kind, "way": 0, "near": True}


def run_blob(points, *, bias=True, epochs=3):
    """A cyclic run from w = 0 on (x1, x2, label) rows, as the page gets it."""
    X = np.array([p[:2] for p in points], dtype=float)
    y = np.array([p[2] for p in points], dtype=float)
    data = Dataset("corner", X, y)
    trace = record(perceptron(X, y, eta=1.0, bias=bias, max_epochs=epochs))
    run = marked(perceptron_run(data, trace, {"eta": 1.0, "bias": bias},
                                outcome(trace, X, y, max_epochs=epochs)), trace)
    return trace, base64.b64encode(pack({**run.header, "run": run.id}, run.columns)).decode()


@pytest.mark.parametrize("bias", [True, False])
def test_an_update_on_x_0_does_not_say_w_kept_its_direction(js, bias):
    # /?pts=0,1,+;0,0,-;1,1,-: step 2 visits x = 0, a mistake whose update moves only b (with
    # the bias off, nothing): w is the same vector before and after
    trace, blob = run_blob([(0, 1, 1), (0, 0, -1), (1, 1, -1)], bias=bias)
    assert trace.updated[2] and trace.W[1].tolist() == trace.W[2].tolist() == [0, 1]
    assert (trace.b[2] != trace.b[1]) == bias
    truth, words = js.evaluate(CLASS_WORDS, [blob, [2]])[0]
    assert truth == "mistake" and "kept its direction" not in words
    assert words == ("It was a mistake, and w did not change: only b moved." if bias else
                     "It was a mistake, and neither w nor b changed.")


def test_a_float_half_turn_is_not_decided_by_a_cross_product_of_rounding(js):
    # the second point is 4 times the first: w goes from A to -3A, a half turn, whose float
    # cross product is -2.8e-17. The float run names no way; its exact twin (six places)
    # says "neither" exactly
    points = [(0.3254257, 0.2058756, 1), (1.3017028, 0.8235024, -1)]
    trace, blob = run_blob(points)
    assert not trace.exact
    wb, wa = trace.W[1], trace.W[2]
    assert wb[0] * wa[1] - wb[1] * wa[0] != 0  # rounding's turn
    truth, words = js.evaluate(CLASS_WORDS, [blob, [2]])[0]
    assert truth == "mistake" and "clockwise" not in words
    assert "turned half round as far as the floats can tell" in words
    twin, blob = run_blob([(0.325426, 0.205876, 1), (1.301704, 0.823504, -1)])
    assert twin.exact
    truth, words = js.evaluate(CLASS_WORDS, [blob, [2]])[0]
    assert truth == "mistake" and "neither anticlockwise nor clockwise" in words


def test_big_integers_decide_where_a_product_passes_2_to_the_53(js):
    # six places of x times twelve of w: the integers' products pass 2^53, BigInt decides
    got = js.evaluate("""() => {
      const X = new Float64Array([123456.789012, -98765.432109, 1, 1]);
      const run = { header: { scale: { x: 6, w: 6 }, steps: 0 },
                    columns: { X: { values: X, width: 2 },
                               y: { values: new Int8Array([1, -1]), width: 1 },
                               W: { values: new Float64Array([98765.432109, 123456.789012]),
                                    width: 2 },
                               b: { values: new Float64Array([0]), width: 1 } } };
      const ex = pl.exactOf(run);
      const a = pl.activationInts(ex, [98765.432109, 123456.789012], 0);
      return [ex.big, String(a(0)), String(a(1))];
    }""")
    assert got[0] is True
    assert got[1] == "0"  # 123456.789012 * 98765.432109 - 98765.432109 * 123456.789012
    assert int(got[2]) == 98765432109 * 1000000 + 123456789012 * 1000000
