"""What is on screen, mirrored in the URL, so a link reproduces the exact view.

The URL state is a declared list of typed fields. Opening a link restores
them once per session, before any widget is drawn; an unknown or invalid
value is ignored with a small notice and the default is used. Every rerun
writes the current values back, leaving defaults out so links stay short.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, unquote

import numpy as np
import streamlit as st

from core.perceptron import ORDERS
from datasets import Dataset
from datasets.builtin import BUILTIN, FORMER_NAMES, GENERATORS
from datasets.loader import MAX_LABEL
from ui.outside import md
from ui.state import keep_alive

_RESTORED = "url.restored"
_STEP = "url.step"  # a step from the link, waiting for the page's step controls
MAX_LINK_POINTS = 60


def slug(name: str) -> str:
    """A data set's name as links spell it: "XOR blobs (generator)" -> xor-blobs-generator."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


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
class Field:
    """One URL parameter and the session key it mirrors."""

    param: str
    key: str
    parse: Callable[[str], Any]
    default: Any

    def format(self, value) -> str:
        if isinstance(value, bool):
            return "1" if value else "0"
        if isinstance(value, float):
            return f"{value:.12g}"
        return str(value)


DATA_SLUGS = {slug(name): FORMER_NAMES.get(name, name)
              for name in [*FORMER_NAMES, *BUILTIN, *GENERATORS]}

DATA_FIELDS = (
    Field("n", "data.n", whole(4, 1000), 40),
    Field("dseed", "data.seed", whole(0, 10**6), 0),
    # generators that share a parameter name share its field
    *{g.shape_name: Field(g.shape_name, f"data.{g.shape_name}", real(*g.shape_range[:2]),
                          g.shape_range[2]) for g in GENERATORS.values()}.values(),
)
TRAINING_FIELDS = (
    Field("order", "train.order", one_of(ORDERS), "cyclic"),
    Field("init", "train.init", one_of(("zeros", "random", "typed")), "zeros"),
    Field("w1", "train.w1", real(-1e6, 1e6), 0.0),
    Field("w2", "train.w2", real(-1e6, 1e6), 0.0),
    Field("b", "train.b", real(-1e6, 1e6), 0.0),
    Field("eta", "train.eta", real(0.001, 100.0), 1.0),
    Field("bias", "train.bias", flag, True),
    Field("seed", "train.seed", whole(0, 10**6), 0),
    Field("epochs", "train.max_epochs", whole(1, 1000), 50),
)
LECTURE = Field("lecture", "view.lecture", flag, False)


def encode_points(data: Dataset) -> str:
    """A small point set as 'x1,x2,+;x1,x2,-' (the class names go in their own field)."""
    return ";".join(f"{x1:.10g},{x2:.10g},{'+' if label > 0 else '-'}"
                    for (x1, x2), label in zip(data.X, data.y, strict=True))


def encode_names(classes: tuple[str, str]) -> str:
    """Two class names as one link value: each percent-encoded, then joined by a comma.

    Parameters
    ----------
    classes : (str, str)
        Any two names; commas, ``%``, ``&``, ``#``, quotes and non-ASCII text
        included, since each name is encoded whole.

    Returns
    -------
    str
        ``"no,yes"`` for plain names; ``"a%2Cb,c"`` for ``("a,b", "c")``.
    """
    return ",".join(quote(name, safe="") for name in classes)


def decode_names(text: str) -> tuple[str, str]:
    """The inverse of :func:`encode_names`; ValueError says what is wrong."""
    parts = text.split(",")
    if len(parts) != 2:
        raise ValueError("expected two class names")
    try:
        names = tuple(unquote(part, errors="strict") for part in parts)
    except UnicodeDecodeError:
        raise ValueError("expected two class names in UTF-8") from None
    if not all(0 < len(name) <= MAX_LABEL for name in names):
        raise ValueError(f"expected two class names of 1 to {MAX_LABEL} characters")
    return names


def decode_points(text: str, names: str | None) -> Dataset:
    """The inverse of :func:`encode_points`; ValueError says what is wrong."""
    rows = [row for row in text.split(";") if row]
    if not 1 <= len(rows) <= MAX_LINK_POINTS:
        raise ValueError(f"expected 1 to {MAX_LINK_POINTS} points")
    X, y = [], []
    for row in rows:
        parts = row.split(",")
        if len(parts) != 3 or parts[2] not in "+-" or not parts[2]:
            raise ValueError("expected points written as x1,x2,+ or x1,x2,-")
        x1, x2 = float(parts[0]), float(parts[1])
        if not (math.isfinite(x1) and math.isfinite(x2) and abs(x1) <= 1e6 and abs(x2) <= 1e6):
            raise ValueError("expected finite coordinates")
        X.append((x1, x2))
        y.append(1.0 if parts[2] == "+" else -1.0)
    classes = decode_names(names) if names else ("-1", "+1")
    return Dataset("Your points (from a link)", np.array(X), np.array(y), classes)


def _notice(problems: list[str]) -> None:
    """Tell the user, once and quietly, which parts of the link were not used."""
    if problems:
        st.toast("Some of this link was not used: " + md("; ".join(problems)),
                 icon=":material/link_off:")


def _apply(fields) -> list[str]:
    """Put the link's value of each field in the session; return what could not be used."""
    params = st.query_params
    problems = []
    for field in fields:
        if field.param in params:
            try:
                st.session_state[field.key] = field.parse(params[field.param])
            except (ValueError, OverflowError) as error:
                problems.append(f"{field.param}={params[field.param][:20]!r} ({error})")
    return problems


def restore_fields(fields, *, once_key: str) -> None:
    """Apply the link's values of a page's own fields, once per session, before its widgets exist.

    Parameters
    ----------
    fields : iterable of Field
        The page's own fields.
    once_key : str
        Session key that marks the link as read, e.g. ``"margin.url_read"``:
        after the first run the widgets own the values.

    Notes
    -----
    A value that cannot be used keeps the default and is named in the same
    small notice as a bad shared value.
    """
    if st.session_state.get(once_key):
        return
    st.session_state[once_key] = True
    _notice(_apply(fields))


def page_fields(fields, *, page: str) -> None:
    """A page's own link fields: read from the link once per session, then kept at defaults.

    The widgets that own these keys are not drawn on other pages, so their
    values are written back each run (as for the shared settings).
    """
    restore_fields(fields, once_key=f"{page}.url_read")
    keep_alive({field.key: field.default for field in fields})


def restore(*, your_data: str, set_user_data: Callable[[Dataset], None]) -> None:
    """Apply the link's values to the session, once per session, before widgets exist."""
    if st.session_state.get(_RESTORED):
        return
    st.session_state[_RESTORED] = True
    params = st.query_params
    problems = _apply((*DATA_FIELDS, *TRAINING_FIELDS, LECTURE))
    if "pts" in params:
        try:
            set_user_data(decode_points(params["pts"], params.get("cls")))
            st.session_state["data.choice"] = your_data
        except (ValueError, OverflowError) as error:
            problems.append(f"pts ({error})")
    elif "data" in params:
        if params["data"] in DATA_SLUGS:
            st.session_state["data.choice"] = DATA_SLUGS[params["data"]]
        else:
            problems.append(f"data={params['data'][:30]!r} (unknown data set)")
    for name in ("step", "t"):  # "t" in links made before the stepper
        if name in params:
            try:
                st.session_state[_STEP] = whole(0, 10**7)(params[name])
            except ValueError as error:
                problems.append(f"{name}={params[name][:20]!r} ({error})")
            break
    _notice(problems)


def pending_step() -> int | None:
    """The step a link asked for, handed over once to the first step controls drawn."""
    return st.session_state.pop(_STEP, None)


def write(fields, values: dict | None = None) -> None:
    """Mirror the fields' current values in the URL; defaults are left out."""
    for field in fields:
        value = (values or {}).get(field.param, st.session_state.get(field.key, field.default))
        if value == field.default:
            st.query_params.pop(field.param, None)
        else:
            st.query_params[field.param] = field.format(value)


def write_data(choice: str, data: Dataset, *, your_data: str) -> None:
    """Mirror the chosen data set: its slug, its generator's parameters, or the points."""
    for param in ("data", "pts", "cls", *(f.param for f in DATA_FIELDS)):
        st.query_params.pop(param, None)
    if choice == your_data:
        if len(data) <= MAX_LINK_POINTS:
            st.query_params["pts"] = encode_points(data)
            if data.classes != ("-1", "+1"):
                st.query_params["cls"] = encode_names(data.classes)
        return
    st.query_params["data"] = slug(choice)
    if choice in GENERATORS:
        shape = f"data.{GENERATORS[choice].shape_name}"
        write([f for f in DATA_FIELDS if f.key in ("data.n", "data.seed", shape)])


def write_step(position: int) -> None:
    """Mirror the current step as step=k (none at step 0)."""
    st.query_params.pop("t", None)
    if position:
        st.query_params["step"] = str(position)
    else:
        st.query_params.pop("step", None)


def current_link() -> str:
    """The address of this exact view, for sharing."""
    base = str(st.context.url or "").split("?")[0]
    query = "&".join(f"{quote(k)}={quote(v, safe=',;-.')}"
                     for k, v in st.query_params.to_dict().items())
    return f"{base}?{query}" if query else base


def share_button() -> None:
    """A popover with the link to this view, in a box with a copy button."""
    with st.popover("Share", icon=":material/link:", width="stretch"):
        st.markdown("**Link to this view** (data, settings and step):")
        st.code(current_link(), language=None, wrap_lines=True)
