"""maths.js against the LaTeX the pages write: the same numbers, in the same order.

The perceptron's step against tests/reference/maths.py, the SVM's against
lessons.svm.figures.svm_step_lines, for every step of real runs; numpy's rounding against round4.
"""

from __future__ import annotations

import base64
import re
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.descent import svm_sgd, svm_step_size
from core.perceptron import perceptron
from core.trace import outcome, record
from datasets import Dataset
from datasets.builtin import BUILTIN, noisy, separable
from lessons.svm.figures import svm_step_lines
from tests.browser.js.conftest import floats, from_floats
from tests.corners import F
from tests.reference.maths import boundary_equation, step_lines
from tests.reference.wire import unpack
from ui.stepper import pack, perceptron_run
from viz.maths import num

pytestmark = pytest.mark.browser

# LaTeX names whose subscripts and arguments are letters or digits that are not numbers shown
NAMES = re.compile(r"\\eta_[0t]|\\sqrt\{t\}|\\top|x_[12]")
NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:e-?\d+)?")
# every step's lines as the page writes them: its numbers (minus signs as '-'), its relations
STEPS = """([text, svm, pair]) => {
  const run = pl.unpack(pl.bytes(text));
  const box = document.createElement("div");
  const out = [];
  for (let k = 1; k <= run.header.steps; k++) {
    const m = svm ? pl.svmStepMath(run, k, pair) : pl.stepMath(run, k);
    box.innerHTML = m.lines.join("");
    out.push({
      numbers: Array.from(box.querySelectorAll("mn:not(.pl-sub)"),
                          (n) => n.textContent.replace("\\u2212", "-")),
      relations: Array.from(box.querySelectorAll("mo"), (n) => n.textContent)
        .filter((t) => "\\u2264><\\u2265".includes(t)),
      signs: Array.from(box.querySelectorAll("mo"), (n) => n.textContent)
        .filter((t) => t === "=" || t === "\\u2248"),
      lines: box.querySelectorAll(".pl-line").length,
      // the chunks that only substitute numbers (a narrow side hides them), and whether every
      // line still shows its formula (its first chunk) and its result (its last)
      subst: box.querySelectorAll("math.pl-subst").length,
      ends: Array.from(box.querySelectorAll(".pl-line"), (line) => {
        const chunks = line.querySelectorAll("math");
        return !chunks[0].classList.contains("pl-subst")
          && !chunks[chunks.length - 1].classList.contains("pl-subst");
      }).every(Boolean),
      updated: m.updated, i: m.i });
  }
  return out;
}"""


def latex_numbers(lines: list[str]) -> list[str]:
    """Every number of LaTeX lines, in order, as written."""
    return [n for line in lines for n in NUMBER.findall(NAMES.sub("", line))]


def latex_signs(lines: list[str]) -> list[str]:
    """Every "=" and "≈" of LaTeX lines, in order."""
    return [("≈" if sign == r"\approx" else "=") for line in lines
            for sign in re.findall(r"\\approx|=", line)]


def page_steps(page, run, *, svm: bool = False, pair: bool = False,
               exact: bool | None = None) -> list[dict]:
    header = {**run.header, "run": run.id, "start": 0, "keys": True}
    if exact is not None:
        header["exact"] = exact
    blob = pack(header, run.columns)
    return page.evaluate(STEPS, [base64.b64encode(blob).decode(), svm, pair])


PERCEPTRON_RUNS = [  # data, eta, bias, init
    (BUILTIN["Lecture notes' example: 4 points"](), 0.1, True, ((0.2, 0.0), -0.1)),
    (noisy(30, 0.8, 2), 0.1, True, "zeros"),
    (noisy(30, 0.8, 2), 1.0, False, "zeros"),
    (separable(25, 0.2, 3), 0.37, True, "random"),
]


@pytest.mark.parametrize(("data", "eta", "bias", "init"), PERCEPTRON_RUNS)
def test_a_perceptron_step_has_the_references_numbers(js, data, eta, bias, init):
    settings_ = dict(eta=eta, bias=bias, order="cyclic", init=init, seed=1, max_epochs=4)
    trace = record(perceptron(data.X, data.y, **settings_))
    run = perceptron_run(data, trace, settings_, outcome(trace, data.X, data.y, max_epochs=4))
    steps = page_steps(js, run, exact=bool(trace.exact))
    assert len(steps) == trace.steps
    for k, got in enumerate(steps, start=1):
        i = int(trace.index[k])
        updated = bool(trace.updated[k])
        lines = step_lines(x=data.X[i], y=float(data.y[i]), w_before=trace.W[k - 1],
                           b_before=trace.b[k - 1], w_after=trace.W[k], b_after=trace.b[k],
                           a=trace.activation[k], updated=updated, eta=eta, bias=bias,
                           exact=bool(trace.exact), start=k == 1)
        assert got["numbers"] == latex_numbers(lines), k
        assert got["signs"] == latex_signs(lines), k
        assert (got["i"], got["updated"], got["lines"]) == (i, updated, len(lines)), k
        assert got["relations"] == ["\u2264" if updated else ">"], k


@pytest.mark.parametrize("pair", [False, True])
@pytest.mark.parametrize(("lam", "eta0", "bias"), [(0.01, 1.0, True), (0.1, 0.5, False)])
def test_an_svm_step_has_viz_svms_numbers(js, lam, eta0, bias, pair):
    data = separable(20, 0.2, 0)
    settings_ = dict(lam=lam, eta=eta0, order="cyclic", bias=bias, seed=0, max_epochs=10)
    trace = record(svm_sgd(data.X, data.y, **settings_))
    run = perceptron_run(data, trace, settings_, outcome(trace, data.X, data.y, max_epochs=10),
                         descent={"lam": lam, "eta0": eta0})
    steps = page_steps(js, run, svm=True, pair=pair, exact=False)
    _, columns = unpack(pack(run.header, run.columns))  # the weights as the page rebuilds them
    for k, got in enumerate(steps, start=1):
        i = int(trace.index[k])
        updated = bool(trace.updated[k])
        lines = svm_step_lines(
            x=data.X[i], y=float(data.y[i]), w_before=columns["W"][k - 1],
            b_before=columns["b"][k - 1], w_after=columns["W"][k], b_after=columns["b"][k],
            a=columns["activation"][k], updated=updated, eta=svm_step_size(k, eta0), lam=lam,
            t=k, eta0=eta0, bias=bias)
        assert got["numbers"] == latex_numbers(lines), k
        assert got["signs"] == latex_signs(lines), k
        assert got["relations"] == ["<" if updated else "\u2265"], k
        # beside another run the activation and the margin share a row
        assert got["lines"] == 2 + updated * bias + (not pair) + 1, k
        # η_t's and the update's substituted numbers are marked as such (η_t's, w's shrink and
        # its hinge term, b's), every line keeping its formula and its result
        assert got["subst"] == 1 + (1 + updated) + updated * bias and got["ends"], k


BOUNDARY = """([w, b]) => {
  const box = document.createElement("div");
  box.innerHTML = pl.boundaryMath(w, b);
  return Array.from(box.querySelectorAll("mn:not(.pl-sub)"),
                    (n) => n.textContent.replace("\\u2212", "-"));
}"""


@settings(max_examples=60, deadline=None)
@given(w=st.tuples(st.floats(-1e3, 1e3), st.floats(-1e3, 1e3)), b=st.floats(-1e3, 1e3))
def test_the_boundary_is_the_references_equation(js, w, b):
    assert js.evaluate(BOUNDARY, [list(w), b]) == latex_numbers([boundary_equation(w, b)])


def test_no_boundary_yet_says_what_every_a_is(js):
    text = js.evaluate("""(b) => {
      const box = document.createElement("div");
      box.innerHTML = pl.noBoundaryMath(b);
      return box.textContent;
    }""", -0.25)
    assert text == "\U0001d430=\U0001d7ce: no boundary yet (every a=\u2212" + num(0.25) + ")"


@settings(max_examples=40, deadline=None)
@given(values=st.lists(st.floats(-1e6, 1e6) | st.sampled_from([0.00005, 0.00015, 1.00025, -0.00035,
                                                               2.5e-5, 1e300, -0.0]),
                       min_size=1, max_size=60))
def test_round4_is_numpys_round(js, values):
    got = from_floats(js.evaluate("(text) => pl.base64(pl.floats(text).map(pl.round4))",
                                  floats(values)))
    expected = np.round(np.asarray(values, dtype=np.float64), 4)
    assert np.array_equal(got, expected)  # a zero's sign aside: num writes either as 0


# every step's signs: how many "≈" and "=" its lines write, and its relation to the threshold
SIGNS = """([text, svm]) => {
  const run = pl.unpack(pl.bytes(text));
  const box = document.createElement("div");
  const out = [];
  for (let k = 1; k <= run.header.steps; k++) {
    const m = svm ? pl.svmStepMath(run, k, false) : pl.stepMath(run, k);
    box.innerHTML = m.lines.join("");
    const ops = Array.from(box.querySelectorAll("mo"), (n) => n.textContent);
    out.push({ approx: ops.filter((t) => t === "\\u2248").length,
               equals: ops.filter((t) => t === "=").length, tie: m.tie,
               // the y·a line's last sign, before its threshold
               relation: Array.from(box.querySelectorAll(".pl-line")[1].querySelectorAll("mo"),
                                    (n) => n.textContent).at(-1) });
  }
  return out;
}"""


def signs(page, run, *, exact, tie=None, svm=False) -> list[dict]:
    header = {**run.header, "run": run.id, "exact": exact}
    if not exact:
        header["floats"] = {"mark": "≈ floats", "note": "The data are not short decimals."}
    columns = {**run.columns, **({"tie": tie} if tie is not None else {})}
    blob = pack(header, columns)
    return page.evaluate(SIGNS, [base64.b64encode(blob).decode(), svm])


@pytest.mark.parametrize("exact", [True, False])
def test_a_perceptron_in_floats_writes_its_results_with_approx(js, exact):
    data, eta, bias, init = PERCEPTRON_RUNS[1]
    settings_ = dict(eta=eta, bias=bias, order="cyclic", init=init, seed=1, max_epochs=4)
    trace = record(perceptron(data.X, data.y, **settings_))
    run = perceptron_run(data, trace, settings_, outcome(trace, data.X, data.y, max_epochs=4))
    for k, got in enumerate(signs(js, run, exact=exact), start=1):
        updated = bool(trace.updated[k])
        # a, y·a, and after an update the new w and b: in floats both the numbers substituted
        # (the run's own) and the result, but at the first step, whose numbers substituted are
        # the data, η and the start (zeros), all but y·a's written as they are
        results = 2 + updated * (1 + bias)
        assert got["approx"] == (0 if exact else results + 1 if k == 1 else 2 * results), k
        assert got["relation"] == ("\u2264" if updated else ">"), k
        assert got["tie"] is False


@pytest.mark.parametrize("exact", [False])
def test_an_svm_in_floats_writes_its_results_eta_t_and_shrink_with_approx(js, exact):
    data = separable(20, 0.2, 0)
    settings_ = dict(lam=0.01, eta=1.0, order="cyclic", bias=True, seed=0, max_epochs=3)
    trace = record(svm_sgd(data.X, data.y, **settings_))
    run = perceptron_run(data, trace, settings_, outcome(trace, data.X, data.y, max_epochs=3),
                         descent={"lam": 0.01, "eta0": 1.0})
    for k, got in enumerate(signs(js, run, exact=exact, svm=True), start=1):
        updated = bool(trace.updated[k])
        # a; y·a and its numbers; η_t; the shrink of w with its numbers and the new w; after a
        # hinge step b's numbers and its new value too
        results = 6 + 2 * updated
        assert got["approx"] == (0 if exact else results), k
        assert got["equals"] > 0  # the formulas and η_0/√t stay exact


def test_a_tie_within_rounding_is_written_and_said_so(js):
    data, eta, bias, init = PERCEPTRON_RUNS[1]
    settings_ = dict(eta=eta, bias=bias, order="cyclic", init=init, seed=1, max_epochs=4)
    trace = record(perceptron(data.X, data.y, **settings_))
    run = perceptron_run(data, trace, settings_, outcome(trace, data.X, data.y, max_epochs=4))
    k = int(np.flatnonzero(trace.updated[1:])[1]) + 1
    tie = np.zeros(trace.steps + 1, dtype=np.uint8)
    tie[k] = 1
    got = signs(js, run, exact=False, tie=tie)
    assert [step["tie"] for step in got] == [j == k for j in range(1, trace.steps + 1)]
    assert got[k - 1]["relation"] == "\u2248"
    assert all(step["relation"] != "\u2248" for j, step in enumerate(got, 1) if j != k)


VERDICT = """([text]) => {
  const run = pl.unpack(pl.bytes(text));
  return [1, 2].map((k) => pl.svmStepMath(run, k, false).verdict);
}"""


def test_y_a_of_exactly_1_is_on_the_margin_not_beyond_it(js):
    # w = 0 meets x = (1, 0), y = 1: a hinge step to w = (1, 0); then x = (-1, 0), y = -1 has
    # y·a = 1 exactly: on the margin (the hinge steps only below 1), not beyond it
    from datasets import Dataset

    data = Dataset("two", np.array([[1.0, 0.0], [-1.0, 0.0]]), np.array([1.0, -1.0]))
    settings_ = dict(lam=0.0, eta=1.0, order="cyclic", bias=False, max_epochs=1)
    trace = record(svm_sgd(data.X, data.y, **settings_))
    assert trace.updated[1] and not trace.updated[2] and trace.activation[2] == -1.0
    run = perceptron_run(data, trace, settings_, outcome(trace, data.X, data.y, max_epochs=1),
                         descent={"lam": 0.0, "eta0": 1.0})
    blob = base64.b64encode(pack({**run.header, "run": run.id}, run.columns)).decode()
    verdicts = js.evaluate(VERDICT, [blob])
    assert verdicts[1] == "y·a = 1: on the margin, not inside it: only the penalty shrinks w."


def test_an_exact_result_is_equal_only_where_it_is_written_as_it_is(js):
    # six places times six: a = 0.123457 × 0.654321 + ... has twelve, written in six: "≈",
    # though the run is exact; w and b after the update are the data's own: "="
    X = np.array([[0.123457, 0.654321], [0.654321, 0.123457]])
    y = np.array([1.0, -1.0])
    data = Dataset("six places", X, y)
    settings_ = dict(eta=1.0, bias=True, order="cyclic", init="zeros", seed=0, max_epochs=2)
    trace = record(perceptron(X, y, **settings_))
    assert trace.exact and trace.updated[2]
    run = perceptron_run(data, trace, settings_, outcome(trace, X, y, max_epochs=2))
    got = signs(js, run, exact=True)[1]  # step 2: a = 0.123457·0.654321·2 + 1, a mistake
    a = 2 * Fraction("0.123457") * Fraction("0.654321") + 1
    # a's result, and y·a's a substituted and its product
    assert num(float(a)) != str(a) and got["approx"] == 3
    status = js.evaluate("([text]) => pl.announceText(pl.unpack(pl.bytes(text)), 2)",
                         [base64.b64encode(pack({**run.header, "run": run.id},
                                                run.columns)).decode()])
    assert f"y·a ≈ {num(-float(a))}".replace("-", "−") in status


# every step's lines as tokens: [tag, text] of each <mi>, <mn> and <mo>, line by line
TOKENS = """([text]) => {
  const run = pl.unpack(pl.bytes(text));
  const box = document.createElement("div");
  const out = [];
  for (let k = 1; k <= run.header.steps; k++) {
    box.innerHTML = pl.stepMath(run, k).lines.join("");
    out.push(Array.from(box.querySelectorAll(".pl-line"), (line) =>
      Array.from(line.querySelectorAll("mi, mn:not(.pl-sub), mo"),
                 (n) => [n.tagName.toLowerCase(), n.textContent])));
  }
  return out;
}"""


class Vector(tuple):
    """A vector of the maths as written: added, and scaled by a number on its left."""

    def __add__(self, other):
        return Vector(a + b for a, b in zip(self, other, strict=True))

    def __rmul__(self, factor):
        return Vector(factor * a for a in self)


def V(*values):  # a bracket of the maths: a number, or a vector of them
    return values[0] if len(values) == 1 else Vector(values)


def evaluate(tokens) -> Fraction | Vector | None:
    """A chunk of numbers as written (no letters), in Fractions; None for a formula."""
    if not tokens or any(tag == "mi" for tag, _ in tokens):
        return None
    source = []
    for tag, text in tokens:
        if tag == "mn":
            source.append(f"F('{text.replace(chr(0x2212), '-')}')")
        else:
            source.append({"(": "V(", "\u2212": "-"}.get(text, text))
    code = " ".join(source)
    code = re.sub(r"\)\s+(?=V\(|F\()", ") * ", code)  # (a)(b): a product
    return eval(code, {"F": Fraction, "V": V})  # numbers the test wrote


def claims_of(line):
    """(sign, left, right) for each "=" or "≈" between two chunks of a line, relations to the
    threshold (≤, >) and arrows ending a chunk too."""
    chunks, signs, current = [], [], []
    for tag, text in line:
        if tag == "mo" and text in ("=", "\u2248", "\u2264", ">", "\u2190"):
            chunks.append(current)
            signs.append(text)
            current = []
        else:
            current.append((tag, text))
    chunks.append(current)
    return [(sign, chunks[j], chunks[j + 1]) for j, sign in enumerate(signs)
            if sign in ("=", "\u2248")]


SIX_PLACES = Dataset("six places", np.array([[0.123457, 0.654321], [0.654321, 0.123457],
                                             [1.5, -0.5]]), np.array([1.0, -1.0, -1.0]))
ISSUE_FLOATS = Dataset("floats", np.array([[0.3254257, 0.2058756], [1.3017028, 0.8235024]]),
                       np.array([1.0, -1.0]))


@pytest.mark.parametrize(("data", "eta", "bias"), [
    (SIX_PLACES, 1.0, True), (ISSUE_FLOATS, 1.0, True), (ISSUE_FLOATS, 0.1, False),
    (BUILTIN["Lecture notes' example: 4 points"](), 0.1, True), (noisy(12, 0.8, 2), 0.37, True)])
def test_an_equals_in_a_steps_maths_is_the_arithmetic_on_the_numbers_written(js, data, eta,
                                                                              bias):
    # In Fractions, independently of format.js: each "=" between two chunks of numbers joins
    # equal values of the numbers as written; an "=" after a formula (a = w·x + b = ...) joins
    # the formula's value, the run's own (its decimals on an exact run, its doubles in floats),
    # to the numbers written after it. Where a number written is rounded, the sign is "≈".
    settings_ = dict(eta=eta, bias=bias, order="cyclic", init="zeros", seed=1, max_epochs=3)
    trace = record(perceptron(data.X, data.y, **settings_))
    run = perceptron_run(data, trace, settings_, outcome(trace, data.X, data.y, max_epochs=3))
    blob = pack({**run.header, "run": run.id, "exact": bool(trace.exact)}, run.columns)
    steps = js.evaluate(TOKENS, [base64.b64encode(blob).decode()])

    def value(v):  # the run's number: an exact run's decimal, a float run's double
        return F(v) if trace.exact else Fraction(float(v))

    checked = approximated = 0
    for k, lines in enumerate(steps, start=1):
        i = int(trace.index[k])
        y = int(data.y[i])
        a = value(trace.activation[k]) if trace.exact else (
            sum((value(w) * Fraction(float(x)) for w, x in zip(trace.W[k - 1], data.X[i],
                                                               strict=True)), Fraction(0))
            + value(trace.b[k - 1]))
        # each line's quantity: a, y·a, the new w and the new b
        truth = [a, y * a, Vector(value(v) for v in trace.W[k]), value(trace.b[k])]
        for line, true in zip(lines, truth, strict=False):
            for sign, left, right in claims_of(line):
                shown_left, shown_right = evaluate(left), evaluate(right)
                if shown_right is None:
                    continue
                if sign == "\u2248":
                    approximated += 1
                    continue
                expected = true if shown_left is None else shown_left
                if not trace.exact and shown_left is None:
                    # a float run's formula: its value is the run's double arithmetic
                    expected = true
                assert shown_right == expected, (k, line, sign)
                checked += 1
    assert checked if trace.exact else approximated


def test_a_boundary_with_a_rounded_coefficient_is_near_its_equation_not_on_it(js):
    # w = (0.5, 5/6): 0.833333 x₂ is not the boundary's term, so the line written is "≈ 0"; the
    # page's words (geometry.js) say what the chart's (viz.describe.equation) say
    from viz.describe import equation

    got = js.evaluate("""(cases) => cases.map(([w, b]) => {
      const box = document.createElement("div");
      box.innerHTML = pl.boundaryMath(w, b);
      return [Array.from(box.querySelectorAll("mo"), (n) => n.textContent).at(-1),
              pl.equationWords(w, b)];
    })""", [[[0.5, 5 / 6], 0], [[0.5, -1.25], 0.1], [[1 / 3, 1], -2]])
    assert [sign for sign, _ in got] == ["≈", "=", "≈"]
    assert [words for _, words in got] == [equation([0.5, 5 / 6], 0),
                                           equation([0.5, -1.25], 0.1),
                                           equation([1 / 3, 1], -2)]
    assert got[0][1].endswith("≈ 0") and got[1][1].endswith("= 0")
