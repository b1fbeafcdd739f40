"""The voted perceptron streamed one visit at a time (Freund and Schapire): a second count of
the votes that core.variants.Voted takes from a recorded run (the Variants lesson's
``Voted.from_trace``), visit by visit as the notes' Algorithm 2 counts them."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from core.perceptron import Step, check_data, perceptron
from core.runs import Stream, Walk


@dataclass(frozen=True)
class VotedStep(Step):
    """A :class:`Step` with the vote count of the current weight vector.

    ``vote`` is the number of visits the current vector (w, b) has survived so
    far (1 on the step that created it); ``vectors`` is how many weight
    vectors the run has had, the starting one included.
    """

    vote: int
    vectors: int


def voted_perceptron(X, y, **kwargs) -> Iterator[VotedStep]:
    """Freund and Schapire's voted perceptron, streamed one visit at a time.

    Parameters
    ----------
    X, y, **kwargs
        As for :func:`core.perceptron.perceptron` (``every`` must stay "visit":
        a vote is one visit survived).

    Yields
    ------
    VotedStep
        The perceptron's step plus the current vector's vote count ``vote``
        and the number of vectors so far ``vectors``.

    Raises
    ------
    ValueError
        If an argument is invalid, as for :func:`core.perceptron.perceptron`.

    Notes
    -----
    The run keeps every weight vector (w_k, b_k) with a count c_k: the
    starting vector has c_1 = 0, a vector created by an update starts with
    c_k = 1, and each visit that does not update adds 1 to the current count.
    Prediction is by weighted vote,

        yhat(x) = sign( sum_k c_k sign(w_k^T x + b_k) ).

    Each visit adds exactly one vote, to the vector in force after it, so
    sum_k c_k = t and sum_k c_k w_k = mu, the notes' sum of the weights after
    every visit (Algorithm 2); likewise sum_k c_k b_k for the bias. The
    averaged perceptron takes the sign of the sum, sign(mu^T x); the voted
    one sums the signs.

    Examples
    --------
    >>> steps = list(voted_perceptron([[1.0, 0.0], [-1.0, 0.0]], [1, -1]))
    >>> [(s.updated, s.vote, s.vectors) for s in steps]
    [(True, 1, 2), (True, 1, 3), (False, 2, 3), (False, 3, 3)]
    """
    if kwargs.get("every", "visit") != "visit":
        raise ValueError("the voted perceptron needs every visit: every must be 'visit'")
    X, y = check_data(X, y)
    run = perceptron(X, y, **kwargs)
    return Stream(_voted(run), run)


def _voted(run: Walk) -> Iterator[VotedStep]:
    """The run's steps with the current vector's vote count."""
    vote, vectors = 0, 1
    for step in run:
        if step.updated:
            vote, vectors = 1, vectors + 1
        else:
            vote += 1
        yield VotedStep(**vars(step), vote=vote, vectors=vectors)
