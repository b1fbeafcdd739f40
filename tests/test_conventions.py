"""Where the notes differ or are silent, each page says which convention it follows, and the
numbers follow it."""

from __future__ import annotations

import numpy as np
import pytest

from core.descent import svm_sgd, svm_step_size
from core.perceptron import perceptron
from core.soft_margin import lam_to_C
from core.variants import Voted
from datasets.builtin import BUILTIN
from tests.apptest import by_key, open_app

NOTES4 = BUILTIN["Lecture notes' example: 4 points"]()


def page_text(at) -> str:
    parts = [e.value for kind in ("markdown", "caption", "info", "latex")
             for e in getattr(at, kind)]
    parts += [e.label for e in at.select_slider] + [b.help or "" for b in at.button]
    return "\n".join(str(p) for p in parts)


def test_vote_counts_start_at_one_for_an_update_and_add_one_per_survived_visit():
    steps = list(perceptron(NOTES4.X, NOTES4.y, max_epochs=5))
    voted = Voted.from_steps(steps, start=(np.zeros(2), 0.0))
    # independent count: each update opens a new vector with the visit that made it
    counts = [0]
    for step in steps:
        if step.updated:
            counts.append(1)
        else:
            counts[-1] += 1
    assert voted.counts.tolist() == counts and sum(counts) == len(steps)
    text = page_text(open_app("variants"))
    assert "starts with c = 1" in text and "the starting vector starts at 0" in text


def test_the_kernel_part_says_a_sum_of_examples_only_from_zero():
    at = open_app("variants")
    by_key(at.segmented_control, "variants.part").set_value("kernel").run()
    assert "Started from w = 0" in page_text(at)


def test_the_svm_shrinks_w_on_every_step_and_says_so():
    lam, eta0 = 0.1, 1.0
    steps = list(svm_sgd(NOTES4.X, NOTES4.y, lam=lam, eta=eta0, max_epochs=3))
    before = np.zeros(2)
    quiet = 0
    for k, step in enumerate(steps, start=1):
        if not step.updated:  # no violation: only the penalty acts
            np.testing.assert_allclose(step.w, (1 - svm_step_size(k, eta0) * lam) * before)
            quiet += 1
        before = step.w
    assert quiet > 0
    at = open_app("svm")
    by_key(at.segmented_control, "svm.part").set_value("Train side by side").run()
    assert "on every step, a violation or not" in page_text(at)
    assert "always learns a bias" in page_text(at)


def test_c_is_one_over_lambda_n_with_the_mean_hinge():
    assert lam_to_C(0.01, n=4) == pytest.approx(1 / (0.01 * 4))
    at = open_app("svm")
    by_key(at.segmented_control, "svm.part").set_value("Soft margin").run()
    text = page_text(at)
    assert "C = 1/(λN)" in text and "the mean, not the sum" in text and "their γ" in text


def test_margin_page_names_margin_d_w_b_and_the_order_of_the_constant():
    text = page_text(open_app("margin"))
    assert "Margin(D, w, b)" in text and "(1, **x**)" in text


def test_pocket_and_worked_example_conventions_are_said():
    text = page_text(open_app("nonseparable"))  # the page runs the readings' pocket
    assert "Kowalczyk's *Support Vector Machines Succinctly*" in text
    assert "Gallant's original pocket algorithm keeps instead" in text
    assert "reconstructed from the numbers" in page_text(open_app("step_through"))
