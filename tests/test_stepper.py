"""The stepper's bytes: what the server packs is exactly what the browser reads."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from core.descent import svm_sgd
from core.exact_runs import exact_perceptron
from core.perceptron import perceptron
from core.trace import outcome, record
from datasets.builtin import BUILTIN, noisy, separable
from tests.reference.wire import unpack
from ui.stepper import accept_position, pack, perceptron_run, with_companion

DTYPES = [np.float64, np.float32, np.int32, np.int8, np.uint8]
# header keys that make unpack add columns
REBUILT = {"held", "averaged", "t0", "descent", "scale"}
column = st.sampled_from(DTYPES).flatmap(lambda dtype: hnp.arrays(
    dtype, st.one_of(st.integers(0, 40).map(lambda n: (n,)),
                     st.tuples(st.integers(0, 20), st.integers(2, 3)))))


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.text("abcXYZ_", min_size=1, max_size=8), column, max_size=6),
       st.dictionaries(st.text(max_size=8).filter(lambda key: key not in REBUILT),
                       st.integers() | st.text(max_size=20), max_size=4))
def test_pack_round_trips_every_column_bit_for_bit(columns, header):
    blob = pack(header, columns)
    back_header, back = unpack(blob)
    assert {k: back_header[k] for k in header} == header
    assert set(back) == set(columns)
    for name, values in columns.items():
        assert back[name].dtype == values.dtype
        assert back[name].tobytes() == np.ascontiguousarray(values).tobytes()
        # typed arrays in the browser need offsets that are multiples of their item size
        assert back_header["columns"][name][1] % 8 == 0


def test_the_digest_changes_with_any_byte_and_only_then():
    columns = {"W": np.arange(6.0).reshape(3, 2), "k": np.arange(3, dtype=np.int32)}
    base = unpack(pack({"start": 0}, columns))[0]["digest"]
    assert unpack(pack({"start": 0}, columns))[0]["digest"] == base
    changed = {**columns, "W": columns["W"].copy()}
    changed["W"][2, 1] = np.nextafter(5.0, 6.0)
    assert unpack(pack({"start": 0}, changed))[0]["digest"] != base
    assert unpack(pack({"start": 1}, columns))[0]["digest"] != base


def test_an_unpackable_dtype_is_refused_by_name():
    with pytest.raises(ValueError, match="column 'z': dtype int64 is not packable"):
        pack({}, {"z": np.arange(3, dtype=np.int64)})


def test_a_run_of_1000_points_and_2000_steps_fits_the_page_budget():
    data = separable(1000, 0.01, 3)
    trace = record(perceptron(data.X, data.y, max_epochs=2), limit=2000)
    settings = dict(eta=1.0, bias=True, order="cyclic", init="zeros", seed=0, max_epochs=2)
    run = perceptron_run(data, trace, settings, outcome(trace, data.X, data.y, max_epochs=2))
    blob = pack(run.header, run.columns)
    assert trace.steps == 2000
    assert len(blob) <= 150_000, len(blob)
    header, columns = unpack(blob)
    np.testing.assert_array_equal(columns["W"], trace.W)  # float64: every shown number exact
    assert len(json.dumps(header["figure"])) < 10_000  # the points travel as columns only


@pytest.mark.parametrize(("value", "expected"), [
    ({"run": "a", "k": 0}, 0), ({"run": "a", "k": 10}, 10), ({"run": "b", "k": 3}, None),
    ({"run": "a", "k": 11}, None), ({"run": "a", "k": -1}, None), ({"run": "a", "k": 1.0}, None),
    ({"run": "a", "k": True}, None), ({"run": "a"}, None), (None, None), ([1, 2], None),
])
def test_accept_position_takes_only_this_runs_steps(value, expected):
    assert accept_position(value, run="a", steps=10) == expected


def test_a_window_of_a_run_is_shown_with_the_runs_own_t():
    """A window from epoch 3 on (as one period of a cycle): its steps are t = 2N + 1, ..."""
    data = BUILTIN["XOR (±1)"]()  # never separable: the run goes on to epoch 4
    settings = dict(eta=1.0, bias=True, order="cyclic", init="zeros", seed=0, max_epochs=4)
    window = record(exact_perceptron(data.X, data.y, max_epochs=4, every="visit", from_epoch=3))
    header = perceptron_run(data, window, settings, outcome(window, data.X, data.y,
                                                            max_epochs=4)).header
    assert window.t[1] == 2 * 4 + 1 and header["t0"] == 2 * 4
    whole = record(perceptron(data.X, data.y, max_epochs=4))
    assert "t0" not in perceptron_run(data, whole, settings,
                                      outcome(whole, data.X, data.y, max_epochs=4)).header


@pytest.mark.parametrize("order", ["cyclic", "random", "random_misclassified"])
def test_weights_and_epochs_left_out_come_back_bit_for_bit(order):
    data = noisy(60, 0.8, 2)
    settings = dict(eta=0.1, bias=True, order=order, init="zeros", seed=3, max_epochs=5)
    trace = record(perceptron(data.X, data.y, **settings))
    run = perceptron_run(data, trace, settings, outcome(trace, data.X, data.y, max_epochs=5))
    header, columns = unpack(pack(run.header, run.columns))
    assert header["held"] == ["W", "b"] and len(run.columns["W"]) == trace.mistakes[-1] + 1
    assert columns["W"].tobytes() == np.asarray(trace.W, dtype=np.float64).tobytes()
    assert columns["b"].tobytes() == np.asarray(trace.b, dtype=np.float64).tobytes()
    np.testing.assert_array_equal(columns["epoch"], trace.epoch)
    assert same_bits(columns["activation"], trace.activation)


def same_bits(page, server) -> bool:
    """Bit for bit (a -0.0 is not 0.0); NaN, where nothing is visited, as NaN."""
    page, server = np.asarray(page, dtype=np.float64), np.asarray(server, dtype=np.float64)
    return page.shape == server.shape and bool(
        ((page.view(np.int64) == server.view(np.int64)) | (np.isnan(page) & np.isnan(server)))
        .all())


SVM_RUNS = [  # (data, lam, eta0, order, bias, epochs)
    (separable(200, 0.2, 0), 0.01, 1.0, "cyclic", True, 100),
    (BUILTIN["Lecture notes' example: 4 points"](), 0.01, 1.0, "cyclic", True, 200),
    (noisy(80, 0.8, 1), 0.1, 0.5, "shuffle_each_epoch", True, 20),
    (noisy(80, 0.8, 1), 1e-4, 3.0, "random", False, 20),
    (BUILTIN["Iris: setosa vs versicolor (sepal)"](), 0.003, 0.1, "random_misclassified", True, 10),
]


@pytest.mark.parametrize(("data", "lam", "eta0", "order", "bias", "epochs"), SVM_RUNS)
def test_the_svms_weights_are_rebuilt_from_their_start_bit_for_bit(data, lam, eta0, order,
                                                                    bias, epochs):
    """The descent shrinks w on every step: only row 0 travels, the rest is rebuilt step by
    step (tests/reference/wire.py's descend, as the page does); a step visits padded rows too."""
    settings = dict(lam=lam, eta=eta0, order=order, bias=bias, seed=5, max_epochs=epochs)
    trace = record(svm_sgd(data.X, data.y, **settings))
    trace = trace.padded(trace.steps + 7)  # as beside a longer perceptron run
    run = perceptron_run(data, trace, settings, outcome(trace, data.X, data.y,
                                                        max_epochs=epochs),
                         descent={"lam": lam, "eta0": eta0})
    assert run.header["descent"] and len(run.columns["W"]) == 1
    assert "activation" not in run.columns and "epoch" not in run.columns
    columns = unpack(pack(run.header, run.columns))[1]
    assert same_bits(columns["W"], trace.W) and same_bits(columns["b"], trace.b)
    # a run in floats (its a shown ≈, to 4 places): the page sums w.x + b in its own order,
    # the run's own a at most a rounding away
    np.testing.assert_allclose(columns["activation"], trace.activation, rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(columns["epoch"], trace.epoch)


def test_a_companion_travels_with_its_run_under_its_own_names():
    """with_companion: one stepper for two runs of the same points and length, the other's
    header and per-step columns beside the run's, which are left as they were."""
    data = separable(30, 0.3, 2)
    settings = dict(lam=0.01, eta=1.0, order="cyclic", bias=True, seed=1, max_epochs=4)
    svm = record(svm_sgd(data.X, data.y, **settings))
    perc = record(perceptron(data.X, data.y, order="cyclic", eta=1.0, bias=True,
                             init="zeros", seed=1, max_epochs=4)).padded(svm.steps)
    leader = perceptron_run(data, perc, settings, outcome(perc, data.X, data.y, max_epochs=4))
    follower = perceptron_run(data, svm, settings, outcome(svm, data.X, data.y, max_epochs=4),
                              descent={"lam": 0.01, "eta0": 1.0})
    paired = with_companion(leader, follower)
    header, columns = paired.header.wire(), paired.columns
    assert header["layers"][-1] == "companion" and header["figure"] == leader.header["figure"]
    assert header["companion"]["svm"] == {"lam": 0.01, "eta0": 1.0}
    assert "figure" not in header["companion"]  # its plane is the run's
    for name, values in follower.columns.items():
        if name in ("X", "y"):
            assert f"companion.{name}" not in columns  # the points travel once
        else:
            np.testing.assert_array_equal(columns[f"companion.{name}"], values)
    for name, values in leader.columns.items():
        np.testing.assert_array_equal(columns[name], values)
    assert paired.id != leader.id and paired.id != follower.id
    # a run of other points, or of another length, is no companion
    with pytest.raises(ValueError, match="same points as long as the run"):
        with_companion(leader, perceptron_run(data, svm.padded(svm.steps + 3), settings,
                                              outcome(svm, data.X, data.y, max_epochs=4),
                                              descent={"lam": 0.01, "eta0": 1.0}))


def test_weights_that_move_without_an_update_are_sent_whole():
    """A run not declared a descent whose weights move between updates sends every row."""
    data = separable(20, 0.3, 0)
    settings = dict(eta=1.0, bias=True, order="cyclic", seed=0, max_epochs=3, lam=0.1)
    trace = record(svm_sgd(data.X, data.y, **settings))
    for descent in (None,):
        run = perceptron_run(data, trace, settings, outcome(trace, data.X, data.y, max_epochs=3),
                             descent=descent)
        assert "held" not in run.header and "descent" not in run.header
        assert len(run.columns["W"]) == trace.steps + 1
        np.testing.assert_array_equal(unpack(pack(run.header, run.columns))[1]["W"], trace.W)


def test_plotly_is_served_whole_when_many_start_at_once(tmp_path, monkeypatch):
    from concurrent.futures import ThreadPoolExecutor

    from ui import stepper
    from ui.stepper import files  # where serve_file finds the folder
    monkeypatch.setattr(files, "STATIC", tmp_path / "static")
    with ThreadPoolExecutor(8) as pool:
        served = list(pool.map(lambda _: stepper.serve_plotly(), range(16)))
    assert {p.name for p in served} == {"plotly.min.js"}
    assert served[0].read_bytes() == stepper.plotly_js()
    # and the whole bundle beside it, for a 3-D chart: no half-written copy left behind
    assert sorted(p.name for p in (tmp_path / "static").iterdir()) == [
        "plotly-whole.min.js", "plotly.min.js"]
    assert (tmp_path / "static" / "plotly-whole.min.js").read_bytes() == \
        stepper.PLOTLY_WHOLE.read_bytes()


def test_the_pages_plotly_draws_what_plotly_writes_and_a_figure_it_cannot_draw_is_refused():
    import plotly.graph_objects as go
    import plotly.offline

    from ui.stepper import PLOTLY_TRACES, PLOTLY_WHOLE, figure_json, plotly_js

    # the bundle is of the plotly.js major version the installed plotly writes figures for,
    # and of the very version of the whole bundle a 3-D chart is drawn by beside it
    made = re.search(r"plotly\.js \(cartesian - minified\) v(\d+\.\d+\.\d+)",
                     plotly_js()[:300].decode())
    assert made and made.group(1).split(".")[0] == \
        plotly.offline.get_plotlyjs_version().split(".")[0]
    whole = re.search(r"plotly\.js v(\d+\.\d+\.\d+)", PLOTLY_WHOLE.read_text()[:300])
    assert whole and whole.group(1) == made.group(1)
    # every trace type it names is one it registers
    for kind in PLOTLY_TRACES:
        assert f'moduleType:"trace",name:"{kind}"' in plotly_js().decode(), kind
    kinds = {kind: go.Figure(getattr(go, name)()) for kind, name in
             (("scatter", "Scatter"), ("heatmap", "Heatmap"), ("contour", "Contour"),
              ("bar", "Bar"))}
    for kind, fig in kinds.items():
        assert figure_json(fig)["data"][0]["type"] == kind
    with pytest.raises(ValueError, match="cannot draw scatter3d, surface"):
        figure_json(go.Figure([go.Surface(z=[[0, 1]]), go.Scatter3d(), go.Scatter()]))


def test_a_plane_skeleton_is_built_once_for_every_session_that_draws_it():
    # a hall opening one link builds the plane's figure once; another data set, size or mode
    # gets its own (a key that missed the data would show one set's axes for another's)
    from ui.stepper import plane_skeleton, weights_skeleton

    blobs, other = noisy(300, 0.5, 7), separable(30, 0.3, 7)
    first = plane_skeleton(blobs)
    assert plane_skeleton(noisy(300, 0.5, 7)) is first  # equal data, built elsewhere
    assert plane_skeleton(other)["layout"]["xaxis"]["range"] != first["layout"]["xaxis"]["range"]
    assert plane_skeleton(blobs, lecture=True) is not first
    assert plane_skeleton(blobs, height=300)["layout"]["height"] == 300
    small, large = np.array([[0.5, -0.2]]), np.array([[4.0, 1.0]])
    assert weights_skeleton(small) is weights_skeleton(small.copy())
    assert weights_skeleton(large)["layout"]["xaxis"]["range"] != \
        weights_skeleton(small)["layout"]["xaxis"]["range"]
