"""The Variants lesson's "more classes" part: one-vs-rest beside one-vs-one, against core."""

from __future__ import annotations

import numpy as np

from core.multiclass import one_vs_one
from datasets.builtin import iris_three
from tests.apptest import assert_clean, by_key, chart, metrics, open_app

PAGE = "variants"


def test_one_vs_one_is_drawn_beside_one_vs_rest_with_both_training_errors():
    at = open_app(PAGE)
    by_key(at.segmented_control, f"{PAGE}.part").set_value("classes").run()
    assert_clean(at)
    X, labels, names = iris_three()
    model = one_vs_one(X, labels, names=names, max_epochs=50, seed=0)
    shown = metrics(at)
    assert shown["Training errors (vote)"].startswith(
        f"{int(np.sum(model.predict(X) != labels))} / 150")
    assert any(c.value == f"Training points where the vote ties: {int(np.sum(model.tied(X)))}."
               for c in at.caption)
    assert "Training errors (argmax)" in shown
    figure = chart(at, f"{PAGE}.ovo_plot")
    drawn = [trace.get("name") for trace in figure["data"]]
    for i, j in model.pairs:
        assert f"y_{names[i]},{names[j]}(x) = 0" in drawn
    assert all(name in drawn for name in names) and "probe x" in drawn
    table, = (d.value for d in at.dataframe if "errors on its 2 classes" in d.value.columns)
    assert table["mistakes"].tolist() == model.mistakes.tolist()
    assert list(table.index) == [f"{names[i]} vs {names[j]}" for i, j in model.pairs]
    votes = model.votes([[4.9, 1.6]])[0]
    assert any(c.value.startswith("Votes at the probe: " + ", ".join(
        f"{n} {v}" for n, v in zip(names, votes, strict=True))) for c in at.caption)
