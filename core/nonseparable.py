"""What the perceptron does on data no line separates, found in one walk of the run.

:func:`analyse` answers, for a data set and a run's settings: can a line separate
the data; does the order repeat every epoch (then the run is deterministic from
each epoch's start); the exact search for the first repeated epoch start (the
cycling theorem, :func:`core.cycles.find_cycle`); the training errors of the last,
pocket and averaged weights per epoch (:func:`core.pocket.epoch_report`); and
where floating point would leave the exact run (:func:`core.exact_runs.float_departure`).

The exact run is walked once, by the search: its path holds every update, which
the report and the comparison with floats read instead of walking the run again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from core.cycles import CYCLE_VISITS, Cycle, find_cycle, updates_until
from core.exact_runs import Departure, fixed_rows, float_departure
from core.geometry import linearly_separable
from core.pocket import EpochReport, epoch_report

REPORT_VISITS = 200_000  # visits the per-epoch report reads
SEARCH = 0.9  # the share of the progress the search for a repeat reports


@dataclass(frozen=True)
class Analysis:
    """What :func:`analyse` found.

    Attributes
    ----------
    separable : bool
        Whether a line (through the origin when the run has no bias) separates the data.
    rows : ndarray or None
        The visiting order when it is the same every epoch, else None.
    cycle : Cycle or None
        The exact search's result (None when the order changes from epoch to epoch).
    report : EpochReport
        Training errors per epoch of the last, pocket and averaged weights, and max ||w||;
        when a repeat is found, up to one whole period past it (within ``report_visits``).
    departure : Departure or None
        Where the float run first decides differently from the exact one (None: it
        never does, or the search was not exact).
    """

    separable: bool
    rows: np.ndarray | None
    cycle: Cycle | None
    report: EpochReport
    departure: Departure | None


def analyse(X, y, *, eta: float = 1.0, order: str = "cyclic", init="zeros", bias: bool = True,
            max_epochs: int = 100, seed: int | None = None, max_visits: int = CYCLE_VISITS,
            report_visits: int = REPORT_VISITS,
            progress: Callable[[float], None] | None = None) -> Analysis:
    """Separable or not, the fixed order, the exact search for a repeat, the per-epoch report
    and where floats leave the exact run.

    Parameters
    ----------
    X, y : array_like
        Training data.
    eta, order, init, bias, max_epochs, seed
        The run, as for :func:`core.perceptron.perceptron`.
    max_visits : int, default 2_000_000
        Budget of the search for a repeat, in visited examples.
    report_visits : int, default 200_000
        Visits the per-epoch report reads at most.
    progress : callable, optional
        Called with the share done (0 to 1) as the work goes on: the search reports up to
        0.9, the rest once the comparison with floats is made.

    Returns
    -------
    Analysis

    Raises
    ------
    ValueError
        If the data or the settings cannot train.

    Examples
    --------
    >>> xor = analyse([[0, 0], [0, 1], [1, 0], [1, 1]], [-1, 1, 1, -1], max_epochs=5)
    >>> xor.separable, xor.rows.tolist(), xor.cycle.status, xor.cycle.period
    (False, [0, 1, 2, 3], 'cycle', 1)
    >>> xor.report.errors_last.tolist(), xor.departure is None  # each epoch ends at w = 0
    ([4, 4, 4, 4, 4], True)
    """
    report = progress if progress is not None else (lambda done: None)
    settings = dict(eta=eta, order=order, init=init, bias=bias, seed=seed)
    rows = fixed_rows(X, y, **settings)
    cycle = None
    if rows is not None:
        cycle = find_cycle(X, y, eta=eta, init=init, bias=bias, rows=rows,
                           max_visits=max_visits, progress=lambda done: report(SEARCH * done))
    n = len(y)
    exact = cycle is not None and cycle.status != "inexact"
    epochs = max_epochs
    if exact and cycle.status == "cycle":  # reach one full period, within the report's budget
        epochs = max(epochs, min(cycle.repeat + cycle.period, report_visits // n))
    run = {**settings, "max_epochs": epochs}
    updates = updates_until(cycle, n, epochs) if exact else None
    departure = float_departure(X, y, exact_updates=None if updates is None else updates[0],
                                **run) if exact else None
    report(SEARCH + (1 - SEARCH) / 2)
    errors = epoch_report(X, y, max_visits=report_visits, updates=updates, **run)
    report(1.0)
    return Analysis(linearly_separable(X, y, bias=bias), rows, cycle, errors, departure)
