"""The perceptron-versus-SVM lesson's own pieces: URL fields, sidebar, cached runs and parts."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from core import losses
from core.descent import svm_sgd
from core.evaluation import CONVERGENCE_CAP, LeaveOneOut, margins_over_lambda, split
from core.generalization import generalization, theorem_2_6
from core.geometry import geometric_margin, mistake_bound
from core.max_margin import max_margin
from core.perceptron import ORDERS, Linear, perceptron
from core.runs import is_exact
from core.sklearn_check import perceptron_by_epoch, svc_weights
from core.soft_margin import cost_gap, hard_margin_C, lam_to_C, notes_cost, soft_margin
from core.trace import (
    STEP_LIMIT,
    align,
    descent_outcome,
    epoch_end_errors,
    outcome,
    record,
    training_errors,
)
from core.variants import rule_run
from core.words import FLOAT_DESCENT, listed, plural
from datasets import Dataset
from datasets.builtin import NOTES_INIT
from lessons.svm import figures as draw
from ui.budget import progress
from ui.cached_runs import perceptron_trace
from ui.class_questions import QUICK, choice_ask
from ui.floats import float_marker, marked
from ui.lecture import lecture_mode
from ui.lesson import Lesson, Parts, cannot_go_on
from ui.parts import PART
from ui.settings import Setting, order_label
from ui.stepper import legend_only, perceptron_run, with_companion
from viz import maths
from viz.palette import BOUNDARY, SVM_RUN
from viz.plane import PLANE_HEIGHT_LECTURE

PAGE = "svm"
LAMBDAS = [1.0, 0.3, 0.1, 0.03, 0.01, 0.003, 0.001, 3e-4, 1e-4]
CS = [0.001, 0.003, 0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0, 30.0, 100.0, 300.0, 1000.0]
# the orders whose run changes with the seed (every order but the cyclic), PLA's first
RANDOM_ORDERS = ["random_misclassified",
                 *(order for order in ORDERS if order not in ("cyclic", "random_misclassified"))]
# On a projector a part's chart fills the window's height under the title and the picker of
# parts (1280 x 720), its plane landscape (width over height)
LECTURE_HEIGHT, LECTURE_ASPECT = 575, 1.8
# ... and two runs on one plane, their maths beside it: a little wider than high
PAIR_ASPECT = 1.1
LOO_LIMIT = 150  # training points up to which the leave-one-out count is computed
DRAW_NS = (5, 10, 20, 40)  # N of the Theorem 2.6 experiment
DRAWS = 100  # random draws of N + 1 examples for each N

# What is on screen, mirrored in the URL (the data, the training settings and the step are
# the shared settings of ui.settings). Numbers from a link snap to their slider's grid.
LAM = Setting(f"{PAGE}.lam", "lam", "float", 0.01, "Penalty λ", widget="select_slider",
              options=tuple(LAMBDAS),
              help="The SVM minimises mean hinge + (λ/2)‖w‖²; C = 1/(λN).")
ETA0 = Setting(f"{PAGE}.eta0", "eta0", "float", 1.0, "Step size η₀ (η_t = η₀/√t)", low=0.001,
               high=100.0, step=0.1, snap=1e-9)
EPOCHS = Setting(f"{PAGE}.epochs", "svm_epochs", "int", 200, "SVM epochs", low=1, high=2000)
Z = Setting(f"{PAGE}.z", "z", "float", 0.5, "Margin z = y·(w·x + b) of one example",
            widget="slider", low=-3.0, high=3.0, step=0.05)
LOG_BASE = Setting(f"{PAGE}.log_base", "log", "choice", "2", "Logistic loss drawn with",
                   widget="radio", options=("2", "e"),
                   labels={"2": "log base 2", "e": "log base e"})
# counted from 1, as the notes count training examples (the data's first row is example 1)
EXAMPLE = Setting(f"{PAGE}.example", "example", "int", 1, "Example for ∂L/∂w", low=1,
                  high=5000)
C_SETTING = Setting(f"{PAGE}.C", "C", "float", 1.0,
                    "C (the notes' γ: weight of the slacks; C = 1/(λN))",
                    widget="select_slider", options=tuple(CS))
TEST_FRACTION = Setting(f"{PAGE}.test_fraction", "test", "float", 0.3, "Test fraction",
                        widget="slider", low=0.1, high=0.7, step=0.05)
SPLIT_SEED = Setting(f"{PAGE}.split_seed", "split", "int", 0, "Split seed", low=0, high=10**6)
RUNS = Setting(f"{PAGE}.runs", "runs", "int", 6, "Perceptron runs (seeds 0, 1, …)",
               widget="slider", low=2, high=12)
RUNS_ORDER = Setting(f"{PAGE}.runs_order", "runs_order", "choice", "random_misclassified",
                     "Their order", widget="select", options=tuple(RANDOM_ORDERS),
                     labels={o: order_label(o) for o in RANDOM_ORDERS})
STRICT = Setting(f"{PAGE}.strict", "strict", "bool", False,
                 "Strict rule: a mistake only when y·a < 0", widget="toggle")
SETTINGS = (LAM, ETA0, EPOCHS, Z, STRICT, LOG_BASE, EXAMPLE, C_SETTING,
            TEST_FRACTION, SPLIT_SEED, RUNS, RUNS_ORDER)


@st.cache_data(max_entries=32, show_spinner=False)
def svm_trace(X, y, settings: dict):
    """Record the SVM's subgradient run, every step, up to STEP_LIMIT steps."""
    return record(svm_sgd(X, y, **settings), limit=STEP_LIMIT)


@st.cache_data(max_entries=32, show_spinner=False)
def exact_max_margin(X, y):
    """core.max_margin.max_margin, cached."""
    return max_margin(X, y)


@st.cache_data(max_entries=64, show_spinner=False)
def exact_soft_margin(X, y, C: float):
    """core.soft_margin.soft_margin, cached."""
    return soft_margin(X, y, C=C)


@st.cache_data(max_entries=16, show_spinner=False)
def margin_sweep(X, y, settings: dict):
    """The exact and the subgradient margins over LAMBDAS, cached."""
    return margins_over_lambda(X, y, LAMBDAS, **{k: v for k, v in settings.items() if k != "lam"})


# The generalization part trains every run to convergence, as Theorem 2.6 assumes, unless
# that cannot happen or may cost more than a view's budget (bench/budget.py): on training
# points no line separates, or when the runs' mistake bounds add up past RUNS_UPDATES, each
# run gets the epochs that make RUNS_VISITS visits for all the runs together, and says so.
RUNS_VISITS = 40_000
RUNS_UPDATES = 1_000_000


@st.cache_data(max_entries=16, show_spinner=False)
def split_and_score(X, y, *, test_fraction: float, split_seed: int, runs: int, **kwargs):
    """core.generalization.generalization, cached, with the epochs it capped each run to
    (or None)."""
    train, _ = split(y, test_fraction=test_fraction, seed=split_seed)
    bound = mistake_bound(X[train], y[train])
    cap = None
    if not runs * bound <= RUNS_UPDATES:  # inf: not separable, no run can converge
        cap = max(1, RUNS_VISITS // (runs * len(train)))
    return generalization(X, y, test_fraction=test_fraction, split_seed=split_seed, runs=runs,
                          max_epochs=cap, **kwargs, loo_limit=LOO_LIMIT), cap


@st.cache_data(max_entries=8, show_spinner=False)
def draws_experiment(X, y):
    """Theorem 2.6's two sides estimated over DRAWS random draws for each N in DRAW_NS."""
    results = []
    with progress(f"Training on {DRAWS * len(DRAW_NS)} random draws…") as report:
        for k, n in enumerate(DRAW_NS):
            results.append(theorem_2_6(X, y, n=n, draws=DRAWS, seed=n))
            report((k + 1) / len(DRAW_NS))
    return [r.error for r in results], [r.bound for r in results], \
        sum(r.converged for r in results)


@st.cache_data(max_entries=16, show_spinner=False)
def sklearn_numbers(X, y, bias: bool, epochs: int, lam: float, sgd_w, sgd_b: float):
    """Scikit-learn's Perceptron epoch by epoch and its SVC, beside ours, as tables."""
    rows = draw.epoch_rows(*perceptron_by_epoch(X, y, bias=bias, epochs=epochs))
    C = lam_to_C(lam, n=len(y))
    theirs, mine = svc_weights(X, y, C), np.r_[sgd_w, sgd_b]
    costs = tuple(notes_cost(X, y, v[:-1], v[-1], lam=lam) for v in (theirs, mine))
    tables = [draw.comparison_table(f"SVC(C {maths.equals(C, places=6)})",
                                    f"svm_sgd(λ = {maths.num(lam)})", theirs, mine, costs)]
    mm = max_margin(X, y)
    if mm is not None:
        C_hard = hard_margin_C(mm)
        tables.append(draw.comparison_table(f"SVC(C {maths.equals(C_hard, places=4)})",
                                            "max_margin", svc_weights(X, y, C_hard, tol=1e-8),
                                            np.r_[mm.w, mm.b]))
    return rows, tables


def svm_sidebar(lesson: Lesson, settings: dict, n: int) -> dict:
    """The SVM's own settings; order, bias, seed and epochs cap follow the perceptron's."""
    st.subheader("SVM (subgradient descent)")  # in the sidebar, beside "Training"
    lam = lesson.widget(LAM, format_func=maths.num)
    eta0 = lesson.widget(ETA0)
    epochs = lesson.widget(EPOCHS)
    capped = max(1, STEP_LIMIT // n)  # at most STEP_LIMIT steps are recorded
    return dict(lam=float(lam), eta=float(eta0), max_epochs=min(int(epochs), capped),
                order=settings["order"], bias=settings["bias"], seed=settings["seed"])


# ---------------------------------------------------------------- the parts
# Each part draws itself from the data, the perceptron's settings, the SVM's, and the maximum
# margin (None when the data is not separable). The reader picks one; its name is the link's.
PARTS = Parts(pick=True)
# the quick question's options (losses_ask): which of the two losses has a slope at z
PUSHES = ("Both", "Only the hinge", "Only the perceptron's loss", "Neither")


def losses_ask(params: dict[str, str]) -> dict | None:
    """The class's quick question on Losses (ui.class_questions.QUICK): at the page's margin z,
    which loss pushes w (a slope that is not 0)? Right: the slopes the notes' rules take
    (core.losses: the perceptron's -1 at z <= 0, the hinge's -1 at z < 1). None on other parts,
    which have runs of their own to ask about."""
    if params.get(PART, PARTS.names[0]) != "Losses":
        return None
    try:
        z = Z.parse(params.get(Z.param, str(Z.default)))
    except ValueError:
        z = Z.default  # the page shows its default for a value it cannot read: so does this
    perceptron_pushes, hinge_pushes = losses.perceptron_slope(z) != 0, losses.hinge_slope(z) != 0
    right = PUSHES.index("Both" if perceptron_pushes and hinge_pushes
                         else "Only the hinge" if hinge_pushes
                         else "Only the perceptron's loss" if perceptron_pushes else "Neither")
    return choice_ask(f"An example with margin z = {maths.num(z)}: which loss pushes w "
                      "(a slope that is not 0)?", list(PUSHES), [right])


QUICK[PAGE] = losses_ask


@PARTS.part("Losses")
def losses_part(lesson: Lesson, data: Dataset, settings: dict, svm_settings: dict,
                mm) -> None:
    """The four losses of the margin z, their slopes, and the kinship in code."""
    lecture = lecture_mode()
    # on a projector the chart takes more of the width, and the window's height under the title
    left, right = st.columns([0.7, 0.3] if lecture else [0.58, 0.42])
    with right:
        z = lesson.widget(Z)
        base = 2.0 if lesson.widget(LOG_BASE) == "2" else math.e
        st.session_state[EXAMPLE.key] = min(st.session_state[EXAMPLE.key], len(data))
        n = lesson.widget(EXAMPLE, high=len(data))
        x, y = data.X[n - 1], float(data.y[n - 1])
        st.info(draw.verdict(z))
    with left:
        lesson.chart(draw.loss_figure(z, base=base, height=LECTURE_HEIGHT if lecture else 560),
                     key="losses",
                     alt="The 0-1, perceptron, hinge and logistic losses of the margin z, and "
                         "their slopes, with a cursor at the chosen z")
    st.markdown(f"Example {n}: x {maths.eq_sign(list(x))} ({maths.num(x[0])}, {maths.num(x[1])}), "
                f"y = {maths.num(y)}. "
                "By the chain rule through z = y(w·x + b), ∂L/∂w = L′(z)·y·x and the step is "
                "w ← w − η·∂L/∂w.")
    st.table(pd.DataFrame(draw.loss_table(z, x, y, base=base)), hide_index=True)
    st.caption("At a kink every slope in [−1, 0] is a subgradient. The perceptron takes −1 at "
               "z = 0 (it updates on y·a ≤ 0); the lecture notes' SVM takes 0 at z = 1 (it "
               "updates on y·a < 1). The 0-1 loss jumps at 0 and is flat elsewhere: no direction "
               "to follow. The logistic loss is drawn in base 2 by default so that it equals 1 "
               "at z = 0 and lies above the 0-1 loss everywhere, like the hinge; the notes' "
               "natural log is the same curve times ln 2 ≈ 0.693, with the same minimiser.")
    _strict_rule(lesson, data)
    st.markdown("**The kinship in code** (core/losses.py, live source): one loss with a "
                "threshold; 0 makes it the perceptron's, 1 the hinge.")
    st.code(draw.source_listing(losses.margin_loss, losses.perceptron_loss, losses.hinge_loss),
            language="python")


def _strict_rule(lesson: Lesson, data: Dataset) -> None:
    """The notes' y·a <= 0 against the strict y·a < 0, from w = 0 and from the notes' start."""
    if not lesson.widget(STRICT):
        return
    (w1, w2), b = NOTES_INIT
    rows = []
    for label, init in (("w = 0, b = 0", ((0.0, 0.0), 0.0)),
                        (f"w = ({maths.num(w1)}, {maths.num(w2)}), b = {maths.num(b)}",
                         NOTES_INIT)):
        for rule, strict in (("y·a ≤ 0 (the notes')", False), ("y·a < 0 (strict)", True)):
            updates, w, b_end, _ = rule_run(data.X, data.y, strict=strict, init=init)
            rows.append({"start": label, "rule": rule, "updates": updates,
                         "training errors at the end":
                             f"{training_errors(data.X, data.y, w, b_end)} / {len(data)}"})
    st.dataframe(pd.DataFrame(rows), hide_index=True)
    if not is_exact(perceptron(data.X, data.y)):
        float_marker()
    st.caption("Cyclic order, η = 1, on the data in the sidebar. From w = 0 every a is 0, so "
               "y·a = 0 on every example: the strict rule sees no mistake and never starts, "
               "stopping at w = 0, which gets every example wrong. That is why the rule "
               "counts the tie as a mistake (slope −1 at z = 0). From another start the strict "
               "rule does move.")


@PARTS.part("Train side by side")
def train_part(lesson: Lesson, data: Dataset, settings: dict, svm_settings: dict,
               mm) -> None:
    """Both runs on the same data, stepped together in the page (the perceptron's has the keys)."""
    try:
        perc = perceptron_trace(data.X, data.y, settings)
        svm = svm_trace(data.X, data.y, svm_settings)
    except ValueError as error:
        cannot_go_on(f"These settings cannot train: {error}")
    lam, eta0 = svm_settings["lam"], svm_settings["eta"]
    # how each run ended, from the run itself (the shorter one is padded to the other's end)
    ends = (outcome(perc, data.X, data.y, max_epochs=settings["max_epochs"]),
            descent_outcome(svm, data.X, data.y, max_epochs=svm_settings["max_epochs"], lam=lam))
    last = (perc.steps, svm.steps)
    perc, svm = align(perc, svm)
    lecture = lecture_mode()
    # each run's name heads its legend, beside the plot: the long one on two lines, but on a
    # projector one line each (two made the legend taller than the plot, which scrolled it)
    titles = (f"Perceptron (η = {maths.num(settings['eta'])})",
              f"SVM{' ' if lecture else ' by subgradient descent<br>'}"
              f"(λ = {maths.num(lam)}, η₀ = {maths.num(eta0)})")
    if svm_settings["max_epochs"] < int(st.session_state[EPOCHS.key]):
        st.caption(f"The SVM runs {plural(svm_settings['max_epochs'], 'epoch')} here: "
                   f"{STEP_LIMIT:,} steps at most are recorded.")

    def figure(title: str) -> go.Figure:
        """The run's chart without its moving parts: the points and the maximum margin.

        Its maths go under it (ui/stepper.py's pair), so the first screen has no height to
        spare: the legend, headed by the run's name, goes beside the plot, narrow (its longest
        name on two lines; the band's width, Margin(D), is in the margins below).
        """
        fig = draw.run_figure(data.X, data.y, data.classes, w=np.zeros(2), b=0.0, mm=mm,
                              height=560)
        fig.update_layout(legend=dict(orientation="v", x=1.02, xanchor="left", y=1,
                                      yanchor="top", font=dict(size=13),
                                      title=dict(text=title, font=dict(size=15))))
        fig.update_xaxes(constraintoward="right")  # the plot beside its legend
        fig.update_shapes(showlegend=False)
        fig.for_each_trace(lambda trace: trace.update(name="maximum-margin<br>boundary"),
                           selector=dict(name="maximum-margin boundary"))
        return fig

    def one_plane() -> go.Figure:
        """On a projector both runs on one plane: the points and the maximum margin, and the
        two boundaries the page draws named in its legend, at its foot."""
        # every boundary either run draws, within reason, on the plane (farther ones are
        # named at its edge with how far they are)
        fig = draw.run_figure(data.X, data.y, data.classes, w=np.zeros(2), b=0.0, mm=mm,
                              height=PLANE_HEIGHT_LECTURE, aspect=PAIR_ASPECT, tall=True,
                              lines=(np.vstack([perc.W, svm.W]), np.concatenate([perc.b, svm.b])))
        fig.update_shapes(showlegend=False)
        fig.for_each_trace(lambda trace: trace.update(name="maximum margin"),
                           selector=dict(name="maximum-margin boundary"))
        fig.add_traces([legend_only("perceptron", BOUNDARY), legend_only("SVM", SVM_RUN)])
        return fig

    # one clock: Next mistake stops where either run updates
    stops = (perc.updated | svm.updated).astype(np.uint8)
    leader = marked(perceptron_run(data, perc, settings, ends[0], lecture=lecture,
                                   figure=one_plane() if lecture else figure(titles[0]),
                                   extra={"stops": stops},
                                   layers=("boundary", "ghost", "normal", "visited", "explain")),
                    perc)
    # its maths are the descent's (figures.svm_step_lines), and its weights, shrunk on every
    # step, are rebuilt in the page from their start: no server work per step, and a few
    # bytes a step rather than 24
    follower = marked(perceptron_run(
        # the descent has no "converged": it ends where its epochs do, and says so
        data, svm, svm_settings, ends[1], lecture=lecture,
        figure=None if lecture else figure(titles[1]), extra={"stops": stops},
        layers=("boundary", "ghost", "normal", "visited", "margins", "explain"),
        words={"mistakes": "margin violation"}, descent={"lam": lam, "eta0": eta0}), svm,
        reason=FLOAT_DESCENT, threshold=1.0)

    def at_step(k: int) -> None:
        """Past a run's end, how it ended; both margins at step k (follow the step)."""
        for name, end, steps in zip(("Perceptron", "SVM"), ends, last, strict=True):
            if k > steps:
                st.caption(f"{name}, past its end: {end.message}")
        _margins(lesson, data, svm_settings, mm, perc, svm, k)

    if lecture:
        # on a projector both runs on one plane, both maths beside it: two charts side by side,
        # each over its maths, left the picture an eighth of the screen
        # (a boundary outside the view is named at its edge as in the legend)
        svm_palette = {**follower.header.palette, "boundary": SVM_RUN}
        lesson.stepper(with_companion(
            replace(leader, header=leader.header.with_(
                name=titles[0], words={**leader.header.words, "boundary": "perceptron"})),
            replace(follower, header=follower.header.with_(
                name=titles[1], palette=svm_palette,
                words={**follower.header.words, "boundary": "SVM"}))),
            panels=at_step)
        return
    left, right = st.columns(2)
    with left:
        lesson.stepper(leader, lead=True, panels=at_step)
    with right:
        lesson.stepper(follower, part="svm_run", follow=PAGE)


def _margins(lesson: Lesson, data: Dataset, svm_settings: dict, mm, perc, svm,
             k: int) -> None:
    """Geometric margins of both runs against the maximum, and the margin as lambda shrinks."""
    st.header("How wide is each boundary's margin?")
    values = [geometric_margin(data.X, data.y, trace.W[k], trace.b[k]) for trace in (perc, svm)]
    # each metric as wide as its text, wrapping to a new row rather than cut short with "…"
    # (they share the left run's half of the page: a third of it is 130 px on a projector);
    # a metric's value is one large short word: the words go in its small line below
    row = st.container(horizontal=True, gap="large")
    for name, value in zip(("Perceptron margin", "SVM margin"), values, strict=True):
        finite = math.isfinite(value)
        delta = (f"{100 * value / mm.gamma:.1f} % of Margin(D)" if mm is not None and finite
                 else None if finite else "does not separate")
        row.metric(name, maths.written(value, places=4) if finite else "none", delta,
                   delta_color="off", delta_arrow="off", width="content")
    float_marker(FLOAT_DESCENT)  # the SVM's margin is the descent's, in floats
    if mm is None:
        row.metric("Maximum margin Margin(D)", "not separable", width="content")
        st.info("This data is not linearly separable: no maximum margin exists. The perceptron "
                "never settles; see **Soft margin** for what the SVM does instead.")
        return
    row.metric("Maximum margin Margin(D)", maths.written(mm.gamma, places=4), width="content")
    st.caption("The perceptron stops at the first separator it meets, anywhere in the gap "
               "between the classes; the hinge pushes examples toward y·a ≥ 1 while the "
               "penalty keeps ‖w‖ small, which widens the margin toward Margin(D).")
    exact, sgd = margin_sweep(data.X, data.y, svm_settings)
    lesson.chart(draw.margin_sweep_figure(LAMBDAS, exact, sgd, mm.gamma, svm_settings["lam"]),
                 key="sweep", alt="Geometric margin against lambda: the exact minimiser and "
                                  "the subgradient run approach gamma as lambda shrinks")
    st.caption(sweep_sentence(LAMBDAS, exact, sgd, mm.gamma, svm_settings["max_epochs"]))
    with st.expander("One rule for both (core/perceptron.py, live source)"):
        st.code(draw.source_listing(Linear.wrong, Linear.apply), language="python")
        st.caption("The perceptron is this rule with the perceptron loss (an update when "
                   "y·a ≤ 0), lam = 0 and a constant step; the SVM uses the hinge (an update "
                   "when y·a < 1), lam > 0 and η₀/√t. The penalty's gradient λw is there on "
                   "every step, so the SVM shrinks w by (1 − η_t λ) on every step, a violation "
                   "or not (the bias is not penalised).")


def sweep_sentence(lams, exact, sgd, gamma: float, epochs: int, *, close: float = 0.05) -> str:
    """What the margin sweep shows, from its numbers: from which λ the exact minimiser has the
    maximum margin, and down to which λ the descent stays within ``close`` of it."""
    exact, sgd = np.asarray(exact, dtype=float), np.asarray(sgd, dtype=float)
    there = np.flatnonzero(np.abs(exact - gamma) <= 1e-6 * gamma)
    at_max = ("reaches the maximum margin Margin(D) from λ = "
              f"{maths.num(lams[there[0]])} down" if there.size and there[-1] == len(lams) - 1
              and np.all(np.diff(there) == 1) else
              f"ends at {maths.written(exact[-1], places=4)} at λ = {maths.num(lams[-1])}, "
              f"against Margin(D) {maths.equals(gamma, places=4)}")
    near = np.abs(sgd - exact) <= close * np.maximum(exact, 1e-12)
    runs = f"the subgradient run after {plural(epochs, 'epoch')}"
    first_off = int(np.argmin(near))  # from the largest λ down
    if near.all():
        follows = f"{runs} stays within {close:.0%} of it at every λ here"
    elif first_off > 0 and not near[first_off:].any():
        follows = (f"{runs} stays within {close:.0%} of it down to λ = "
                   f"{maths.num(lams[first_off - 1])} and falls behind below, where the "
                   "penalty, which is what pulls w toward the maximum margin, needs more steps "
                   "than the run has (raise the SVM epochs)")
    elif not near.any():
        follows = f"{runs} is more than {close:.0%} off it at every λ here"
    else:
        follows = (f"{runs} is within {close:.0%} of it only at λ = "
                   + listed([maths.num(lam) for lam, ok in zip(lams, near, strict=True) if ok]))
    return ("As λ shrinks the exact minimiser (SVC with C = 1/(λN), which always learns a "
            f"bias, whatever the bias setting) {at_max}; {follows}.")


@PARTS.part("Soft margin")
def soft_part(lesson: Lesson, data: Dataset, settings: dict, svm_settings: dict,
              mm) -> None:
    """The soft-margin SVM for the chosen C, its slacks, and the perceptron beside it."""
    lecture = lecture_mode()
    # on a projector the plane takes the window's height under the title, landscape, C is set
    # beside it, and the four numbers follow under it (the plane shows each: the violators'
    # slacks, the circled support vectors, the band)
    left, right = st.columns([0.8, 0.2] if lecture else [0.6, 0.4])
    # C beside the plane (a phone stacks them: the plane first)
    C = lesson.widget(C_SETTING, right, format_func=maths.num)
    try:
        sm = exact_soft_margin(data.X, data.y, float(C))
    except ValueError as error:
        cannot_go_on(f"The soft margin cannot be solved here: {error}")
    with left:
        lesson.chart(draw.soft_margin_figure(data.X, data.y, data.classes, sm, **(
            dict(height=LECTURE_HEIGHT, aspect=LECTURE_ASPECT) if lecture else {})),
            key="soft", alt="The soft-margin SVM: boundary, margins, support vectors and the "
            "slack of every violating point")
    cols = st.columns(4) if lecture else right.columns(2) * 2
    cols[0].metric("Margin violations", len(sm.violations))
    cols[1].metric("Support vectors", len(sm.support))
    norm = float(np.linalg.norm(sm.w))
    cols[2].metric("Margin 1/‖w‖", maths.written(1 / norm, places=4) if norm else "∞ (w = 0)")
    cols[3].metric("Training errors", training_errors(data.X, data.y, sm.w, sm.b))
    # on a projector the formulas are too wide for the column beside the chart: under both
    with st.container() if lecture else right:
        st.latex(r"\xi^{(n)} = \max\big(0,\ 1 - y^{(n)}(\mathbf{w}^\top\mathbf{x}^{(n)} + b)\big)")
        st.latex(draw.objective_latex(sm, len(data)))
        st.caption("The notes write this objective as (1/2)‖w‖² + γ Σ ξ, with C in the role of "
                   "their γ; the λ form of the other parts, mean hinge + (λ/2)‖w‖², has the "
                   "same minimiser when C = 1/(λN) (the mean, not the sum, of the hinge).")
        # with w = 0 there is no margin line, and no slack is drawn
        st.caption(("Each segment of the legend's *slack ξₙ* is one slack: from a violating "
                    "point to its own class's margin line (its length is ξ/‖w‖). "
                    if norm and len(sm.violations) else "")
                   + "Small C buys a wide margin with many violations; large C approaches the "
                   "hard margin.")
        if not norm:
            st.warning(w_zero_words(data.y, sm.b, sm.slack, data.classes))
        elif mm is not None:
            st.info("This data is separable: pick the noisy blobs, or Iris versicolor vs "
                    "virginica, to see violations that no C can remove.")
    _perceptron_never_settles(lesson, data, settings, mm, sm)


def w_zero_words(y, b: float, slack, classes) -> str:
    """The soft margin's w = 0 optimum in words, from its b and slacks: which points pay a slack
    (with w = 0 each pays 1 − y·b: the class b favours pays nothing when |b| = 1)."""
    y, slack = np.asarray(y), np.asarray(slack)
    n = len(slack)
    paying = np.flatnonzero(slack > 0)
    head = ("Here the best soft margin is w = 0: no line does better than the same score "
            f"a = b {maths.equals(b)} at every point")
    if len(paying) == n:
        return head + ", so every point pays a slack."
    if not len(paying):
        return head + ", and no point pays a slack."
    labels = np.unique(y[paying])
    whose = (f", those of class {maths.labelled(labels[0], classes)}" if len(labels) == 1
             else "")
    amounts = np.unique(slack[paying])
    each = f", each ξ {maths.equals(amounts[0])}" if len(amounts) == 1 else ""
    return (head + f": {len(paying)} of the {n} points pay a slack{whose}{each}, and the other "
            f"{n - len(paying)} none.")


def _perceptron_never_settles(lesson: Lesson, data: Dataset, settings: dict, mm, sm) -> None:
    """The perceptron on the same data: boundaries of the last epochs and errors per epoch."""
    st.header("The perceptron on the same data")
    perc = perceptron_trace(data.X, data.y, settings)
    if not perc.exact:
        float_marker()
    ends, errors = epoch_end_errors(perc, data.X, data.y)
    late = ends[-8:]
    left, right = st.columns([0.55, 0.45])
    with left:
        lesson.chart(draw.late_boundaries_figure(
            data.X, data.y, data.classes, perc.W[late], perc.b[late],
            labels=[f"end of epoch {perc.epoch[k]}" for k in late]),
            key="late", alt="The perceptron's boundaries at the end of its last epochs")
    with right:
        lesson.chart(draw.errors_by_epoch_figure(
            errors, training_errors(data.X, data.y, sm.w, sm.b)), key="errors",
            alt="The perceptron's training errors at the end of each epoch")
    if mm is None:
        right.warning(f"Not separable: the perceptron is still moving after {perc.epoch[-1]} "
                      f"epochs ({errors[-1]} training error{'s' * (errors[-1] != 1)} at the "
                      "end), while the soft-margin SVM has one answer for each C.")
    else:
        ran = outcome(perc, data.X, data.y, max_epochs=settings["max_epochs"])
        if ran.converged:
            right.success(f"Separable: this run converged after {plural(ran.mistakes, 'mistake')} "
                          f"in {plural(ran.epochs, 'epoch')}.")
        else:
            right.warning(f"Separable, so the perceptron would settle, but this run has not "
                          f"yet: {ran.message}" + (" Raise max epochs (sidebar) to let it "
                                                   "converge." if perc.complete else ""))


@PARTS.part("Generalization")
def generalization_part(lesson: Lesson, data: Dataset, settings: dict, svm_settings: dict,
                        mm) -> None:
    """Several perceptron runs and the SVM on one train/test split, and Theorem 2.6."""
    lecture = lecture_mode()
    # the picture first: the split's settings under it, on a projector at the sidebar's foot
    picture = st.container()
    c1, c2, c3, c4 = [lesson.aside()] * 4 if lecture else st.columns(4)
    fraction = lesson.widget(TEST_FRACTION, c1)
    split_seed = lesson.widget(SPLIT_SEED, c2)
    runs = lesson.widget(RUNS, c3)
    order = lesson.widget(RUNS_ORDER, c4)
    try:
        result, cap = split_and_score(data.X, data.y, test_fraction=float(fraction),
                                      split_seed=int(split_seed), runs=int(runs), order=order,
                                      C=float(st.session_state[C_SETTING.key]))
    except ValueError as error:
        cannot_go_on(f"This split cannot be used: {error}")
    train, test = result.train, result.test
    if not is_exact(perceptron(data.X[train], data.y[train])):
        float_marker()  # the runs' decisions and numbers
    svm_name = ("SVM: maximum margin" if result.separable
                else f"SVM: soft margin (C = {maths.num(st.session_state[C_SETTING.key])})")
    labels = [f"run {k + 1}: test error {100 * e:.1f} %" + ("" if done else " (not converged)")
              for k, ((_, _, e), done) in enumerate(zip(result.runs, result.converged,
                                                        strict=True))]
    left, right = picture.columns([0.62, 0.38] if lecture else [0.58, 0.42])
    with left:
        lesson.chart(draw.generalization_figure(
            data.X, data.y, data.classes, train, test,
            [(w, b, label) for (w, b, _), label in zip(result.runs, labels, strict=True)],
            (*result.svm, f"{svm_name}: test error {100 * result.svm_error:.1f} %"),
            **(dict(height=LECTURE_HEIGHT, aspect=1.5, legend_columns=2) if lecture
               else {})),
            key="general",
            alt="Several perceptron separators and the SVM's on the training points, with the "
                "test points open")
    with right:
        lesson.chart(draw.test_error_figure([e for _, _, e in result.runs], result.svm_error,
                                            height=380 if lecture else 300),
                     key="test_errors", alt="Test error of each perceptron run and of the SVM")
        if len(train) < 10:
            st.info("Few points here: pick a generator (Separable, Noisy blobs) in the sidebar "
                    "for a test set worth the name.")
        st.caption(f"{len(train)} training points (filled), {len(test)} test points (open). "
                   + ("Every run is trained to convergence (the mistake bound caps the epochs "
                      f"it can need), so each separates the training points; {runs_apart(result)} "
                      "The SVM's line depends on the training data alone: the same every time."
                      if cap is None and all(result.converged) else
                      "Every run gets the epochs the mistake bound says it can need, at most "
                      f"{CONVERGENCE_CAP:,}; the SVM's line depends on the training data "
                      "alone: the same every time." if cap is None else
                      f"Each run stops after {cap:,} epoch{'s' if cap != 1 else ''} here: "
                      f"{int(runs)} runs over {len(train):,} points would cost this page more "
                      "than it may spend for one student. The SVM's line depends on the "
                      "training data alone: the same every time."))
        stuck = result.converged.count(False)
        if stuck:
            st.warning(f"{stuck} of the runs did not converge (marked in the legend): "
                       + ("these training points cannot be separated."
                          if not result.separable else
                          "they ran out of epochs first, so the theorem, which is about runs "
                          "trained to convergence, does not speak of their test errors."))
        _bound(result, len(train), cap)
    _draws(lesson, data, separable=mm is not None)


def runs_apart(result) -> str:
    """How far the runs' separators and test errors differ, from the runs themselves."""
    lines = {tuple(np.round(np.r_[w, b] / np.linalg.norm(np.r_[w, b]), 12))
             for w, b, _ in result.runs
             if np.any(np.r_[w, b])}
    errors = sorted({e for _, _, e in result.runs})
    where = ("they all land on the same line" if len(lines) <= 1
             else f"they land on {len(lines)} different lines")
    scored = (f"with the same test error, {100 * errors[0]:.1f} %" if len(errors) == 1 else
              f"with test errors from {100 * errors[0]:.1f} % to {100 * errors[-1]:.1f} %")
    return f"{where}, {scored}."


def _draws(lesson: Lesson, data: Dataset, *, separable: bool) -> None:
    """Theorem 2.6 as the experiment it describes: many random draws, not one split."""
    st.markdown("**Theorem 2.6 as an experiment.** The theorem is about expectations over "
                "random draws: draw N + 1 examples from the data set (uniformly, with "
                "replacement), train to convergence on the first N, test on the last; repeat.")
    if not separable:
        st.info("These data are not linearly separable: the theorem assumes they are.")
        return
    pressed = st.button("Run the draws", icon=":material/casino:", key=f"{PAGE}.draws")
    if not (pressed or st.session_state.get(f"{PAGE}.drew")):
        return
    st.session_state[f"{PAGE}.drew"] = True
    errors, bounds, converged = draws_experiment(data.X, data.y)
    lesson.chart(draw.theorem_2_6_figure(DRAW_NS, errors, bounds), key="theorem_2_6",
                 alt="Mean test error over random draws against the bound E[R squared over "
                     "gamma squared] over N + 1, for several N")
    st.dataframe(pd.DataFrame({"N": DRAW_NS, "mean test error": errors,
                               "E[R²/γ²]/(N + 1)": bounds}), hide_index=True)
    total = DRAWS * len(DRAW_NS)
    under = sum(e <= b for e, b in zip(errors, bounds, strict=True))
    st.caption(f"{DRAWS} draws for each N ({converged} of {total} runs converged). Both sides "
               "are sample means, estimates of the theorem's expectations; here the mean error "
               f"is at most the bound for {under} of the {len(DRAW_NS)} values of N. "
               + bound_trend(DRAW_NS, bounds) + " Above 1 the bound says nothing.")


def bound_trend(ns, bounds) -> str:
    """How the estimated bound E[R²/γ²]/(N + 1) moved from the first N to the last, against
    the 1/(N + 1) it would follow if E[R²/γ²] stayed put."""
    (n0, b0), (n1, b1) = (ns[0], bounds[0]), (ns[-1], bounds[-1])
    ratios = [b * (n + 1) for n, b in zip(ns, bounds, strict=True)]
    alone = (n1 + 1) / (n0 + 1)
    moved = (f"From N = {n0} to N = {n1} the bound goes from {b0:.3g} to {b1:.3g}, "
             + (f"down by a factor of {b0 / b1:.2g}" if b1 < b0 else
                f"up by a factor of {b1 / b0:.2g}" if b1 > b0 else "unchanged"))
    if ratios[-1] > ratios[0]:
        return (moved + f", while 1/(N + 1) alone falls by {alone:.2g}: E[R²/γ²] grows with "
                f"N, from {ratios[0]:.3g} to {ratios[-1]:.3g} (more points, a smaller "
                "margin or a larger radius).")
    if ratios[-1] < ratios[0]:
        return (moved + f", more than the {alone:.2g} of 1/(N + 1) alone: E[R²/γ²] falls "
                f"from {ratios[0]:.3g} to {ratios[-1]:.3g}.")
    return moved + f": E[R²/γ²] stays at {ratios[0]:.3g}, so it follows 1/(N + 1)."


def _bound(result, n: int, cap: int | None) -> None:
    """Theorem 2.6 with this training set's numbers."""
    st.markdown("**The leave-one-out bound** (Theorem 2.6): a perceptron trained to convergence "
                "on N examples errs on a fresh one with probability")
    st.latex(draw.bound_latex(result.ratio, n))
    if not math.isfinite(result.ratio):
        st.warning("This training set is not linearly separable: no γ > 0, and the theorem "
                   "does not apply.")
    st.caption("The expectation is over random training sets; R²/γ² (mistake_bound, measured on "
               "(x, 1) as the perceptron with a bias sees them) is this one set's value, so the "
               "number is the bound's estimate from the data on screen. Above 1 it says nothing.")
    if result.loo is not None:
        loo = result.loo
        label, value, delta = loo_metric(loo)
        st.metric(label, value, delta, delta_color="off", delta_arrow="off")
        st.caption(loo_sentence(loo, result.ratio, cap))


def loo_metric(loo: LeaveOneOut) -> tuple[str, str, str | None]:
    """The leave-one-out metric: its label, its count out of the runs it counts (those that
    converged), and the runs left out of it."""
    label = "Leave-one-out errors of the perceptron on the training set"
    if not loo.unconverged:
        return label, f"{loo.converged_errors} / {loo.n}", None
    return (label + " (runs that converged)",
            f"{loo.converged_errors} / {loo.n - loo.unconverged}",
            f"{plural(loo.unconverged, 'run')} did not converge, not counted")


def loo_sentence(loo: LeaveOneOut, ratio: float, cap: int | None) -> str:
    """What the leave-one-out count is: the proof's (*) when every run converged; else the
    count of those that did, and where (*) lies."""
    n = loo.n
    bound = maths.equals(ratio, places=2)  # "R²/γ² ≈ 13.75"
    epochs = f", each stopped after {plural(cap, 'epoch')}" if cap is not None else ""
    if not loo.unconverged:
        return (f"Train on all but one, test on the one left out, for each of the {n}{epochs}: "
                f"every run converged, so this count is the proof's (*), at most the mistakes "
                f"of a run on all {n}, so at most R²/γ² {bound}.")
    done = n - loo.unconverged
    return (f"Train on all but one, test on the one left out, for each of the {n}{epochs}: "
            f"{loo.unconverged} of the {n} runs did not converge (of the "
            f"{plural(loo.unconverged, 'point')} they leave out, they err on "
            f"{loo.unconverged_errors}), so the count shown is of the {done} "
            f"that did: {loo.converged_errors}. The proof's (*) counts runs trained to "
            f"convergence: here it lies between {loo.converged_errors} and "
            f"{loo.converged_errors + loo.unconverged}, and it is at most R²/γ² {bound}.")


@PARTS.part("In scikit-learn")
def sklearn_part(lesson: Lesson, data: Dataset, settings: dict, svm_settings: dict,
                 mm) -> None:
    """The same numbers from scikit-learn, computed live beside ours."""
    perc_epochs = min(settings["max_epochs"], 20)
    svm = svm_trace(data.X, data.y, svm_settings)
    lam = svm_settings["lam"]
    C = lam_to_C(lam, n=len(data))
    rows, tables = sklearn_numbers(data.X, data.y, settings["bias"], perc_epochs, lam,
                                   svm.W[-1], float(svm.b[-1]))
    intercept = "" if settings["bias"] else ",\n    fit_intercept=False"
    left, right = st.columns([0.42, 0.58])
    with left:
        st.code(f"""from sklearn.linear_model import Perceptron
from sklearn.svm import SVC

# cyclic perceptron, eta = 1, from w = 0
perceptron = Perceptron(
    eta0=1, shuffle=False, tol=None,
    max_iter={perc_epochs}{intercept},
).fit(X, y)
perceptron.coef_, perceptron.intercept_

# soft-margin SVM, C = 1 / (lambda N)
svm = SVC(kernel="linear", C={C:.6g}).fit(X, y)
svm.coef_, svm.intercept_""", language="python")
        st.caption("X, y: the data on screen. Every number on the right is computed live, by "
                   "scikit-learn and by this app's own code.")
    number = st.column_config.NumberColumn(format="%.6g")
    with right:
        st.markdown("**Perceptron, epoch by epoch** (ours: core.perceptron, cyclic, η = 1, "
                    "w = 0)")
        st.dataframe(pd.DataFrame(rows), hide_index=True, height=250, column_config={
            "max |difference|": st.column_config.NumberColumn(format="%.1e")})
    st.markdown("**SVM**")
    cols = st.columns(len(tables))
    for col, table in zip(cols, tables, strict=True):
        col.dataframe(table, column_config={name: number for name in table.columns})
    J, J_star = descent_cost(data.X, data.y, lam, svm.W[-1], float(svm.b[-1]))
    float_marker(FLOAT_DESCENT)
    # each "≈" where its number is rounded in writing (viz.maths.written)
    st.metric("How far the descent is from the minimum: J − J*", maths.written(J - J_star),
              f"J {maths.equals(J)}, J* {maths.equals(J_star)}", delta_color="off",
              delta_arrow="off")
    asked = int(st.session_state[EPOCHS.key])  # more than the page records: it says so
    st.caption(gap_sentence(J, J_star, int(svm.epoch[-1]), bias=settings["bias"],
                            asked=asked if svm_settings["max_epochs"] < asked else None)
               + " Separable data also get the hard margin: any C at least the largest dual "
               "coefficient gives it, and 2‖w‖² is one.")


@st.cache_data(max_entries=16, show_spinner=False)
def descent_cost(X, y, lam: float, w, b: float) -> tuple[float, float]:
    """The descent's cost J and the least J*, core.soft_margin.cost_gap, cached."""
    return cost_gap(X, y, w, b, lam=lam)


def gap_sentence(J: float, J_star: float, epochs: int, *, bias: bool,
                 asked: int | None = None) -> str:
    """Where the descent's cost stands against the minimum, from the two numbers; ``asked``:
    the epochs the settings asked for, where the page ran fewer (it records STEP_LIMIT steps
    at most)."""
    gap = J - J_star
    capped = (f" (of the {asked:,} asked for: the page records {STEP_LIMIT:,} steps at most)"
              if asked is not None else "")
    head = ("SVC solves the soft-margin SVM to its tolerance (J* is the app's own exact "
            "minimiser, soft_margin); our subgradient run only approaches the minimiser of J "
            f"as its steps shrink. After {plural(epochs, 'epoch')}{capped} its J is "
            f"{maths.written(J)} against J* {maths.equals(J_star)}: ")
    if gap <= 1e-3 * max(J_star, 1e-12):
        where = f"within {gap:.2g} of the minimum, 0.1 % of J*."
    else:
        where = (f"J − J* {maths.equals(gap)}, {gap / J_star:.0%} above the minimum, so its "
                 "weights are not the minimiser's either; more epochs bring it closer."
                 if J_star > 0 else f"J − J* {maths.equals(gap)}.")
    off = (" With the bias off, the descent keeps b = 0 while SVC and J* learn b, so it "
           "cannot reach J*." if not bias else "")
    return head + where + off

