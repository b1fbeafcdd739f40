"""Truth tables, the seeds' hand-made weights, training on each function, and the lift."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.linear_model import Perceptron

from core.boolean import (
    ENCODINGS,
    FUNCTIONS,
    activations,
    hand_weights,
    lift,
    rows_right,
    train,
    truth_table,
)
from core.line_labelings import best_line
from datasets.builtin import boolean

# ---------------------------------------------------------------- truth tables


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("function", ["AND", "OR", "NAND", "XOR"])
def test_tables_agree_with_the_built_in_data_sets(function, encoding):
    table, data = truth_table(function, encoding=encoding), boolean(function, encoding)
    np.testing.assert_array_equal(table.X, data.X)
    np.testing.assert_array_equal(table.y, data.y)


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_tables_compute_their_functions(encoding):
    for function in FUNCTIONS:
        table = truth_table(function, encoding=encoding)
        cut = 0.5 if encoding == "01" else 0.0
        on = np.greater(table.X, cut)
        expected = {"AND": on[:, 0] & on[:, 1], "OR": on[:, 0] | on[:, 1],
                    "NAND": ~(on[:, 0] & on[:, 1]), "NOT": ~on[:, 0],
                    "XOR": on[:, 0] ^ on[:, 1]}[function]
        np.testing.assert_array_equal(table.y > 0, expected)
        false, yes = (0, 1) if encoding == "01" else (-1, 1)
        np.testing.assert_array_equal(table.outputs, np.where(expected, yes, false))
        assert table.inputs == (1 if function == "NOT" else 2)
        assert not table.X.flags.writeable


@pytest.mark.parametrize(("function", "encoding", "message"),
                         [("XNOR", "01", "function must be one of"),
                          ("AND", "bits", "encoding must be '01' or 'pm1'")])
def test_unknown_function_or_encoding(function, encoding, message):
    with pytest.raises(ValueError, match=message):
        truth_table(function, encoding=encoding)
    with pytest.raises(ValueError, match=message):
        hand_weights(function, encoding=encoding)


# ---------------------------------------------------------------- the seeds' weights


def test_slides_and_worked_numbers():
    # a = 20 x1 + 20 x2 - 30: a = 10 at (1, 1), -10 at (0, 1), -30 at (0, 0)
    hand = hand_weights("AND", encoding="01")
    assert hand.w.tolist() == [20.0, 20.0] and hand.b == -30.0 and "slides" in hand.source
    table = truth_table("AND", encoding="01")
    a = dict(zip(map(tuple, table.X.tolist()), activations(table.X, hand.w, hand.b),
                 strict=True))
    assert (a[(1.0, 1.0)], a[(0.0, 1.0)], a[(0.0, 0.0)]) == (10.0, -10.0, -30.0)


@pytest.mark.parametrize(("function", "w", "b"),
                         [("AND", [1, 1], -1), ("OR", [1, 1], 1), ("NOT", [-1, 0], 0)])
def test_book_example_2_2(function, w, b):
    hand = hand_weights(function, encoding="pm1")
    assert (hand.w.tolist(), hand.b) == (w, b) and "Example 2.2" in hand.source


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("function", FUNCTIONS)
def test_hand_weights_get_every_row_right_except_on_xor(function, encoding):
    hand = hand_weights(function, encoding=encoding)
    right = rows_right(truth_table(function, encoding=encoding), hand.w, hand.b)
    assert right.sum() == (3 if function == "XOR" else 4)


def test_a_zero_activation_is_wrong():
    table = truth_table("AND", encoding="pm1")
    assert not rows_right(table, [0.0, 0.0], 0.0).any()


# ---------------------------------------------------------------- training


def sklearn_weights(X, y, epochs: int):
    """scikit-learn's perceptron with the seeds' settings: rows in order, eta 1, no penalty."""
    model = Perceptron(eta0=1.0, shuffle=False, max_iter=epochs, tol=None)
    model.fit(X, y)
    return model.coef_[0], float(model.intercept_[0])


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("function", ["AND", "OR", "NAND", "NOT"])
def test_linearly_separable_functions_converge_like_scikit_learn(function, encoding):
    table = truth_table(function, encoding=encoding)
    run = train(table.X, table.y)
    assert run.converged and run.cycle is None
    assert rows_right(table, run.w, run.b).all()
    w, b = sklearn_weights(table.X, table.y, run.epochs)
    np.testing.assert_allclose(run.w, w)
    assert run.b == pytest.approx(b)


@pytest.mark.parametrize(("function", "mistakes", "w", "b"),
                         [("AND", 1, [1, 1], -1), ("OR", 3, [1, 1], 1),
                          ("NAND", 1, [-1, -1], 1), ("NOT", 2, [-2, 0], 0)])
def test_training_with_plus_minus_one_finds_the_books_weights(function, mistakes, w, b):
    table = truth_table(function, encoding="pm1")
    run = train(table.X, table.y)
    assert (run.mistakes, run.w.tolist(), run.b) == (mistakes, w, b)
    hand = hand_weights(function, encoding="pm1")
    if function in ("AND", "OR"):  # exactly Example 2.2
        assert (run.w.tolist(), run.b) == (hand.w.tolist(), hand.b)
    elif function == "NOT":  # Example 2.2's -x1, doubled
        assert (run.w.tolist(), run.b) == ((2 * hand.w).tolist(), 2 * hand.b)


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_xor_cycles_back_to_zero_every_epoch(encoding):
    table = truth_table("XOR", encoding=encoding)
    run = train(table.X, table.y, max_epochs=50)
    assert not run.converged
    assert (run.cycle.first, run.cycle.repeat, run.cycle.period) == (1, 2, 1)
    assert run.mistakes == 4 and run.w.tolist() == [0.0, 0.0] and run.b == 0.0
    assert best_line(table.X, table.y).correct == 3


def test_a_longer_cycle_is_found_where_the_weights_first_repeat():
    # Non-separable, and from w = 0 the cyclic run settles into a cycle later than epoch 0.
    X = np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 0.0], [1.0, 0.0], [0.5, 2.0]])
    y = np.array([1.0, 1.0, 1.0, -1.0, -1.0])
    run = train(X, y, max_epochs=200)
    assert not run.converged and run.cycle is not None
    first, repeat = run.cycle.first, run.cycle.repeat
    assert first > 1 and run.cycle.period == repeat - first
    # the reference: the epoch-start weights of a plain loop; starts[e - 1] begins epoch e
    w, b, starts = np.zeros(2), 0.0, [(0.0, 0.0, 0.0)]
    for _ in range(repeat - 1):
        for x, label in zip(X, y, strict=True):
            if label * (w @ x + b) <= 0:
                w, b = w + label * x, b + label
        starts.append((*w.tolist(), b))
    assert starts[first - 1] == starts[repeat - 1]
    assert len(set(starts[: repeat - 1])) == repeat - 1  # no earlier repeat
    assert run.epochs == repeat - 1
    assert (*run.w.tolist(), run.b) == starts[repeat - 1]


def test_a_later_cycle_is_worded_by_its_epoch_starts():
    X = np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 0.0], [1.0, 0.0], [0.5, 2.0]])
    run = train(X, [1.0, 1.0, 1.0, -1.0, -1.0], max_epochs=200)
    assert run.ending == (f"cycles: the weights at the start of epoch {run.cycle.repeat} "
                          f"equal those at the start of epoch {run.cycle.first}")


def test_training_needs_numbers_it_can_run_exactly():
    with pytest.raises(ValueError, match="short decimals"):
        train([[0.1234567, 0.0], [1.0, 1.0]], [-1, 1])
    with pytest.raises(ValueError, match="max_epochs"):
        train([[0.0, 0.0], [1.0, 1.0]], [-1, 1], max_epochs=0)


def test_training_stops_at_the_epoch_limit_without_a_repeat():
    X = np.array([[0.0, 0.0], [1.0, 1.0], [0.0, 1.0], [1.0, 0.0]])
    run = train(X, [1, 1, -1, -1], max_epochs=1)
    assert not run.converged and run.cycle is None and run.epochs == 1


# ---------------------------------------------------------------- the lift


def test_lift_adds_the_product():
    np.testing.assert_array_equal(lift([[2.0, 3.0], [-1.0, 1.0]]),
                                  [[2.0, 3.0, 6.0], [-1.0, 1.0, -1.0]])
    with pytest.raises(ValueError, match=r"X must have shape \(N, 2\)"):
        lift([[1.0, 2.0, 3.0]])
    with pytest.raises(ValueError, match="finite"):
        lift([[1.0, np.inf]])


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_lifted_xor_is_separable_and_the_perceptron_converges(encoding):
    table = truth_table("XOR", encoding=encoding)
    Z = lift(table.X)
    run = train(Z, table.y)
    assert run.converged and run.w.shape == (3,)
    assert np.all(table.y * (Z @ run.w + run.b) > 0)
    w, b = sklearn_weights(Z, table.y, run.epochs)
    np.testing.assert_allclose(run.w, w)
    assert run.b == pytest.approx(b)
