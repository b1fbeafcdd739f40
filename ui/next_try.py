"""Under a run that stopped at its epoch cap with examples still wrong: what to try next.

Separable data (certified exactly, core.next_try): the margin, the bound, and one button that
raises the cap to the epoch where this run converges, found by running it once more within
the view's budget. Data no line separates: the Non-separable lesson's pocket and averaged
runs, on the same data.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from core.next_try import AfterCap, after_cap
from core.trace import STEP_LIMIT, Outcome, Trace, outcome
from core.words import plural
from datasets import Dataset
from ui.cached_runs import perceptron_trace
from ui.settings import MAX_EPOCHS
from ui.state import set_by_button


@st.cache_data(max_entries=32, show_spinner=False)
def _after_cap(X: np.ndarray, y: np.ndarray, mistakes: int, epochs: int, bias: bool,
               from_zero: bool) -> AfterCap:
    """core.next_try.after_cap, once per data and run end (a linear programme and a check)."""
    return after_cap(X, y, mistakes=mistakes, epochs=epochs, bias=bias, from_zero=from_zero)


def budget_epochs(n: int) -> int:
    """The most epochs this view runs on n examples: the setting's top, and a trace's steps."""
    return int(min(MAX_EPOCHS.high, max(1, STEP_LIMIT // max(n, 1))))


def _from_zero(init) -> bool:
    if isinstance(init, str):
        return init == "zeros"
    (w, b) = init
    return not np.any(np.asarray(w, dtype=float)) and float(b) == 0.0


def _raise(epochs: int) -> None:
    set_by_button({MAX_EPOCHS.key: int(epochs)})


def capped_run_hint(data: Dataset, trace: Trace, settings: dict, result: Outcome, *,
                    key: str) -> bool:
    """Say what to try next when the run stopped at its epoch cap with examples wrong.

    Parameters
    ----------
    data : Dataset
        The run's data.
    trace : Trace
        The recorded run.
    settings : dict
        Its settings (``perceptron``'s keyword arguments).
    result : Outcome
        How it ended (:func:`core.trace.outcome`).
    key : str
        The button's widget key.

    Returns
    -------
    bool
        True when the data are not separable: the lesson then links to the Non-separable
        lesson (a link to a lesson is the lesson's to draw, ``lessons.link``).
    """
    cap = int(settings["max_epochs"])
    if result.converged or not trace.complete or result.epochs < cap:
        return False
    advice = _after_cap(data.X, data.y, result.mistakes, result.epochs, bool(settings["bias"]),
                        _from_zero(settings["init"]))
    if not advice.separable:
        st.info("No line separates these data: the perceptron never settles on them, whatever "
                "the cap. The Non-separable lesson runs it on these same data and keeps the "
                "best weights seen (the pocket) and the averaged weights, which do settle.",
                icon=":material/alt_route:")
        return True
    top = budget_epochs(len(data))
    trial = perceptron_trace(data.X, data.y, {**settings, "max_epochs": top})
    ends = int(trial.epoch[-1])
    converges = outcome(trial, data.X, data.y, max_epochs=top).converged
    said = (f"These data are linearly separable (a line that puts every example on its side "
            f"was found and checked exactly). Their margin γ ≈ {advice.gamma:.3g} and radius "
            f"R ≈ {advice.radius:.3g} bound the mistakes from w = 0 by R²/γ² ≈ "
            f"{advice.bound:,.0f}; this run made {plural(result.mistakes, 'mistake')} in "
            f"{plural(cap, 'epoch')}, so more epochs would finish it.")
    if converges:
        said += f" With the same order and start it converges in epoch {ends:,}."
        target = ends
    else:
        target = top
        said += (f" This view runs at most {top:,} epochs ({STEP_LIMIT:,} steps), and the run "
                 f"has not converged by then")
        said += (f"; the bound promises it by epoch {advice.guaranteed:,}." if advice.guaranteed
                 else ".")
    st.info(said, icon=":material/trending_up:")
    if target > cap:
        st.button(f"Run {target:,} epochs", key=key, on_click=_raise, args=(target,),
                  icon=":material/fast_forward:",
                  help="Raise Max epochs in the sidebar to this and run again.")
    return False

