"""n-bit parity: never separable, the run cycles, and which product feature separates it.

References: the definition row by row, an exact mixed-integer search over every hyperplane,
every subset of rows tried for separability, explicit separators, and a plain loop in fractions.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations, product

import numpy as np
import pytest
from scipy.optimize import Bounds, LinearConstraint, milp

from core.boolean import truth_table
from core.geometry import linearly_separable
from core.parity import PARITY_BITS, parity, parity_best, parity_table, product_lift
from tests.apptest import by_key, open_app

ENCODINGS = ("01", "pm1")


def most_rows_right(X, y, *, bound: int = 64) -> int:
    """The most rows any (w, b) gets strictly right, by an exact mixed-integer programme.

    Row i counts (z_i = 1) only if y_i (w.x_i + b) >= 1. On at most 5 inputs in {0, 1} or
    {-1, +1}, every split a hyperplane makes has integer weights of size < 16 that reach
    margin 1, so weights bounded by 64 lose none of them.
    """
    X, y = np.asarray(X, float), np.asarray(y, float)
    N, d = X.shape
    big = bound * (d + 1) * 2 + 1
    rows = np.hstack([y[:, None] * X, y[:, None], -big * np.eye(N)])
    found = milp(np.r_[np.zeros(d + 1), -np.ones(N)],
                 constraints=LinearConstraint(rows, 1 - big, np.inf),
                 bounds=Bounds(np.r_[-bound * np.ones(d + 1), np.zeros(N)],
                               np.r_[bound * np.ones(d + 1), np.ones(N)]),
                 integrality=np.r_[np.zeros(d + 1), np.ones(N)])
    assert found.success
    return round(-found.fun)


def subsets_separable(X, y, size: int) -> bool:
    """Whether some ``size`` rows are linearly separable (every subset tried)."""
    return any(linearly_separable(X[list(rows)], y[list(rows)])
               for rows in combinations(range(len(y)), size))


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("n", [1, *PARITY_BITS])
def test_the_table_is_parity_row_by_row(n, encoding):
    table = parity_table(n, encoding=encoding)
    assert table.X.shape == (2 ** n, n) and table.inputs == n
    for bits, x, label in zip(product((0, 1), repeat=n), table.X, table.y, strict=True):
        assert x.tolist() == (list(bits) if encoding == "01" else [2 * b - 1 for b in bits])
        assert label == (1 if sum(bits) % 2 else -1)
    if n == 2:
        xor = truth_table("XOR", encoding=encoding)
        assert table.X.tolist() == xor.X.tolist() and table.y.tolist() == xor.y.tolist()


@pytest.mark.parametrize("bad", [0, 11, 2.5, True, "3"])
def test_a_bad_number_of_bits_is_named(bad):
    with pytest.raises(ValueError, match="n must be a whole number from 1 to 10"):
        parity_table(bad)


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("n", PARITY_BITS)
def test_no_hyperplane_separates_parity_and_the_best_is_the_known_count(n, encoding):
    facts = parity(n, encoding=encoding)
    X, y = facts.table.X, facts.table.y
    assert not facts.separable
    # the certificate: sum_i y_i (x_i, 1) = 0, in integers
    assert (y.astype(int) @ np.column_stack([X, np.ones(len(y))]).astype(int)).tolist() == \
        [0] * (n + 1)
    assert facts.balance.tolist() == [0.0] * (n + 1)
    assert facts.best == parity_best(n) == most_rows_right(X, y)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_best_count_against_every_subset_of_rows(n):
    table = parity_table(n, encoding="pm1")
    X, y = table.X, table.y
    best = parity_best(n)
    assert subsets_separable(X, y, best)
    if n < 4:  # every larger subset too; for n = 4 the next size up is enough (monotone)
        assert not any(subsets_separable(X, y, size) for size in range(best + 1, 2 ** n + 1))
    else:
        assert not subsets_separable(X, y, best + 1)


def fraction_epochs(X, y, epochs: int):
    """The notes' perceptron (cyclic, eta = 1, zeros) in fractions: epoch starts, mistakes."""
    w = [Fraction(0)] * (X.shape[1] + 1)
    starts, mistakes = [tuple(w)], []
    for _ in range(epochs):
        count = 0
        for x, label in zip(X.tolist(), y.tolist(), strict=True):
            z = [Fraction(v) for v in x] + [Fraction(1)]
            if label * sum(a * b for a, b in zip(w, z, strict=True)) <= 0:
                w = [a + int(label) * b for a, b in zip(w, z, strict=True)]
                count += 1
        starts.append(tuple(w))
        mistakes.append(count)
    return starts, mistakes


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("n", PARITY_BITS)
def test_the_run_makes_a_mistake_on_every_row_and_comes_back_to_zero(n, encoding):
    facts = parity(n, encoding=encoding)
    starts, mistakes = fraction_epochs(facts.table.X, facts.table.y, 3)
    assert all(start == starts[0] for start in starts) and mistakes == [2 ** n] * 3
    cycle = facts.run.cycle
    assert not facts.run.converged
    assert (cycle.first, cycle.period, cycle.updates) == (1, 1, 2 ** n)


@pytest.mark.parametrize("n", PARITY_BITS)
def test_which_product_separates(n):
    pm1 = parity(n, encoding="pm1")
    lifted = product_lift(pm1.table.X)
    # an explicit separator: parity is -(-1)^n times the product of the -1/+1 inputs
    sign = -((-1) ** n)
    assert np.all(pm1.table.y * (sign * lifted[:, -1]) > 0)
    separable, run = pm1.lifts["product"]
    assert separable and run.converged
    assert np.all(pm1.table.y * (lifted @ run.w + run.b) > 0)
    ones = parity(n, encoding="01")
    and_separable, and_run = ones.lifts["product"]
    assert and_separable == (n == 2)  # x1...xn is AND with 0/1 inputs: enough for XOR only
    assert and_run.converged == (n == 2)
    assert most_rows_right(product_lift(ones.table.X), ones.table.y) < 2 ** n or n == 2
    signed, signed_run = ones.lifts["signed product"]
    assert signed and signed_run.converged
    assert set(ones.lifts) == {"product", "signed product"} and set(pm1.lifts) == {"product"}


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_the_page_shows_the_parity_table(encoding):
    at = open_app("boolean")
    if encoding == "pm1":
        by_key(at.radio, "boolean.encoding").set_value("pm1").run()
    by_key(at.segmented_control, "boolean.part").set_value("parity").run()
    frame, = (d.value for d in at.dataframe if "best any hyperplane" in d.value.columns)
    assert frame["n"].tolist() == list(PARITY_BITS)
    assert frame["best any hyperplane"].tolist() == ["3 / 4", "6 / 8", "11 / 16", "22 / 32"]
    assert set(frame["separable"]) == {"no"}
    assert frame["perceptron from w = 0"].tolist() == [
        f"cycles: back at w = 0 every 1 epoch, {2 ** n} mistakes" for n in PARITY_BITS]
    lifted = frame["separable with x₁⋯xₙ added"].tolist()
    if encoding == "pm1":
        assert lifted == ["yes: converges, 4 mistakes"] * 4
        assert "separable with ∏(2xᵢ − 1) added" not in frame
    else:
        assert lifted[0] == "yes: converges, 29 mistakes"
        assert all(cell.startswith("no; cycles: from epoch") for cell in lifted[1:])
        signed = frame["separable with ∏(2xᵢ − 1) added"].tolist()
        assert signed == ["yes: converges, 2 mistakes"] * 4
