"""A run stopped by its epoch cap says what to try next: separable data (certified exactly)
get their margin, bound and one click that raises the cap to where the run converges;
data no line separates point to the pocket and averaged runs."""

from __future__ import annotations

import re

import numpy as np
import pytest
from scipy.optimize import minimize

from core.next_try import after_cap, certified_separator
from core.perceptron import perceptron
from core.trace import outcome, record
from datasets.builtin import separable
from tests.apptest import assert_clean, by_key
from tests.test_lesson import open_link
from ui.next_try import budget_epochs
from ui.url_state import encode_points

DATA = separable(30, 0.02, 1)  # converges in epoch 5 from w = 0, cyclic


def reference_gamma(X, y) -> float:
    """The bound's margin by another road: min ||v||² s.t. y_n v·(x_n, 1) >= 1, gamma = 1/||v||."""
    Z = np.column_stack([X, np.ones(len(X))]) * np.asarray(y)[:, None]
    found = minimize(lambda v: v @ v, np.ones(3), jac=lambda v: 2 * v, method="SLSQP",
                     constraints=[{"type": "ineq", "fun": lambda v: Z @ v - 1,
                                   "jac": lambda v: Z}], options={"ftol": 1e-14,
                                                                  "maxiter": 500})
    return 1 / np.linalg.norm(found.x)


def test_separable_data_are_certified_with_the_bounds_numbers():
    advice = after_cap(DATA.X, DATA.y, mistakes=9, epochs=2)
    assert advice.separable
    assert advice.gamma == pytest.approx(reference_gamma(DATA.X, DATA.y), rel=1e-4)
    R = np.max(np.linalg.norm(np.column_stack([DATA.X, np.ones(len(DATA.X))]), axis=1))
    assert advice.bound == pytest.approx(R**2 / advice.gamma**2)
    # the guarantee holds: from w = 0 the run converges within it
    trace = record(perceptron(DATA.X, DATA.y, max_epochs=advice.guaranteed))
    assert outcome(trace, DATA.X, DATA.y, max_epochs=advice.guaranteed).converged


def test_a_tie_is_no_separation_and_xor_is_none():
    # two points on one line x1 + x2 = 0.3: no line through both separates them
    assert not certified_separator([[0.1, 0.2], [0.2, 0.1]], [-1, 1], [1.0, 1.0], -0.3)
    # decided on the data's decimals: x = (0.1, 0.2) (0.3 exactly) below the line
    # x1 + x2 = 0.30000000000000004 (b the float's exact value) is on the side of class -1,
    # where floats see a tie (0.1 + 0.2 is that same float)
    b = -(0.1 + 0.2)
    assert -1 * (0.1 + 0.2 + b) == 0  # floats: a tie, no separation
    assert certified_separator([[0.1, 0.2]], [-1], [1.0, 1.0], b)
    assert not after_cap([[0, 0], [1, 1], [0, 1], [1, 0]], [-1, -1, 1, 1], mistakes=8,
                         epochs=4).separable


def info_text(at) -> str:
    return " ".join(i.value for i in at.info)


def test_the_capped_separable_run_says_so_and_one_click_finishes_it():
    at = open_link({"pts": encode_points(DATA), "epochs": "2"}, "step_through")
    assert_clean(at)
    said = info_text(at)
    assert "These data are linearly separable" in said
    gamma = float(re.search(r"margin γ ≈ ([\d.e-]+)", said).group(1))
    assert gamma == pytest.approx(reference_gamma(DATA.X, DATA.y), rel=1e-2)
    assert "converges in epoch 5" in said
    by_key(at.button, "step_through.more_epochs").click().run()
    assert_clean(at)
    assert at.session_state["train.max_epochs"] == 5
    assert at.query_params["epochs"] == ["5"] or at.query_params["epochs"] == "5"
    assert not any("linearly separable" in i.value for i in at.info)
    assert any("Converged" in c.value for c in at.caption)


def test_a_converged_run_or_one_under_its_cap_says_nothing():
    at = open_link({"pts": encode_points(DATA), "epochs": "50"}, "step_through")
    assert "linearly separable" not in info_text(at)
    assert "No line separates" not in info_text(at)


def test_data_no_line_separates_point_to_the_pocket_and_averaged_runs():
    at = open_link({"data": "xor-0-1", "epochs": "3"}, "step_through")
    assert_clean(at)
    assert "No line separates these data" in info_text(at)
    assert "linearly separable" not in info_text(at)
    links = [p for p in at.get("page_link")]
    assert any("Pocket and averaged" in p.proto.label for p in links)


def test_the_raise_stays_within_the_views_budget():
    assert budget_epochs(30) == 666
    assert budget_epochs(10) == 1000
    assert budget_epochs(20_000) == 1


def test_the_margin_lesson_gives_the_same_hint_under_its_run():
    at = open_link({"pts": encode_points(DATA), "epochs": "2"}, "margin")
    assert_clean(at)
    assert "converges in epoch 5" in info_text(at)
    by_key(at.button, "margin.more_epochs").click().run()
    assert_clean(at)
    assert at.session_state["train.max_epochs"] == 5
