"""The perceptron's rule in fractions: the reference the tests hold exact runs to."""

from __future__ import annotations

from fractions import Fraction


def F(value) -> Fraction:
    """A short decimal float as the decimal it stands for (a Fraction stays as it is)."""
    return value if isinstance(value, Fraction) else Fraction(repr(float(value)))


def fraction_visits(X, y, *, eta, bias, epochs):
    """The cyclic rule in fractions from w = 0, to convergence or ``epochs``: per visit,
    (row, w before, b before, updated); and the weights after the run."""
    rows = [[F(v) for v in x] for x in X]
    eta = F(eta)
    w, b, visits = [Fraction(0)] * len(rows[0]), Fraction(0), []
    for _ in range(epochs):
        changed = False
        for n, (x, label) in enumerate(zip(rows, y, strict=True)):
            label = int(label)
            wrong = label * (sum(wi * xi for wi, xi in zip(w, x, strict=True)) + b) <= 0
            visits.append((n, w, b, wrong))
            if wrong:
                w = [wi + eta * label * xi for wi, xi in zip(w, x, strict=True)]
                b += eta * label if bias else 0
                changed = True
        if not changed:
            break
    return visits, (w, b)
