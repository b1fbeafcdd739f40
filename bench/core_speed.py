"""The update-only stream against scikit-learn's Cython Perceptron, and the exact maximum margin.

Run from the repository root: ``python -m bench.core_speed`` (``--sizes 100000 1000000``).
For each data set the stream is consumed to convergence (cyclic order, eta 1),
then scikit-learn's Perceptron runs the same number of passes over the same
data. Both must end with the same weights, or the row says so. Times are CPU
seconds of this process (both sides run on one core), the best of
``--repeats``, so the other jobs of a shared machine count as little as they can. Each data set
runs twice: as drawn (full floats: our run is in floats with a tie tolerance)
and rounded to 3 decimals (our run decides in exact integers). Then the seconds
max_margin takes on the inputs its tests check the working set of (tests/test_svm.py):
non-separable blobs, and thin margins on 2,000 points far from the origin.
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np

from bench._server import load_average
from core.max_margin import max_margin
from core.perceptron import perceptron

clock = time.process_time  # CPU seconds: both loops run on one core


def separable(n: int, margin: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """n points in [-1, 1]^2 at least ``margin`` from a fixed line through (0.1, 0)."""
    rng = np.random.default_rng(seed)
    normal = np.array([0.6, 0.8])
    X = rng.uniform(-1, 1, size=(2 * n, 2))
    score = X @ normal - 0.06
    X, score = X[np.abs(score) >= margin][:n], score[np.abs(score) >= margin][:n]
    return X, np.where(score > 0, 1.0, -1.0)


def ours(X, y) -> tuple[float, int, int, np.ndarray, float]:
    """Seconds, updates and passes of the update stream to convergence, and its weights."""
    start = clock()
    run = perceptron(X, y, every="update", max_epochs=10_000)
    steps = list(run)
    seconds = clock() - start
    last, updates = steps[-1], len(steps)
    passes = last.epoch + 1  # the epoch of the last update, then one clean pass
    return seconds, updates, passes, last.w, last.b


def theirs(X, y, passes: int) -> tuple[float, np.ndarray, float]:
    """Seconds of scikit-learn's Perceptron making the same passes, and its weights."""
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import Perceptron

    model = Perceptron(max_iter=passes, tol=None, shuffle=False, eta0=1.0, penalty=None)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        start = clock()
        model.fit(X, y)
        seconds = clock() - start
    return seconds, model.coef_[0], float(model.intercept_[0])


def visit_throughput(X, y, steps: int = 200_000) -> float:
    """Visited steps per second of the every-visit stream."""
    stream = perceptron(X, y, max_epochs=10_000)
    start = clock()
    for count, _ in enumerate(stream, start=1):
        if count == steps:
            break
    return count / (clock() - start)


def max_margin_seconds(repeats: int) -> list[tuple[str, float, str]]:
    """Seconds of max_margin on hard inputs: (case, best of ``repeats``, its answer)."""
    rng = np.random.default_rng(0)
    blobs = (np.vstack([rng.normal(0.0, 1.0, (1000, 2)), rng.normal(1.0, 1.0, (1000, 2))]),
             np.r_[-np.ones(1000), np.ones(1000)])
    cases = [("noisy blobs, 2,000 points", blobs)]
    for margin in (1e-2, 1e-6):
        X, y = separable(2000, margin, seed=1)
        cases.append((f"2,000 points, margin {margin:g}, shifted by 50", (X + 50.0, y)))
    rows = []
    for name, (X, y) in cases:
        times = []
        for _ in range(repeats):
            start = clock()
            found = max_margin(X, y)
            times.append(clock() - start)
        rows.append((name, min(times), "none" if found is None else f"gamma {found.gamma:.3g}"))
    return rows


def best_of(repeats, run):
    """The fastest of several runs (the others measure the machine's other jobs)."""
    results = [run() for _ in range(repeats)]
    return min(results, key=lambda result: result[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100_000, 1_000_000])
    parser.add_argument("--margins", type=float, nargs="+", default=[0.05, 0.002])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    print(f"1-min load average {load_average():.2f}")
    print("| N | margin | data | updates | passes | ours (s) | scikit-learn (s) "
          "| ours / theirs | same weights |")
    print("| ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | --- |")
    for n in args.sizes:
        for margin in args.margins:
            drawn, y = separable(n, margin, seed=0)
            for kind, X in (("floats", drawn), ("3 decimals (exact)", np.round(drawn, 3))):
                mine, updates, passes, w, b = best_of(args.repeats,
                                                      lambda X=X, y=y: ours(X, y))
                sk, w_sk, b_sk = best_of(args.repeats,
                                         lambda X=X, y=y, p=passes: theirs(X, y, p))
                same = np.allclose(w, w_sk, rtol=1e-9, atol=1e-9) and abs(b - b_sk) < 1e-9
                print(f"| {n:,} | {margin:g} | {kind} | {updates:,} | {passes} | {mine:.3f} "
                      f"| {sk:.3f} | {mine / sk:.2f} | {'yes' if same else 'NO'} |")
    X, y = separable(args.sizes[0], args.margins[-1], seed=0)
    print(f"\nevery='visit' throughput: {visit_throughput(X, y):,.0f} steps/s")
    print("\n| max_margin on | seconds | answer |\n| --- | ---: | --- |")
    for name, seconds, answer in max_margin_seconds(args.repeats):
        print(f"| {name} | {seconds:.3f} | {answer} |")


if __name__ == "__main__":
    main()
