"""Every setting a student can change, declared once: widget, default, range and link field.

A :class:`Setting` holds what the sidebar widget, the session default and the
address bar each need (the session key, the link's parameter, the type, the
default, the range and grid, the label and the help), so none of them
repeats it. The shared settings (data and training) are declared here; each
lesson declares its own next to its code, with the same class, and hands
them to its ``Lesson``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import streamlit as st

from core.perceptron import ORDERS
from datasets.builtin import GENERATORS

KINDS = ("int", "float", "bool", "choice")
# every link parameter a Setting declares, as modules declare them (lessons.link_parameters
# imports every lesson's settings first): what a view may hold besides the data and step
LINKED: set[str] = set()
WIDGETS = ("number", "slider", "select_slider", "select", "radio", "segmented", "toggle")


def whole(low: int, high: int) -> Callable[[str], int]:
    """A parser for a whole number from low to high.

    Parameters
    ----------
    low, high : int
        The accepted range, both ends included.

    Returns
    -------
    callable
        ``parse(text) -> int``; it raises ValueError (its message says what
        is expected) on anything else.
    """
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = None
        if value is None or not low <= value <= high:
            raise ValueError(f"expected a whole number from {low} to {high}")
        return value
    return parse


def real(low: float, high: float, *, step: float | None = None) -> Callable[[str], float]:
    """A parser for a finite number from low to high.

    Parameters
    ----------
    low, high : float
        The accepted range, both ends included.
    step : float, optional
        The grid of the widget the value goes to: the value is rounded to it,
        so that a slider with this step accepts it.

    Returns
    -------
    callable
        ``parse(text) -> float``; it raises ValueError on anything else
        (junk, NaN, infinity, out of range).
    """
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not (math.isfinite(value) and low <= value <= high):
            raise ValueError(f"expected a number from {low:g} to {high:g}")
        return round(round(value / step) * step, 10) if step else value
    return parse


def one_of(options) -> Callable[[str], Any]:
    """A parser for a value that must be one of ``options``.

    Parameters
    ----------
    options : sequence
        The accepted values. Strings match as written; a float option also
        matches any text that reads as the same number ("0.010" is 0.01).

    Returns
    -------
    callable
        ``parse(text)`` returns the matching option itself; it raises
        ValueError on anything else.
    """
    def parse(text: str):
        for option in options:
            if text == str(option):
                return option
            if isinstance(option, float):
                try:
                    if math.isclose(float(text), option, rel_tol=1e-9):
                        return option
                except ValueError:
                    pass  # not a number: it can only have matched as written
        raise ValueError(f"expected one of {', '.join(map(str, options))}")
    return parse


def flag(text: str) -> bool:
    """Parse a link's on/off value: "1" is True, "0" False; anything else raises ValueError."""
    if text not in ("0", "1"):
        raise ValueError("expected 0 or 1")
    return text == "1"


@dataclass(frozen=True)
class Setting:
    """One setting: its session key, its link parameter, its type, default, range and widget.

    Parameters
    ----------
    key : str
        The session-state key, namespaced by page ("train.eta", "svm.lam").
    param : str or None
        The link's parameter ("eta"); None keeps the setting out of links.
    kind : {"int", "float", "bool", "choice"}
        What the value is.
    default : object
        The value before anyone changes it (None: the page supplies one).
    label : str
        The widget's label.
    widget : {"number", "slider", "select_slider", "select", "radio", "segmented", "toggle"}
        How it is drawn.
    low, high : float, optional
        The range (numbers), both ends included.
    step : float, optional
        The widget's step. Sliders snap a link's value to it.
    options : tuple, optional
        The allowed values of a choice (or of a select slider).
    labels : mapping, optional
        How each option is shown (option -> text).
    help : str, optional
        The widget's tooltip.
    snap : float, optional
        A grid a link's number is rounded to (default: ``step`` for sliders).
    arg : str, optional
        The keyword this setting fills in a run's settings (e.g. ``perceptron``'s
        ``eta``), when the page passes the values on as a dict.

    Examples
    --------
    >>> ETA = Setting("train.eta", "eta", "float", 1.0, "Learning rate η",
    ...               widget="number", low=0.001, high=100.0, step=0.1)
    >>> ETA.parse("0.5"), ETA.format(0.5)
    (0.5, '0.5')
    """

    key: str
    param: str | None
    kind: str
    default: Any
    label: str
    widget: str = "number"
    low: float | None = None
    high: float | None = None
    step: float | None = None
    options: tuple = ()
    labels: Mapping | None = field(default=None, hash=False, compare=False)
    help: str | None = None
    snap: float | None = None
    arg: str | None = None

    def __post_init__(self):
        if self.param is not None:
            LINKED.add(self.param)
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {', '.join(KINDS)}, got {self.kind!r}")
        if self.widget not in WIDGETS:
            raise ValueError(f"widget must be one of {', '.join(WIDGETS)}, got {self.widget!r}")
        if self.kind == "choice" and not self.options:
            raise ValueError(f"{self.key}: a choice needs options")
        if self.kind in ("int", "float") and not self.options and (
                self.low is None or self.high is None):
            raise ValueError(f"{self.key}: a number needs low and high, or options")

    @property
    def parse(self) -> Callable[[str], Any]:
        """The link's parser: text -> a value the widget accepts; ValueError otherwise."""
        if self.kind == "bool":
            return flag
        if self.kind == "choice" or self.options:
            return one_of(self.options)
        if self.kind == "int":
            return whole(int(self.low), int(self.high))
        grid = self.snap if self.snap is not None else (
            self.step if self.widget == "slider" else None)
        return real(self.low, self.high, step=grid)

    def format(self, value) -> str:
        """The value as a link writes it."""
        if isinstance(value, bool):
            return "1" if value else "0"
        if isinstance(value, float):
            return f"{value:.12g}"
        return str(value)

    def show(self, option) -> str:
        """How an option is shown in the widget."""
        if self.labels is not None and option in self.labels:
            return self.labels[option]
        return option if isinstance(option, str) else f"{option:g}"

    def draw(self, container=None, *, label: str | None = None, high: float | None = None,
             **kwargs):
        """Draw the widget (keyed by ``key``; its value lives in the session) and return it.

        Parameters
        ----------
        container : streamlit container, optional
            Where to draw (a column, the sidebar); Streamlit's current one by default.
        label : str, optional
            Another label for this one place (e.g. two widgets of one value).
        high : float, optional
            A tighter upper end for this one place (e.g. the last row of the data).
        **kwargs
            Passed on to the Streamlit widget (``on_change``, ``horizontal``, ...).

        Returns
        -------
        object
            The widget's value; a float without the noise of the browser's arithmetic
            (a step of 0.1 from 0.2 gives 0.30000000000000004 there, and 0.3 here),
            so a short decimal stays short and its run stays exact.
        """
        value = self._draw(container, label=label, high=high, **kwargs)
        return clean(value) if isinstance(value, float) else value

    def _draw(self, container, *, label, high, **kwargs):
        """Draw the Streamlit widget and return its raw value."""
        where = st if container is None else container
        text = self.label if label is None else label
        if self.help is not None:
            kwargs.setdefault("help", self.help)
        top = self.high if high is None else high
        if self.widget == "toggle":
            return where.toggle(text, key=self.key, **kwargs)
        if self.widget == "number":
            if self.kind == "int":
                return where.number_input(text, int(self.low), int(top),
                                          step=int(self.step or 1), key=self.key, **kwargs)
            kwargs.setdefault("format", "%g")
            return where.number_input(text, float(self.low), float(top), step=self.step,
                                      key=self.key, **kwargs)
        if self.widget == "slider":
            cast = int if self.kind == "int" else float
            step = cast(self.step) if self.step is not None else None
            return where.slider(text, cast(self.low), cast(top), step=step, key=self.key,
                                **kwargs)
        kwargs.setdefault("format_func", self.show)
        if self.widget == "select_slider":
            return where.select_slider(text, list(self.options), key=self.key, **kwargs)
        if self.widget == "select":
            return where.selectbox(text, list(self.options), key=self.key, **kwargs)
        if self.widget == "radio":
            kwargs.setdefault("horizontal", True)
            return where.radio(text, list(self.options), key=self.key, **kwargs)
        return where.segmented_control(text, list(self.options), key=self.key, **kwargs)


def clean(value: float) -> float:
    """A float at 12 significant digits: the rounding noise of a sum of steps goes.

    >>> clean(0.1 + 0.2), clean(0.05), clean(-1e-17)
    (0.3, 0.05, -1e-17)
    """
    return float(f"{value:.12g}")


def defaults(settings) -> dict:
    """The session defaults of the settings that have one: {key: default}."""
    return {s.key: s.default for s in settings if s.default is not None}


# ---------------------------------------------------------------- shared by every lesson
# The data set itself ("data.choice") is chosen by name and linked by its slug: see
# ui.data_picker and ui.url_state.

DATA_CHOICE_KEY = "data.choice"
DATA_CHOICE_DEFAULT = "Lecture notes' example: 4 points"
DATA_N = Setting("data.n", "n", "int", 40, "Points", widget="slider", low=4, high=1000)
DATA_SEED = Setting("data.seed", "dseed", "int", 0, "Data seed", low=0, high=10**6)
# generators that share a parameter name share its setting
DATA_SHAPES = {
    g.shape_name: Setting(f"data.{g.shape_name}", g.shape_name, "float", g.shape_range[2],
                          g.shape_name.capitalize(), widget="slider", low=g.shape_range[0],
                          high=g.shape_range[1], step=g.shape_range[3])
    for g in GENERATORS.values()
}
DATA = (DATA_N, DATA_SEED, *DATA_SHAPES.values())

ORDER_LABELS = {
    "cyclic": "Cyclic (rows in order)",
    "shuffle_once": "Shuffled once",
    "shuffle_each_epoch": "Shuffled every epoch",
    "random": "Random, with replacement",
    "random_misclassified": "Random misclassified (PLA)",
}


def order_label(order: str) -> str:
    """How a visiting order is shown; an order without a label here shows its own name."""
    return ORDER_LABELS.get(order, order.replace("_", " ").capitalize())


ORDER = Setting("train.order", "order", "choice", "cyclic", "Visiting order", widget="select",
                options=tuple(ORDERS), labels={o: order_label(o) for o in ORDERS}, arg="order")
INIT = Setting("train.init", "init", "choice", "zeros", "Initial weights", widget="radio",
               options=("zeros", "random", "typed"),
               labels={"zeros": "Zeros", "random": "Random", "typed": "Typed in"}, arg="init")
# typed-in initial weights: drawn in one row under INIT when it is "typed"
W1 = Setting("train.w1", "w1", "float", 0.0, "w₁", low=-1e6, high=1e6, step=0.1)
W2 = Setting("train.w2", "w2", "float", 0.0, "w₂", low=-1e6, high=1e6, step=0.1)
B = Setting("train.b", "b", "float", 0.0, "b", low=-1e6, high=1e6, step=0.1)
TYPED_WEIGHTS = (W1, W2, B)
ETA = Setting("train.eta", "eta", "float", 1.0, "Learning rate η", low=0.001, high=100.0,
              step=0.1, arg="eta")
BIAS = Setting("train.bias", "bias", "bool", True, "Learn a bias b", widget="toggle",
               help="Off: b stays 0 and the boundary goes through the origin.", arg="bias")
SEED = Setting("train.seed", "seed", "int", 0, "Seed (orders, random init)", low=0, high=10**6,
               arg="seed")
MAX_EPOCHS = Setting("train.max_epochs", "epochs", "int", 50, "Max epochs", low=1, high=1000,
                     arg="max_epochs")
TRAINING = (ORDER, INIT, W1, W2, B, ETA, BIAS, SEED, MAX_EPOCHS)

LECTURE = Setting("view.lecture", "lecture", "bool", False, "Lecture mode", widget="toggle",
                  help="Large type, thick lines and big markers for a projector. "
                       "Open a link with ?lecture=1 to start in it, sidebar closed.")

SHARED = (*DATA, *TRAINING, LECTURE)
