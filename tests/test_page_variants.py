"""The Variants lesson driven through AppTest: every control, and the numbers it shows
checked against the core computed directly."""

from __future__ import annotations

import numpy as np
import pytest

from core.kernel import Kernel, KernelModel, kernel_perceptron
from core.multiclass import one_vs_one, one_vs_rest
from core.perceptron import perceptron
from core.trace import record
from core.variants import Voted, errors, running_average, train_test_split
from datasets.builtin import iris_three, noisy
from datasets.shapes import circles
from tests.apptest import (
    assert_clean,
    by_key,
    charts,
    click,
    latex,
    metrics,
    open_app,
    position,
    stepper_element,
    stepper_run,
    sync,
    upload,
)

PAGE = "variants"


def run(at):
    at.run()
    assert_clean(at)
    return at


def set_value(at, kind: str, key: str, value):
    by_key(getattr(at, kind), key).set_value(value)
    return run(at)


def to_end(at, part: str):
    """Step to the run's end, as a student pressing N until it stops would (a run opens at 0)."""
    key = f"{PAGE}.{part}"
    return sync(at, key, stepper_run(at, key)[0]["steps"])


def trace_names(at) -> list[str]:
    return [trace.get("name") for trace in charts(at)[0]["data"]]


@pytest.fixture
def page():
    return open_app(PAGE)


# ---------------------------------------------------------------- averaged and voted


def test_noisy_blobs_errors_of_last_averaged_and_voted_are_the_cores(page):
    at = click(page, f"{PAGE}.load.Noisy blobs")
    assert by_key(at.selectbox, "data.choice").value == "Noisy blobs (generator)"
    data = noisy(200, 0.7, 0)
    train, test = train_test_split(200, 0.3, 0)
    trace = record(perceptron(data.X[train], data.y[train], max_epochs=50, seed=0))
    k = trace.steps
    assert position(at) == 0  # a new run opens at its start, Step ready
    at = to_end(at, "avg")
    assert position(at) == k
    W_avg, b_avg = running_average(trace)
    voted = Voted.from_trace(trace, k)
    expected = {
        "last": data.X @ trace.W[k] + trace.b[k],
        "averaged": data.X @ W_avg[k] + b_avg[k],
        "voted": voted.decision(data.X),
    }
    table = at.dataframe[0].value
    assert list(table.index) == ["last", "averaged", "voted"]
    for name, a in expected.items():
        assert table.loc[name, "training errors"].startswith(
            f"{errors(data.y[train], a[train])} / 140 ")
        assert table.loc[name, "test errors"].startswith(f"{errors(data.y[test], a[test])} / 60 ")
    assert metrics(at)["Weight vectors K"] == str(len(voted.counts))
    assert metrics(at)["Votes of the current one"] == str(voted.counts[-1])
    text = latex(at)
    assert rf"K = {len(voted.counts)}" in text and rf"\sum_k c_k = {k}" in text
    header, columns = stepper_run(at, f"{PAGE}.avg")
    # the browser draws the last and the averaged boundaries from the run's own columns
    assert "averaged" in header["layers"] and header["steps"] == k
    np.testing.assert_array_equal(columns["W"], trace.W)
    np.testing.assert_array_equal(columns["b"], trace.b)
    np.testing.assert_array_equal(columns["Wavg"], W_avg)  # the browser averages as core does
    np.testing.assert_array_equal(columns["bavg"], b_avg)
    np.testing.assert_array_equal(columns["X"], data.X[train])
    np.testing.assert_array_equal(columns["index"], trace.index)
    np.testing.assert_array_equal(columns["mistakes"], trace.mistakes)
    np.testing.assert_array_equal(columns["epoch"], trace.epoch)
    # 7,000 visits open the page in at most 150 KB: W and b travel only at updates
    assert len(stepper_element(at, f"{PAGE}.avg").proto.bytes) <= 150_000
    names = [trace.get("name") for trace in header["figure"]["data"]]
    assert "averaged: μ·x + μ_b = 0" in names and "last: w·x + b = 0" in names
    assert "class -1, test" in names and "class +1, train" in names
    assert not charts(at)  # no per-step Plotly figure from the server


def test_averaged_and_voted_keep_counting_after_convergence_as_algorithm_2(page):
    # the notes' 4 points converge in 2 epochs; Algorithm 2 still loops all 50 (MaxIter)
    at = set_value(page, "selectbox", "data.choice", "Lecture notes' example: 4 points")
    at = set_value(at, "slider", f"{PAGE}.test_share", 0.0)
    at = to_end(at, "avg")
    assert position(at) == 50 * 4
    assert any("for all 50 max epochs" in c.value for c in at.caption)
    text = latex(at)
    assert r"\sum_k c_k = 200" in text
    at = set_value(at, "selectbox", "train.order", "random_misclassified")
    assert any("until convergence" in c.value for c in at.caption)
    assert stepper_run(at, f"{PAGE}.avg")[0]["steps"] < 50 * 4


def test_on_a_projector_the_legend_names_each_mark_once_in_a_word(page):
    # the full names took three rows under a projector's plot: there each line is a word
    # (the equations are the lesson's) and the test points of both classes one entry
    def legend(at):
        data = stepper_run(at, f"{PAGE}.avg")[0]["figure"]["data"]
        return ([t.get("name") for t in data if t.get("showlegend", True)],
                [t.get("legendgroup") for t in data  # the test points' open markers
                 if str(t.get("marker", {}).get("symbol", "")).endswith("-open")])

    at = click(page, f"{PAGE}.load.Noisy blobs")
    full, _ = legend(at)
    assert "averaged: μ·x + μ_b = 0" in full and "class -1, test" in full
    by_key(at.toggle, "view.lecture").set_value(True)
    shown, tests = legend(run(at))
    assert shown == ["class -1", "class +1", "test", "voted", "averaged", "last"]
    assert tests == ["test"] * 3  # both classes' test points and their one entry
    shown, tests = legend(set_value(at, "slider", f"{PAGE}.test_share", 0.0))
    assert shown == ["class -1", "class +1", "voted", "averaged", "last"] and tests == []


def test_split_controls_and_steps(page):
    at = click(page, f"{PAGE}.load.Noisy blobs")
    at = to_end(set_value(at, "slider", f"{PAGE}.test_share", 0.5), "avg")
    assert at.dataframe[0].value.loc["last", "test errors"].endswith("%)")
    assert "/ 100 (" in at.dataframe[0].value.loc["last", "test errors"]
    before = at.dataframe[0].value.copy()
    at = set_value(at, "number_input", f"{PAGE}.split_seed", 7)
    train, _ = train_test_split(200, 0.5, 7)
    data = noisy(200, 0.7, 0)
    trace = record(perceptron(data.X[train], data.y[train], max_epochs=50, seed=0))
    assert position(at) == 0 and stepper_run(at, f"{PAGE}.avg")[0]["steps"] == trace.steps
    assert not to_end(at, "avg").dataframe[0].value.equals(before)
    key = f"{PAGE}.avg"
    at = sync(at, key, 0)
    assert position(at) == 0 and "no vector has a vote" in at.info[0].value
    assert list(at.dataframe[0].value.index) == ["last"]
    at = sync(at, key, 1)
    assert position(at) == 1 and metrics(at)["Mistakes so far"] == "1"
    assert at.query_params["step"] == "1"
    at = sync(at, key, 10)
    assert position(at) == 10
    assert metrics(at)["Weight vectors K"] == str(len(Voted.from_trace(trace, 10).counts))
    assert not [b for b in at.button if b.key and b.key.startswith(f"{key}.")]  # no server stepping
    at = sync(at, key, 10**6)  # out of range: ignored
    assert position(at) == 10


# ---------------------------------------------------------------- kernel perceptron


@pytest.fixture
def kernel_page(page):
    return set_value(page, "segmented_control", f"{PAGE}.part", "kernel")


def test_xor_with_a_degree_2_polynomial_converges_and_linear_does_not(kernel_page):
    at = to_end(click(kernel_page, f"{PAGE}.load.XOR (±1)"), "dual")
    assert metrics(at)["Training errors"] == "0"
    assert "Converged" in at.success[0].value
    assert r"\text{bias } b\text{: use } K(" in latex(at) and r"+ 1\right)^{2}" in latex(at)
    at = to_end(set_value(at, "selectbox", f"{PAGE}.kernel", "linear"), "dual")
    assert "still misclassified" in at.warning[0].value
    assert r"\mathbf{w} = \sum_j \alpha_j\, y_j\, \mathbf{x}_j" in latex(at)
    at = to_end(set_value(at, "selectbox", f"{PAGE}.kernel", "rbf"), "dual")
    assert metrics(at)["Training errors"] == "0"
    at = set_value(at, "slider", f"{PAGE}.width", 1.5)
    assert r"2 \cdot 1.5^2" in latex(at)


def test_circles_regions_alpha_and_the_dual_sum_step_by_step(kernel_page):
    at = click(kernel_page, f"{PAGE}.load.Circles")
    data = circles(200, 0.08, 0)
    kernel = Kernel("polynomial", degree=2, offset=1.0)
    steps = list(kernel_perceptron(data.X, data.y, kernel=kernel, max_epochs=50, seed=0))
    at = to_end(at, "dual")
    assert position(at) == len(steps)
    alpha = steps[-1].w
    assert metrics(at)["Examples with α > 0"] == str(int(np.sum(alpha > 0)))
    key = f"{PAGE}.dual"
    header, columns = stepper_run(at, key)
    # the browser paints sign s(x) from the updates: eta y_i K(x_i, .) per mistake
    assert header["kernel"] == {"name": "polynomial", "degree": 2, "offset": 1.0, "width": 1.0,
                                "describe": "polynomial (degree 2, offset 1)"}
    # which kernel is said beside the steps (kernel.js), not in a title's row over the plot
    assert not header["figure"]["layout"].get("title", {}).get("text")
    assert header["eta"] == 1.0 and header["bias"] is True and header["steps"] == len(steps)
    assert "kernel" in header["layers"] and "W" not in columns  # no dense weights per step
    np.testing.assert_array_equal(columns["X"], data.X)
    np.testing.assert_array_equal(columns["updated"][1:], [s.updated for s in steps])
    np.testing.assert_array_equal(columns["index"][1:], [s.index for s in steps])
    assert "epoch" not in header["columns"]  # the steps where it changes travel, not a column
    np.testing.assert_array_equal(columns["epoch"][1:], [s.epoch for s in steps])
    np.testing.assert_array_equal(columns["mistakes"][1:], np.cumsum([s.updated for s in steps]))
    # replaying the columns' updates as the browser does gives core's alpha
    replay = np.zeros(len(data.y))
    for t in np.flatnonzero(columns["updated"]):
        replay[columns["index"][t]] += header["eta"]
    np.testing.assert_allclose(replay, alpha)
    assert not charts(at)  # no per-step Plotly figure from the server
    at = sync(at, key, 0)
    assert "Before the first step" in at.markdown[-1].value or any(
        "Before the first step" in m.value for m in at.markdown)
    at = sync(at, key, 1)
    assert r"0\quad(\text{every } \alpha_j = 0)" in latex(at)
    # example 1 (row 0), as the notes count
    assert r"\alpha_{1} \leftarrow \alpha_{1} + \eta = 0 + 1 = 1" in latex(at)
    k = int(np.flatnonzero(columns["updated"][2:])[0]) + 2  # the next mistake
    at = sync(at, key, k)
    step = steps[k - 1]
    model = KernelModel(data.X, data.y, steps[k - 2].w, kernel)
    assert step.activation == pytest.approx(model.decision(data.X[step.index])[0])
    assert f"s_{{{step.index + 1}}}" in latex(at) and "mistake" in latex(at)
    assert at.query_params["step"] == str(k)
    at = set_value(at, "slider", f"{PAGE}.degree", 3)
    at = set_value(at, "number_input", f"{PAGE}.offset", 2.0)
    assert r"+ 2\right)^{3}" in latex(at)
    header, _ = stepper_run(at, key)
    assert header["kernel"]["degree"] == 3 and header["kernel"]["offset"] == 2.0
    last = header["steps"]
    assert position(at) == 0  # a new run opens at its start
    at = sync(at, key, last // 2)
    assert position(at) == last // 2 and "Step " in " ".join(m.value for m in at.markdown)


def test_the_other_examples_and_a_random_init(kernel_page):
    at = kernel_page
    for name in ("XOR blobs", "Moons"):
        at = to_end(click(at, f"{PAGE}.load.{name}"), "dual")
        assert metrics(at)["Training errors"] == "0", name
    at = set_value(at, "radio", "train.init", "random")
    assert any("starts from α = 0" in c.value for c in at.caption)


def test_a_kernel_that_overflows_shows_a_message():
    at = open_app(PAGE)
    at = upload(at, "huge.csv", b"x1,x2,label\n1e60,1,a\n-1e60,2,b\n3,1e60,a\n")
    at = set_value(at, "segmented_control", f"{PAGE}.part", "kernel")
    at = set_value(at, "slider", f"{PAGE}.degree", 6)
    assert any("overflows" in e.value for e in at.error)


# ---------------------------------------------------------------- more than two classes


def test_one_vs_rest_on_iris_every_control(page):
    at = set_value(page, "segmented_control", f"{PAGE}.part", "classes")
    X, labels, names = iris_three()
    model = one_vs_rest(X, labels, names=names, max_epochs=50, seed=0)
    shown = metrics(at)
    assert shown["Training errors (argmax)"].startswith(
        f"{int(np.sum(model.predict(X) != labels))} / 150")
    assert shown["Points claimed by 2 or more"] == str(int(np.sum(model.claims(X) >= 2)))
    assert shown["Points claimed by none"] == str(int(np.sum(model.claims(X) == 0)))
    names_in_figure = trace_names(at)
    assert "disputed: 2 or more classes claim it" in names_in_figure
    assert "unclaimed: no class claims it" in names_in_figure
    assert all(name in names_in_figure for name in names)
    score = model.scores([[4.9, 1.6]])[0]
    text = latex(at)
    assert rf"c^* = \arg\max_c\, y_c(\mathbf{{x}}) = \text{{{names[np.argmax(score)]}}}" in text

    at = set_value(at, "number_input", f"{PAGE}.probe1", 1.5)
    at = set_value(at, "number_input", f"{PAGE}.probe2", 0.3)
    assert r"= \text{setosa}" in latex(at)
    claims = int(model.claims([[1.5, 0.3]])[0])
    assert any(("Exactly one" if claims == 1 else "claim") in c.value for c in at.caption)

    at = set_value(at, "selectbox", f"{PAGE}.scale_class", 2)
    at = set_value(at, "slider", f"{PAGE}.scale", 4.0)
    scaled = model.scaled(2, 4.0)
    assert metrics(at)["Training errors (argmax)"].startswith(
        f"{int(np.sum(scaled.predict(X) != labels))} / 150")
    assert metrics(at)["Points claimed by none"] == shown["Points claimed by none"]

    at = set_value(at, "radio", f"{PAGE}.weights", "averaged")
    averaged = one_vs_rest(X, labels, names=names, weights="averaged", max_epochs=50,
                           seed=0).scaled(2, 4.0)
    assert metrics(at)["Points claimed by none"] == str(int(np.sum(averaged.claims(X) == 0)))
    table = at.dataframe[0].value
    assert table["mistakes"].tolist() == averaged.mistakes.tolist()


def test_a_class_nothing_is_predicted_as_is_named_with_its_perceptrons(page):
    at = set_value(page, "segmented_control", f"{PAGE}.part", "classes")
    X, labels, names = iris_three()
    rest = one_vs_rest(X, labels, names=names, max_epochs=50, seed=0)
    pairs = one_vs_one(X, labels, names=names, max_epochs=50, seed=0)
    # the reference: predicted classes counted directly, and each binary task's own errors
    never = [c for c in range(3) if not np.any(rest.predict(X) == c)
             and not np.any(pairs.predict(X) == c)]
    assert [names[c] for c in never] == ["versicolor"]  # the middle species, at the defaults
    notes = [i.value for i in at.info if "training point" in i.value]
    assert len(notes) == 1
    assert notes[0].startswith("Neither the argmax nor the vote predicts versicolor")
    for (i, j), wrong in zip(pairs.pairs, pairs.errors, strict=True):
        if 1 in (i, j):
            assert (f"{names[i]} vs {names[j]}" in notes[0]) == (wrong > 0)
    assert ("versicolor vs rest" in notes[0]) == (rest.errors[1] > 0)

    at = set_value(at, "radio", f"{PAGE}.weights", "averaged")
    averaged = one_vs_rest(X, labels, names=names, weights="averaged", max_epochs=50, seed=0)
    assert np.all(np.isin(range(3), averaged.predict(X)))
    assert not [i for i in at.info if "predicts" in i.value and "any training point" in i.value]


# ---------------------------------------------------------------- links


def test_a_link_opens_the_same_part_settings_and_step():
    from streamlit.testing.v1 import AppTest

    from tests.apptest import ROOT, switch

    # the page itself, as a browser opening /variants?... runs it first
    at = switch(AppTest.from_file(str(ROOT / "app.py"), default_timeout=60), PAGE)
    at.query_params.update({"part": "kernel", "kernel": "rbf", "width": "1.2", "degree": "99",
                            "data": "xor-1", "t": "3"})
    run(at)
    assert by_key(at.selectbox, "data.choice").value == "XOR (±1)"
    assert by_key(at.segmented_control, f"{PAGE}.part").value == "kernel"
    assert by_key(at.selectbox, f"{PAGE}.kernel").value == "rbf"
    assert by_key(at.slider, f"{PAGE}.width").value == pytest.approx(1.2)
    assert position(at) == 3
    assert r"2 \cdot 1.2^2" in latex(at)
    assert at.session_state[f"{PAGE}.degree"] == 2  # degree=99 is out of range: ignored


def test_the_url_follows_the_controls(page):
    at = set_value(page, "segmented_control", f"{PAGE}.part", "classes")
    at = set_value(at, "slider", f"{PAGE}.scale", 2.5)
    assert at.query_params["part"] == "classes"
    assert at.query_params["factor"] == "2.5"
    at = set_value(at, "segmented_control", f"{PAGE}.part", "averaged")
    assert "part" not in at.query_params  # the default is left out
