"""The visiting orders and stopping rules that every perceptron-like stream shares.

core.perceptron (the primal rule), core.kernel (the dual rule) and core.svm
(subgradient descent) walk the data the same way and draw the same numbers
from the same generator, so that runs with one seed visit the same examples
in the same sequence; the tests hold them to it step for step. The walks live
here once; each run says how it scans a stretch of rows and how it steps.
"""

from __future__ import annotations

import numpy as np

ORDERS = ("cyclic", "shuffle_once", "shuffle_each_epoch", "random", "random_misclassified")

# The update-only scans read blocks of examples at once; a block starts this small (an
# update often comes soon after another) and doubles while a scan finds none. The random
# order draws its rows in blocks that grow the same way (Walk.with_replacement).
FIRST_BLOCK = 16


def check_walk(*, every: str, max_epochs, order: str | None = None) -> None:
    """Raise ValueError naming the setting when order, every or max_epochs is invalid."""
    if order is not None and order not in ORDERS:
        raise ValueError(f"order must be one of {', '.join(ORDERS)}; got {order!r}")
    if every not in ("visit", "update"):
        raise ValueError(f"every must be 'visit' or 'update', got {every!r}")
    if isinstance(max_epochs, bool) or int(max_epochs) != max_epochs or max_epochs < 1:
        raise ValueError(f"max_epochs must be a whole number >= 1, got {max_epochs}")


class Walk:
    """One run over N examples and the ways of walking them.

    A subclass provides ``_scan(rows, t0)``, a generator that visits ``rows``
    in turn from step t0 + 1 and returns whether another epoch could change
    anything; ``_step(t, i, a, updated)``, which applies the rule to example
    i with activation a at step t; ``_violators()``, the rows with a nonzero
    loss gradient and the activations of all rows; and, for the random order,
    ``_all_correct()``.
    """

    def __init__(self, n: int):
        self.n = n
        # the data's own order, one object for every epoch: a scan can keep what it gathered
        self.in_order = np.arange(n)

    def walk(self, order: str, rng: np.random.Generator, max_epochs: int):
        """The steps of the run in ``order`` (one of core.perceptron.ORDERS)."""
        if order == "random_misclassified":
            return self.misclassified(rng, max_epochs)
        if order == "random":
            return self.with_replacement(rng, max_epochs)
        return self.by_epoch(order, rng, max_epochs)

    def by_epoch(self, order: str, rng: np.random.Generator, max_epochs: int):
        """Cyclic and shuffled orders: stop after an epoch that can change nothing."""
        rows = self.in_order
        for epoch in range(max_epochs):
            if order == "shuffle_each_epoch" or (order == "shuffle_once" and epoch == 0):
                rows = rng.permutation(self.n)
            if not (yield from self._scan(rows, epoch * self.n)):
                return

    def with_replacement(self, rng: np.random.Generator, max_epochs: int):
        """Random order: draws with replacement until nothing is misclassified."""
        limit = max_epochs * self.n
        t, block = 0, FIRST_BLOCK
        while t < limit and not self._all_correct():
            rows = rng.integers(0, self.n, size=min(block, limit - t))
            t0, t, block = t, t + len(rows), block * 2
            for step in self._scan(rows, t0):
                yield step
                if step.updated:
                    # the rest of the draws were made with stale weights in view
                    t, block = step.t, FIRST_BLOCK
                    break

    def misclassified(self, rng: np.random.Generator, max_epochs: int):
        """PLA: each step updates on a random misclassified example."""
        for t in range(1, max_epochs * self.n + 1):
            wrong, a = self._violators()
            if wrong.size == 0:
                return
            i = wrong[rng.integers(wrong.size)]
            yield self._step(t, i, a[i], True)
