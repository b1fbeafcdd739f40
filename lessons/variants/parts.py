"""The Variants lesson's own pieces: URL fields, cached runs, and its three parts."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from core.decimals import Misclassified, running_sums
from core.kernel import KERNELS, Kernel, KernelModel, kernel_perceptron
from core.multiclass import WEIGHTS, one_vs_one, one_vs_rest
from core.perceptron import perceptron
from core.runs import is_exact
from core.trace import STEP_LIMIT, outcome, record
from core.variants import (
    Voted,
    errors,
    running_average,
    train_test_split,
)
from core.words import FLOAT_DATA, FLOAT_RBF, plural
from datasets import Dataset
from datasets.builtin import iris_three
from lessons.variants import figures as draw
from ui.budget import counted, progress
from ui.floats import float_marker, marked
from ui.lecture import lecture_mode
from ui.lesson import Lesson, Parts, cannot_go_on
from ui.outside import md
from ui.settings import DATA_CHOICE_KEY, DATA_N, DATA_SHAPES, Setting
from ui.state import set_by_button
from ui.stepper import (
    Run,
    epoch_columns,
    figure_json,
    legend_only,
    perceptron_run,
    run_header,
    run_id,
)
from viz.maths import labelled, share
from viz.palette import AVERAGED, BOUNDARY, CLASS_NEG, CLASS_POS, CLEAR, VISITED, VOTED
from viz.plane import view_box

PAGE = "variants"
KERNEL_LABELS = {"linear": "Linear", "polynomial": "Polynomial", "rbf": "RBF (Gaussian)"}
GRID = 120  # grid points per side of the decision regions
IRIS_CLASSES = 3  # the species of iris_three()

TEST_SHARE = Setting(f"{PAGE}.test_share", "test", "float", 0.3, "Test share", widget="slider",
                     low=0.0, high=0.5, step=0.05,
                     help="The share of the points held out of training")
SPLIT_SEED = Setting(f"{PAGE}.split_seed", "split", "int", 0, "Split seed", low=0, high=10**6)
KERNEL = Setting(f"{PAGE}.kernel", "kernel", "choice", "polynomial", "Kernel", widget="select",
                 options=tuple(KERNELS), labels=KERNEL_LABELS)
DEGREE = Setting(f"{PAGE}.degree", "degree", "int", 2, "Degree", widget="slider", low=1, high=6)
OFFSET = Setting(f"{PAGE}.offset", "offset", "float", 1.0, "Offset c", low=0.0, high=10.0,
                 step=0.5)
WIDTH = Setting(f"{PAGE}.width", "width", "float", 0.5, "Width σ", widget="slider", low=0.05,
                high=3.0, step=0.05)
MULTI_WEIGHTS = Setting(f"{PAGE}.weights", "weights", "choice", "last", "Weights",
                        widget="radio", options=tuple(WEIGHTS),
                        labels={"last": "Last", "averaged": "Averaged"})
PROBE1 = Setting(f"{PAGE}.probe1", "p1", "float", 4.9, "Probe: petal length", low=0.0,
                 high=8.0, step=0.1)
PROBE2 = Setting(f"{PAGE}.probe2", "p2", "float", 1.6, "Probe: petal width", low=-1.0,
                 high=4.0, step=0.1)
SCALE_CLASS = Setting(f"{PAGE}.scale_class", "scaled", "int", 0, "Scale the score of",
                      widget="select", options=tuple(range(IRIS_CLASSES)))
SCALE = Setting(f"{PAGE}.scale", "factor", "float", 1.0, "by the factor", widget="slider",
                low=0.1, high=5.0, step=0.1)
SETTINGS = (TEST_SHARE, SPLIT_SEED, KERNEL, DEGREE, OFFSET, WIDTH, MULTI_WEIGHTS, PROBE1,
            PROBE2, SCALE_CLASS, SCALE)

# One click loads data the part is about (and a kernel that suits it).
NOISE = DATA_SHAPES["noise"].key
EXAMPLES = {
    "Noisy blobs": {DATA_CHOICE_KEY: "Noisy blobs (generator)", DATA_N.key: 200,
                    DATA_SHAPES["spread"].key: 0.7},
    "XOR (±1)": {DATA_CHOICE_KEY: "XOR (±1)", KERNEL.key: "polynomial", DEGREE.key: 2,
                 OFFSET.key: 1.0},
    "XOR blobs": {DATA_CHOICE_KEY: "XOR blobs (generator)", DATA_N.key: 200, NOISE: 0.3,
                  KERNEL.key: "rbf", WIDTH.key: 0.5},
    "Circles": {DATA_CHOICE_KEY: "Circles (generator)", DATA_N.key: 200, NOISE: 0.08,
                KERNEL.key: "polynomial", DEGREE.key: 2, OFFSET.key: 1.0},
    "Moons": {DATA_CHOICE_KEY: "Moons (generator)", DATA_N.key: 200, NOISE: 0.1,
              KERNEL.key: "rbf", WIDTH.key: 0.4},
}


def example_buttons(names) -> None:
    """A row of buttons that load an example's data and settings."""
    cols = _columns(max(len(names), 4))
    for col, name in zip(cols, names, strict=False):
        col.button(f"Load {name}", key=f"{PAGE}.load.{name}", width="stretch",
                   on_click=set_by_button, args=(EXAMPLES[name],))


@st.cache_data(max_entries=32, show_spinner=False)
def kernel_trace(X, y, kernel: dict, run: dict):
    """Record a kernel perceptron run, every visit, up to STEP_LIMIT steps."""
    with progress("Training the kernel perceptron…") as report:
        steps = kernel_perceptron(X, y, kernel=Kernel(**kernel), **run)
        return record(counted(steps, STEP_LIMIT, report), limit=STEP_LIMIT)


@st.cache_data(max_entries=32, show_spinner=False)
def all_epochs_trace(X, y, settings: dict):
    """Record a run as Algorithm 2 loops: it keeps visiting to max epochs."""
    return record(perceptron(X, y, **settings, until="max_epochs"), limit=STEP_LIMIT)


@st.cache_data(max_entries=16, show_spinner=False)
def iris_one_vs_rest(weights: str, run: dict):
    """The three one-vs-rest perceptrons on Iris (petal length and width)."""
    X, labels, names = iris_three()
    return one_vs_rest(X, labels, names=names, weights=weights, **run)


@st.cache_data(max_entries=16, show_spinner=False)
def iris_one_vs_one(weights: str, run: dict):
    """The three one-vs-one perceptrons on Iris (petal length and width)."""
    X, labels, names = iris_three()
    return one_vs_one(X, labels, names=names, weights=weights, **run)


# The parts, each drawn from the data and the run settings; the reader picks one.
PARTS = Parts(pick=True)


def _intro(lesson: Lesson):
    """Where a part's explanation, examples and settings go: the page, or on a projector a
    closed expander at the foot of the sidebar (the lecturer says it; the run gets the first
    screen, the settings stay one click away)."""
    if lecture_mode():
        return lesson.aside().expander("About this part, its examples and settings")
    return st.container()


def _columns(n: int) -> list:
    """``n`` columns in the page; in the sidebar (a projector's) one under the other."""
    if lecture_mode():
        return [st.container() for _ in range(n)]
    return st.columns(n)


def _averaged_intro(settings: dict) -> None:
    """What the averaged and voted part shows, and how its votes are counted."""
    st.markdown(
        "One run of the perceptron, three ways to predict with it. **Last**: the final "
        "w, b. **Averaged** (the notes' Algorithm 2): μ ← μ + w after every visit, predict "
        "sign(μᵀx). **Voted**: keep every weight vector w_k with c_k, the number of visits "
        "it survived; each votes with weight c_k. Hollow markers are held-out test points.")
    st.caption("Vote counts, where the notes say only 'iterations survived': a vector made by "
               "an update starts with c = 1 (the visit that made it), and each later visit "
               "that leaves it unchanged adds 1; the starting vector starts at 0. So the c_k "
               "add up to t, and Σ c_k w_k is exactly Algorithm 2's μ.")
    all_epochs = settings["order"] != "random_misclassified"
    st.caption(
        f"As in Algorithm 2, the run visits the data for all {settings['max_epochs']} max "
        "epochs: once the perceptron has converged its w no longer changes, but every later "
        "visit still adds it to μ and gives it a vote." if all_epochs else
        "With this order every step picks a misclassified example, so the run stops as soon "
        "as there is none: μ and the votes are taken until convergence, not over Algorithm "
        "2's fixed number of epochs (choose another order for that).")


@PARTS.part("averaged", "Averaged and voted")
def averaged_and_voted(lesson: Lesson, data: Dataset, settings: dict) -> None:
    """Last, averaged and voted boundaries of one run, with training and test errors."""
    picture = st.container()  # the run first, what it is and its settings under it
    with _intro(lesson):
        _averaged_intro(settings)
        example_buttons(["Noisy blobs"])
        left, right = _columns(2)
        test_share = lesson.widget(TEST_SHARE, left)
        split_seed = lesson.widget(SPLIT_SEED, right)
    train, test = train_test_split(len(data), test_share, int(split_seed))
    X, y = data.X[train], data.y[train]
    try:
        trace = all_epochs_trace(X, y, settings)
    except ValueError as error:
        cannot_go_on(f"These settings cannot train: {error}")
    if not trace.complete:
        st.caption(f"Only the first {trace.steps:,} visits are recorded and averaged.")
    W_avg, b_avg = running_average(trace)
    run = averaged_run(data, train, test, trace, settings, W_avg, b_avg)

    def panels(k: int) -> None:
        averaged_panels(data, train, test, trace, W_avg, b_avg, k)

    with picture:
        lesson.stepper(run, part="avg", panels=panels)


def averaged_run(data: Dataset, train, test, trace, settings: dict, W_avg, b_avg) -> Run:
    """The run for the stepper: the last weights' boundary, and the averaged one as a column."""
    X, y = data.X[train], data.y[train]
    box = view_box(data.X)
    lecture = lecture_mode()
    figure = draw.variants_figure(X, y, data.X[test], data.y[test], data.classes, box,
                                  w=trace.W[-1], b=trace.b[-1], w_avg=W_avg[-1],
                                  b_avg=b_avg[-1], xs=None, ys=None, votes=None, compact=lecture)
    figure.data = figure.data[:-2]  # the two boundaries move: the stepper draws them
    for line, color, dash in (("voted", VOTED, "dot"), ("averaged", AVERAGED, "dash"),
                              ("last", BOUNDARY, None)):
        figure.add_trace(legend_only(draw.line_name(line, lecture), color, dash=dash))
    result = outcome(trace, X, y, max_epochs=settings["max_epochs"])
    run = perceptron_run(
        Dataset(data.name, X, y, data.classes, data.columns), trace, settings, result,
        lecture=lecture,
        layers=("boundary", "ghost", "normal", "visited", "averaged", "voted", "explain"),
        figure=figure)
    # the browser averages the weights itself, as core.variants.running_average does
    header = run.header.with_(palette={**run.header.palette, "averaged": AVERAGED,
                                       "voted": VOTED}, averaged=True)
    return marked(Run(run.id, run.steps, header, run.columns), trace)


def averaged_panels(data: Dataset, train, test, trace, W_avg, b_avg, k: int) -> None:
    """What the server shows for step k: errors of the three predictors, μ and the votes."""
    voted = Voted.from_trace(trace, k)
    decide = Misclassified(data.X, data.y)  # exact on short decimals
    wrong = {"last": decide.rows(trace.W[k], trace.b[k])}
    if k:
        # mu itself, summed exactly when it can be: it predicts as mu / k does
        sums = running_sums(np.column_stack([trace.W[1:k + 1], trace.b[1:k + 1]]))
        exact = None if sums is None else decide.rows_scaled(sums[-1])
        wrong["averaged"] = exact if exact is not None else decide.rows(W_avg[k], b_avg[k])
        wrong["voted"] = data.y * voted.decision(data.X) <= 0
    table = pd.DataFrame(
        {"training errors": [share(int(w[train].sum()), len(train)) for w in wrong.values()],
         "test errors": [share(int(w[test].sum()), len(test)) for w in wrong.values()]},
        index=list(wrong))
    if not trace.exact:
        float_marker()
    cols = st.columns(4)
    cols[0].metric("Step t", f"{k} / {trace.steps}")
    cols[1].metric("Mistakes so far", int(trace.mistakes[k]))
    cols[2].metric("Weight vectors K", len(voted.counts))
    cols[3].metric("Votes of the current one", int(voted.counts[-1]))
    st.dataframe(table)
    if not k:
        st.info("Before the first visit μ = 0 and no vector has a vote: step once.")
        return
    left, right = st.columns(2)
    with left:
        st.markdown("**Averaged** (μ after t visits)")
        # μ summed as the notes sum it (correctly rounded, not the mean times t: a rounding
        # there would write "≈" before an exact sum)
        mu_w = np.array([math.fsum(column) for column in trace.W[1:k + 1].T])
        mu_b = math.fsum(trace.b[1:k + 1])
        for line in draw.averaged_lines(k, mu_w, mu_b, W_avg[k], b_avg[k]):
            st.latex(line)
    with right:
        st.markdown("**Voted** (K vectors, c_k votes each)")
        sum_w = np.array([math.fsum(voted.counts * column) for column in np.asarray(voted.W).T])
        for line in draw.voted_lines(len(voted.counts), int(voted.counts[-1]), sum_w,
                                        math.fsum(voted.counts * np.asarray(voted.b)), k):
            st.latex(line)
    st.caption("Each visit adds one vote to the vector in force after it, so the votes "
               "weight the vectors exactly as μ does: the averaged perceptron takes the sign "
               "of the sum, the voted one sums the signs.")


@PARTS.part("kernel", "Kernel perceptron")
def kernel_part(lesson: Lesson, data: Dataset, settings: dict) -> None:
    """The dual form with a chosen kernel, stepped through with its regions redrawn."""
    picture = st.container()  # the run first, what it is and its settings under it
    with _intro(lesson):
        st.markdown(
            "Started from w = 0 (as here), the weights are always a sum of examples, **w** = "
            "Σⱼ αⱼ yⱼ **x**ⱼ (from another start they would carry w₀ too), so the perceptron "
            "can keep one count αⱼ per example instead (αᵢ ← αᵢ + η on a mistake) and compute "
            "sᵢ = Σⱼ αⱼ yⱼ K(**x**ⱼ, **x**ᵢ) with a kernel K in place of the dot product.")
        example_buttons(["XOR (±1)", "XOR blobs", "Circles", "Moons"])
        cols = _columns(3)
        name = lesson.widget(KERNEL, cols[0])
        params = {"name": name}
        if name == "polynomial":
            params["degree"] = lesson.widget(DEGREE, cols[1])
            params["offset"] = lesson.widget(OFFSET, cols[2])
        elif name == "rbf":
            params["width"] = lesson.widget(WIDTH, cols[1])
    run = {key: settings[key] for key in ("eta", "order", "bias", "max_epochs", "seed")}
    try:
        kernel = Kernel(**params)
        trace = kernel_trace(data.X, data.y, params, run)
    except ValueError as error:
        cannot_go_on(f"This kernel cannot train: {error}")
    if settings["init"] != "zeros":
        st.caption("The dual form always starts from α = 0 (w = 0, b = 0): the sidebar's "
                   "initial weights do not apply here.")
    run_ = kernel_run(data, trace, params, run, kernel)
    with picture:
        lesson.stepper(run_, part="dual",
                       panels=lambda k: kernel_panels(data, trace, params, run, kernel, k))


def kernel_run(data: Dataset, trace, params: dict, run: dict, kernel: Kernel) -> Run:
    """The kernel run for the stepper: the browser paints sign s(x) from the updates."""
    box = view_box(data.X)
    xs, ys, _ = draw.grid(box, 2)
    zeros = np.zeros(len(data))
    figure = draw.kernel_figure(data.X, data.y, data.classes, xs, ys, np.zeros(4), zeros)
    figure.data = figure.data[2:]  # the regions and their boundary move: the browser paints them
    figure.add_trace(legend_only("boundary s(x) = 0", BOUNDARY))
    figure.add_trace(go.Scatter(x=[None], y=[None], mode="markers", hoverinfo="skip",
                                name="disc area ∝ αⱼ", marker=dict(size=16, color=CLEAR,
                                                                 line=dict(color=BOUNDARY,
                                                                           width=1.5))))
    # which kernel paints the regions is said beside the steps (kernel.js), not over the plot,
    # where a title's row took the plane's height on a projector
    figure.update_layout(plot_bgcolor=CLEAR, paper_bgcolor=CLEAR, title_text=None, margin_t=10)
    lecture = lecture_mode()
    final = KernelModel(data.X, data.y, trace.w(trace.steps), kernel, run["bias"])
    wrong = errors(data.y, final.decision(data.X))
    tint = [[0, 114, 178, 41], [213, 94, 0, 41]]  # regions' class tints (alpha 0.16)
    header = run_header(
        data, trace.steps, eta=run["eta"], bias=run["bias"], layers=("kernel", "visited"),
        lecture=lecture, figure=figure_json(figure, lecture=lecture),
        palette={"boundary": BOUNDARY, "ghost": BOUNDARY, "visited": VISITED,
                 "update": BOUNDARY, "tint": tint, "classes": [CLASS_NEG, CLASS_POS]},
        result={"converged": bool(trace.complete and wrong == 0), "message": ""},
        kernel={"name": kernel.name, "degree": int(kernel.degree),
                "offset": float(kernel.offset), "width": float(kernel.width),
                "describe": kernel.describe()})
    small = np.int16 if len(data) < 2**15 else np.int32
    columns = {
        "X": np.asarray(data.X, dtype=np.float64), "y": np.asarray(data.y).astype(np.int8),
        "index": trace.index.astype(small), "updated": trace.updated.astype(np.uint8),
        # the browser counts the mistakes from the updates
        "mistakes0": np.asarray(trace.mistakes[:1], dtype=np.int32), **epoch_columns(trace),
    }
    ident = run_id(data.X, data.y, {**params, **run, "steps": trace.steps})
    return marked(Run(ident, trace.steps, header, columns), trace,
                  reason=FLOAT_RBF if kernel.name == "rbf" else FLOAT_DATA)


def kernel_panels(data: Dataset, trace, params: dict, run: dict, kernel: Kernel, k: int) -> None:
    """What the server shows for step k: counts, the outcome and the dual sum of the step."""
    name = params["name"]
    alpha = trace.w(k)
    model = KernelModel(data.X, data.y, alpha, kernel, run["bias"])
    wrong = errors(data.y, model.decision(data.X)) if k else len(data)
    if not trace.exact:
        float_marker(FLOAT_RBF if name == "rbf" else FLOAT_DATA)
    cols = st.columns(4)
    cols[0].metric("Step t", f"{k} / {trace.steps}")
    cols[1].metric("Mistakes so far", int(trace.mistakes[k]))
    cols[2].metric("Examples with α > 0", int(np.sum(alpha > 0)))
    cols[3].metric("Training errors", wrong)
    if k == trace.steps and not trace.complete:
        st.warning(f"Recorded the first {plural(trace.steps, 'step')} only; "
                   f"{plural(wrong, 'training example is', 'training examples are')} still "
                   "misclassified there.", icon=":material/warning:")
    elif k == trace.steps:
        if wrong == 0:
            st.success(f"Converged: every training example is on its side after "
                       f"{plural(trace.mistakes[k], 'mistake')} in "
                       f"{plural(trace.epoch[k], 'epoch')}.",
                       icon=":material/check_circle:")
        else:
            st.warning(f"Stopped after {plural(trace.epoch[k], 'epoch')} with "
                       f"{plural(wrong, 'training example')} "
                       f"still misclassified: try another kernel or more epochs.",
                       icon=":material/warning:")
    i = int(trace.index[k]) if k else None
    for line in draw.kernel_formula(**params, bias=run["bias"]):
        st.latex(line)
    if i is None:
        st.markdown("**Before the first step** every αⱼ = 0, so every sᵢ = 0: the first "
                    "visit is a mistake. Press **Step** (→).")
    else:
        before = trace.w(k - 1)
        support = np.flatnonzero(before > 0)
        gram = kernel(data.X[support], data.X[i]).ravel()
        coef = before * data.y
        # examples counted from 1, as the notes count them (i is the row, from 0)
        st.markdown(f"**Step {k}, epoch {trace.epoch[k]}**: example i = {i + 1}, "
                    f"y = {md(labelled(data.y[i], data.classes))}")
        lines = draw.dual_step_lines(
            i=i + 1, y_i=float(data.y[i]), s_i=float(trace.activation[k]),
            terms=list(zip(support, before[support], data.y[support], gram, strict=True)),
            updated=bool(trace.updated[k]), eta=run["eta"], alpha_before=float(before[i]),
            bias_term=float(coef.sum()) if run["bias"] else None, exact=bool(trace.exact))
        for line in lines:
            st.latex(line)
    if name == "linear":
        w, b = model.primal()
        st.latex(draw.primal_weights_line(alpha, data.y, data.X, w,
                                             b if run["bias"] else None))


def _never_predicted(names, predicted: dict, rest, pairs, weights: str) -> None:
    """Name a class that no training point is predicted as, and the perceptrons that let it down
    (``predicted``: each way's predictions of the training points, by its name)."""
    for c, name in enumerate(names):
        by = [kind for kind, classes in predicted.items() if not np.any(classes == c)]
        if not by:
            continue
        failing = [f"{name} vs rest"] * int(rest.errors[c] > 0) + [
            f"{names[i]} vs {names[j]}" for (i, j), e in zip(pairs.pairs, pairs.errors,
                                                             strict=True)
            if c in (i, j) and e > 0]
        why = ""
        if failing and weights == "last":
            one = len(failing) == 1
            why = (f" The perceptron{'' if one else 's'} {' and '.join(failing)} still "
                   f"misclassif{'ies' if one else 'y'} some of {'its' if one else 'their'} "
                   "own training points: the last "
                   "weights of a run that has not converged are wherever its last update left "
                   "them. The averaged weights give another answer.")
        who = ("Neither the argmax nor the vote predicts" if len(by) == 2
               else f"The {by[0]} never predicts")
        st.info(f"{who} {name} for any training point.{why}", icon=":material/help:")


@PARTS.part("classes", "More than two classes")
def more_classes(lesson: Lesson, data: Dataset, settings: dict) -> None:
    """One-vs-rest beside one-vs-one on the three Iris species: who gets which part of the plane
    (whatever the data in the sidebar)."""
    X, labels, names = iris_three()
    picture = st.container()  # the two charts first, what they are and their settings under
    with _intro(lesson):
        st.markdown(
            "Three species, two ways to build a classifier from binary perceptrons. "
            "**One-vs-rest**: three perceptrons, class c against the rest, with score "
            "y_c(x) = w_[c]ᵀx + b_c; predict c* = argmax_c y_c(x). Each perceptron only says "
            "*mine* (y_c(x) > 0) or *not mine*: where several say *mine* (marked ×) or none "
            "does (marked ○), the argmax compares scores whose scales mean nothing to each "
            "other. Scale one class's score to see the argmax move while its own boundary stays. "
            "**One-vs-one**: K(K − 1)/2 = 3 perceptrons, one per pair of species, each trained on "
            "those two species alone; each pair votes (i when y_ij(x) ≥ 0, else j) and the most "
            "votes win. A tie (one vote each) goes to the larger summed score, scikit-learn's "
            "rule. This part always uses Iris (petal length and width, in cm).")
        cols = _columns(4)
        weights = lesson.widget(MULTI_WEIGHTS, cols[0])
        c = lesson.widget(SCALE_CLASS, cols[1], format_func=names.__getitem__)
        factor = lesson.widget(SCALE, cols[1])
        x1 = lesson.widget(PROBE1, cols[2])
        x2 = lesson.widget(PROBE2, cols[3])
    try:
        model = iris_one_vs_rest(weights, settings).scaled(c, factor)
        pairs = iris_one_vs_one(weights, settings)
    except ValueError as error:
        cannot_go_on(f"These settings cannot train: {error}")
    if not is_exact(perceptron(X, np.where(labels == 0, 1, -1), **settings)):
        float_marker()  # every binary run sees the same numbers: one says for all
    if weights == "averaged":
        st.caption(
            "Averaged: each perceptron's μ / T, Algorithm 2's, over all "
            f"{plural(settings['max_epochs'], 'epoch')} of its run ({settings['max_epochs']} × "
            "its points visits), converged or not, as in the binary Averaged part."
            if settings["order"] != "random_misclassified" else
            "Averaged: each perceptron's μ / T over the steps of its run; with this order every "
            "step picks a misclassified example, so a run stops when there is none (choose "
            "another order for Algorithm 2's fixed number of epochs).")
    # the petals are wider than tall: on a projector each chart is as wide as its half of the
    # screen, and a square box would leave most of its height empty; the chart as tall as its
    # plot and legend then need, on the first screen (the probe always in view)
    lecture = lecture_mode()
    box = view_box(np.vstack([X, [[x1, x2]]]), aspect=1.5 if lecture else 1)
    size = dict(height=505) if lecture else {}
    xs, ys, points = draw.grid(box, 150)
    claims = model.claims(X)
    axes = ("petal length (cm)", "petal width (cm)")
    with picture:
        rest, one = st.columns(2)
        with rest:
            st.markdown("**One-vs-rest** (argmax of 3 scores)")
            lesson.chart(
                draw.multiclass_figure(X, labels, names, xs, ys, model.scores(points), model.W,
                                       model.b, probe=(x1, x2), axis_titles=axes, **size),
                key="multi_plot",
                alt="Iris one-vs-rest regions by winning score, disputed and unclaimed areas "
                    "marked")
            st.dataframe(pd.DataFrame({
                "mistakes": model.mistakes,
                "errors of y_c alone": [share(int(e), len(X)) for e in model.errors]},
                index=[f"{n} vs rest" for n in names]))
        with one:
            st.markdown("**One-vs-one** (majority vote of 3 pairs)")
            ovo = draw.one_vs_one_figure(X, labels, names, xs, ys, pairs.predict(points),
                                         pairs.tied(points), pairs.pairs, pairs.W, pairs.b,
                                         probe=(x1, x2), axis_titles=axes, **size)
            if lecture:  # side by side, the species and the probe are named once, on the left
                ovo.for_each_trace(lambda trace: trace.update(showlegend=False),
                                   selector=lambda trace: trace.name in (*names, "probe x"))
            lesson.chart(
                ovo,
                key="ovo_plot",
                alt="Iris one-vs-one regions by majority vote of the three pairs, ties marked")
            st.caption(f"Training points where the vote ties: {int(np.sum(pairs.tied(X)))}.")
            sizes = [int(np.sum((labels == i) | (labels == j))) for i, j in pairs.pairs]
            st.dataframe(pd.DataFrame({
                "mistakes": pairs.mistakes,
                "errors on its 2 classes": [share(int(e), n)
                                              for e, n in zip(pairs.errors, sizes, strict=True)]},
                index=[f"{names[i]} vs {names[j]}" for i, j in pairs.pairs]))
            votes = pairs.votes([[x1, x2]])[0]
            winner = int(pairs.predict([[x1, x2]])[0])
            st.caption("Votes at the probe: " + ", ".join(
                f"{name} {int(v)}" for name, v in zip(names, votes, strict=True))
                + f". The vote picks {names[winner]}"
                + (", by the scores: a tie." if pairs.tied([[x1, x2]])[0] else "."))
    cols = st.columns(4)
    predicted = {"argmax": model.predict(X), "vote": pairs.predict(X)}
    for col, (kind, classes) in zip(cols[:2], predicted.items(), strict=True):
        col.metric(f"Training errors ({kind})", f"{int(np.sum(classes != labels))} / {len(X)}")
    cols[2].metric("Points claimed by 2 or more", int(np.sum(claims >= 2)))
    cols[3].metric("Points claimed by none", int(np.sum(claims == 0)))
    _never_predicted(names, predicted, model, pairs, weights)
    st.markdown("**One-vs-rest at the probe**")
    for line in draw.ovr_lines(names, model.W, model.b, (x1, x2), model.scores([[x1, x2]])[0]):
        st.latex(line)
    claimed = int(model.claims([[x1, x2]])[0])
    st.caption({0: "No class claims the probe: the argmax picks the least negative score.",
                1: "Exactly one class claims the probe."}.get(
        claimed, f"{claimed} classes claim the probe: the argmax picks the larger score."))
