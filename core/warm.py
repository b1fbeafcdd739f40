"""Compile the walk's inner loop before the first student: ``python -m core.warm``.

numba compiles :mod:`core.scan`'s loop for int64 (exact runs) and float64
numbers at a process's first run of each, or loads it from its disk cache;
running every kind of run once here puts it in that cache (``deploy/run.sh``
does this before starting the servers). Without numba it costs nothing.
"""

from __future__ import annotations

from core.descent import svm_sgd
from core.perceptron import perceptron


def warm() -> None:
    """Compile the loop for int64 and float64 numbers, or load it from the cache: what a
    process's first run would otherwise pay."""
    for X in ([[1.5], [-1.0]], [[1 / 3], [-1.0]]):  # exact (int64), then floats
        for order in ("cyclic", "random_misclassified"):
            list(perceptron(X, [1, -1], order=order, seed=0))
    list(svm_sgd([[1 / 3], [-1.0]], [1, -1], max_epochs=1))


if __name__ == "__main__":
    warm()
