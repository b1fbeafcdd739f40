"""Two runs at two etas on the notes' 4 points, stepped together on the margin page.

Reference: the notes' rule in fractions, one visit at a time.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from core.geometry import mistake_bound
from datasets.builtin import notes_four_points
from lessons.margin.parts import ELSEWHERE, PAIR_EPOCHS, first_disagreement, pair_runs
from tests.apptest import assert_clean, by_key, open_app, stepper_run, sync

PAGE = "margin"
ZERO = ((0, 0), 0)


def fraction_run(eta: str, start) -> tuple[list[bool], list[tuple[Fraction, ...]]]:
    """Every visit's decision (update or not) and the weights after it, cyclic, to convergence."""
    data = notes_four_points()
    X = [[Fraction(str(v)) for v in row] for row in data.X.tolist()]
    y = [int(v) for v in data.y]
    eta = Fraction(eta)
    (w1, w2), b = start
    w = [Fraction(str(w1)), Fraction(str(w2)), Fraction(str(b))]
    decisions, weights = [], []
    for _ in range(PAIR_EPOCHS):
        clean = True
        for x, label in zip(X, y, strict=True):
            mistake = label * (w[0] * x[0] + w[1] * x[1] + w[2]) <= 0
            if mistake:
                w = [w[0] + eta * label * x[0], w[1] + eta * label * x[1], w[2] + eta * label]
                clean = False
            decisions.append(mistake)
            weights.append(tuple(w))
        if clean:
            return decisions, weights
    raise AssertionError("no convergence")


@pytest.mark.parametrize("etas", [(1.0, 0.1), (1.0, 0.01), (0.1, 0.01)])
def test_from_zero_every_decision_is_the_same_and_the_weights_scale_by_eta(etas):
    left_ref, left_w = fraction_run(str(etas[0]), ZERO)
    right_ref, right_w = fraction_run(str(etas[1]), ZERO)
    assert left_ref == right_ref  # the reference itself: eta changes no decision from 0
    ratio = Fraction(str(etas[1])) / Fraction(str(etas[0]))
    assert all(r == tuple(ratio * v for v in lw) for lw, r in zip(left_w, right_w, strict=True))
    left, right, ends = pair_runs("zeros", etas)
    assert left.updated[1:].tolist() == left_ref == right.updated[1:].tolist()
    assert first_disagreement(left, right) is None
    np.testing.assert_allclose(np.column_stack([left.W, left.b])[1:],
                               np.array(left_w, dtype=float), rtol=0, atol=1e-12)
    assert ends[0].mistakes == ends[1].mistakes == sum(left_ref) == 22


def test_from_the_notes_start_the_decisions_differ_and_the_counts_pass_the_bound():
    refs = {eta: fraction_run(eta, ELSEWHERE)[0] for eta in ("1", "0.1", "0.01")}
    assert [sum(r) for r in refs.values()] == [30, 142, 1353]
    data = notes_four_points()
    assert mistake_bound(data.X, data.y) == pytest.approx(81)
    left, right, ends = pair_runs("elsewhere", (1.0, 0.1))
    assert left.updated[1:len(refs["1"]) + 1].tolist() == refs["1"]
    assert right.updated[1:].tolist() == refs["0.1"]
    n = min(len(refs["1"]), len(refs["0.1"]))
    first = int(np.flatnonzero(np.array(refs["1"][:n]) != refs["0.1"][:n])[0]) + 1
    assert first_disagreement(left, right) == first
    assert (ends[0].mistakes, ends[1].mistakes) == (30, 142)
    _, _, slow = pair_runs("elsewhere", (1.0, 0.01))
    assert slow[1].mistakes == 1353 and slow[1].converged


def test_the_page_steps_both_runs_on_one_clock_without_taking_the_address_bar():
    at = open_app(PAGE)
    assert not [e for e in at.get("bidi_component") if "pair" in e.proto.id]  # off by default
    by_key(at.toggle, f"{PAGE}.pair").set_value(True).run()
    assert_clean(at)
    lead, lead_cols = stepper_run(at, f"{PAGE}.pair_left")
    follow, follow_cols = stepper_run(at, f"{PAGE}.pair_right")
    assert lead["lead"] == f"{PAGE}.pair_left" and follow["follow"] == f"{PAGE}.pair_left"
    assert not lead["keys"]  # the page's own stepper keeps the keys
    assert lead["steps"] == follow["steps"]
    assert lead_cols["updated"].tolist() == follow_cols["updated"].tolist()
    assert "Every one of the" in at.success[0].value
    sync(at, PAGE, 3)
    assert at.query_params["step"] == "3"
    sync(at, f"{PAGE}.pair_left", 5)
    assert at.query_params["step"] == "3"  # step=k belongs to the page's own stepper
    by_key(at.segmented_control, f"{PAGE}.pair_start").set_value("elsewhere").run()
    assert_clean(at)
    assert "after 30 and 142 mistakes" in at.warning[0].value
    assert at.query_params["pair_from"] == "elsewhere"
