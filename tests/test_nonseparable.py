"""The non-separable lesson's analysis in core: the search, the report and the floats, each the
core call it chains, and its progress."""

from __future__ import annotations

import numpy as np
import pytest

from core.cycles import find_cycle
from core.exact_runs import fixed_rows, float_departure
from core.geometry import linearly_separable
from core.nonseparable import REPORT_VISITS, analyse
from core.pocket import epoch_report
from datasets.builtin import boolean, iris, noisy, separable

RUN = dict(eta=1.0, order="cyclic", init="zeros", bias=True, max_epochs=50, seed=0)


def same_report(a, b) -> bool:
    return all(np.array_equal(getattr(a, name), getattr(b, name))
               for name in ("epoch", "errors_last", "errors_pocket", "errors_averaged",
                            "max_norm", "updates"))


@pytest.mark.parametrize("data", [boolean("XOR", "01"), noisy(40, 0.5, 0),
                                  iris("versicolor", "virginica", (2, 3))],
                         ids=["xor", "noisy-blobs", "iris"])
def test_the_analysis_is_the_core_calls_it_chains(data):
    X, y = data.X, data.y
    found = analyse(X, y, **RUN)
    cycle = find_cycle(X, y, rows=fixed_rows(X, y, **RUN))
    assert not found.separable and found.rows.tolist() == list(range(len(y)))
    assert (found.cycle.first, found.cycle.repeat, found.cycle.updates) == \
        (cycle.first, cycle.repeat, cycle.updates)
    # the report reaches one period past the repeat, within its budget of visits
    epochs = max(RUN["max_epochs"], min(cycle.repeat + cycle.period, REPORT_VISITS // len(y)))
    run = {**RUN, "max_epochs": epochs}
    assert same_report(found.report, epoch_report(X, y, max_visits=REPORT_VISITS, **run))
    assert found.departure == float_departure(X, y, **run)
    assert found.report.epoch[-1] == epochs


def test_an_order_that_changes_every_epoch_gets_no_search_and_a_report():
    data = noisy(40, 0.5, 0)
    run = {**RUN, "order": "shuffle_each_epoch"}
    found = analyse(data.X, data.y, **run)
    assert found.rows is None and found.cycle is None and found.departure is None
    assert same_report(found.report, epoch_report(data.X, data.y, **run))


def test_separable_data_converge_and_say_so():
    data = separable(30, 0.3, 1)
    found = analyse(data.X, data.y, **RUN)
    assert found.separable == linearly_separable(data.X, data.y) is True
    assert found.cycle.status == "converged"
    assert found.report.errors_last[-1] == 0


def test_the_search_budget_is_the_callers_and_progress_runs_to_the_end():
    data = noisy(40, 0.5, 0)
    done: list[float] = []
    found = analyse(data.X, data.y, **RUN, max_visits=400, progress=done.append)
    assert found.cycle.status == "none" and found.cycle.budget == 10
    assert done == sorted(done) and done[0] > 0 and done[-1] == 1.0
    # the search, to the end of its budget, is the first 90 % of the whole
    assert max(d for d in done if d < 1) == pytest.approx(0.95)
    assert max(d for d in done if d < 0.95) == pytest.approx(0.9)


def test_settings_that_cannot_train_raise():
    data = boolean("XOR", "01")
    with pytest.raises(ValueError, match="eta"):
        analyse(data.X, data.y, **{**RUN, "eta": 0})
