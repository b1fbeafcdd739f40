"""What is on screen, mirrored in the URL, so a link reproduces the exact view.

The URL state is the settings of ui.settings that have a link parameter.
Opening a link restores them once per session, before any widget is drawn;
an unknown or invalid value is ignored with a small notice and the default
is used. Every rerun writes the current values back, leaving defaults out so
links stay short. Pages do this through their ``Lesson`` (ui.lesson).
"""

from __future__ import annotations

import base64
import math
import re
import zlib
from collections.abc import Callable, Iterable
from urllib.parse import quote, unquote

import numpy as np
import streamlit as st

from datasets import Dataset
from datasets.builtin import BUILTIN, FORMER_NAMES, GENERATORS
from datasets.editing import to_csv
from datasets.loader import MAX_LABEL
from ui.outside import md
from ui.settings import (
    DATA,
    DATA_CHOICE_KEY,
    DATA_N,
    DATA_SEED,
    DATA_SHAPES,
    LECTURE,
    SHARED,
    Setting,
    whole,
)

_RESTORED = "url.restored"
_STEP = "url.step"  # a step from the link, waiting for the page's step controls
_UNLINKED = "url.unlinked"  # (points, characters) of own data too big for this view's link
MAX_LINK_POINTS = 60  # up to here the points are written out readably; above, packed
# The packed points' length at most: a link this long survives chat apps, LMSs and nginx's
# default 8 KB request line, with room for the settings.
MAX_LINK_CHARS = 4000
MAX_PACKED_POINTS = 20_000
_PACKED = "~"  # a packed value starts with it; a readable one never does
# the parameters of a link that are no Setting's: the data set, its points and names, the step
LINK_OWN = frozenset({"data", "pts", "cls", "cols", "step", "t"})


def slug(name: str) -> str:
    """A data set's name as links spell it: "XOR blobs (generator)" -> xor-blobs-generator."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


DATA_SLUGS = {slug(name): FORMER_NAMES.get(name, name)
              for name in [*FORMER_NAMES, *BUILTIN, *GENERATORS]}


def _shortest(value: float) -> str:
    """The shortest text that reads back as the same float: 0.1, 2, 1e-07 (never -0)."""
    text = repr(float(value) + 0.0)
    return text[:-2] if text.endswith(".0") else text


def encode_points(data: Dataset) -> str:
    """Points as one link value: 'x1,x2,+;x1,x2,-' up to 60 points, packed above.

    Parameters
    ----------
    data : Dataset
        The points (the class names go in their own field, ``cls``).

    Returns
    -------
    str
        Up to :data:`MAX_LINK_POINTS` points, written out; more, that same
        text deflated and base64url-encoded behind a ``~``. Every coordinate
        reads back as the same float. It may be longer than
        :data:`MAX_LINK_CHARS`: :func:`write_data` then leaves it out.

    Examples
    --------
    >>> encode_points(Dataset("d", np.array([[1.0, -0.5]]), np.array([1.0])))
    '1,-0.5,+'
    """
    text = ";".join(f"{_shortest(x1)},{_shortest(x2)},{'+' if label > 0 else '-'}"
                    for (x1, x2), label in zip(data.X, data.y, strict=True))
    if len(data) <= MAX_LINK_POINTS:
        return text
    packed = base64.urlsafe_b64encode(zlib.compress(text.encode("ascii"), 9))
    return _PACKED + packed.decode("ascii").rstrip("=")


def _unpack(text: str) -> str:
    """The written-out points inside a packed value; ValueError when it is not one."""
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        inflate = zlib.decompressobj()
        # a point is at most ~50 characters: stop inflating long before a bomb fills memory
        plain = inflate.decompress(raw, 50 * MAX_PACKED_POINTS)
        if inflate.unconsumed_tail or not inflate.eof:
            raise ValueError
        return plain.decode("ascii")
    except (ValueError, zlib.error, UnicodeDecodeError):
        raise ValueError("the packed points cannot be read (is the link cut short?)") from None


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


def decode_points(text: str, names: str | None, columns: str | None = None) -> Dataset:
    """The inverse of :func:`encode_points` (``columns``: the names of x1 and x2, as
    :func:`encode_names` writes them); ValueError says what is wrong."""
    packed = text.startswith(_PACKED)
    limit = MAX_PACKED_POINTS if packed else MAX_LINK_POINTS
    rows = [row for row in (_unpack(text[1:]) if packed else text).split(";") if row]
    if not 1 <= len(rows) <= limit:
        raise ValueError(f"expected 1 to {limit:,} points")
    X, y = [], []
    for row in rows:
        parts = row.split(",")
        if len(parts) == 3 and parts[2] == " ":  # a '+' typed into a link arrives as a space
            parts[2] = "+"
        if len(parts) != 3 or parts[2] not in "+-" or not parts[2]:
            raise ValueError("expected points written as x1,x2,+ or x1,x2,-")
        try:
            x1, x2 = float(parts[0]), float(parts[1])
        except ValueError:
            raise ValueError("expected points written as x1,x2,+ or x1,x2,-") from None
        if not (math.isfinite(x1) and math.isfinite(x2) and abs(x1) <= 1e6 and abs(x2) <= 1e6):
            raise ValueError("expected finite coordinates")
        X.append((x1, x2))
        y.append(1.0 if parts[2] == "+" else -1.0)
    classes = decode_names(names) if names else ("-1", "+1")
    columns = decode_names(columns) if columns else None
    return Dataset("Your points (from a link)", np.array(X), np.array(y), classes, columns)


def _notice(problems: list[str]) -> None:
    """Tell the user, once and quietly, which parts of the link were not used."""
    if problems:
        st.toast("Some of this link was not used: " + md("; ".join(problems)),
                 icon=":material/link_off:")


def _apply(settings) -> list[str]:
    """Put the link's value of each setting in the session; return what could not be used."""
    params = st.query_params
    problems = []
    for setting in settings:
        if setting.param is not None and setting.param in params:
            try:
                st.session_state[setting.key] = setting.parse(params[setting.param])
            except (ValueError, OverflowError) as error:
                problems.append(f"{setting.param}={params[setting.param][:20]!r} ({error})")
    return problems


def restore(settings: Iterable[Setting], *, page: str, shared: bool, your_data: str,
            set_user_data: Callable[[Dataset], None]) -> None:
    """Apply a link's values to the session before any widget exists.

    Parameters
    ----------
    settings : iterable of Setting
        The page's own settings: read once per page and session.
    page : str
        The page's name; ``"<page>.url_read"`` marks its link as read, after
        which the widgets own the values.
    shared : bool
        Whether the page draws the shared data and training settings: then the
        link's data set, points, step and shared settings are read too (once
        per session); otherwise only lecture mode is.
    your_data : str
        The picker's name for the user's own points.
    set_user_data : callable
        Stores points that came in the link.

    Notes
    -----
    Every value that cannot be used keeps its default and is named in one
    small notice.
    """
    problems = []
    if not st.session_state.get(_RESTORED):
        st.session_state[_RESTORED] = True
        problems += _apply(SHARED if shared else [LECTURE])
        if shared:
            problems += _restore_data_and_step(your_data, set_user_data)
    once_key = f"{page}.url_read"
    if not st.session_state.get(once_key):
        st.session_state[once_key] = True
        problems += _apply(settings)
    _notice(problems)


def _restore_data_and_step(your_data: str, set_user_data) -> list[str]:
    """The link's data set (a slug, or the points themselves) and step; what was not used."""
    params = st.query_params
    problems = []
    if "pts" in params:
        try:
            columns = params.get("cols")
            try:  # names of x1 and x2 that cannot be read leave the points their own
                decode_names(columns) if columns else None
            except ValueError as error:
                problems.append(f"cols ({str(error).replace('class names', 'column names')})")
                columns = None
            set_user_data(decode_points(params["pts"], params.get("cls"), columns))
            st.session_state[DATA_CHOICE_KEY] = your_data
        except (ValueError, OverflowError) as error:
            problems.append(f"pts ({error})")
    elif "data" in params:
        if params["data"] == slug(your_data):
            st.toast("This link was made on someone's own points, too many for a link: it "
                     "opens on the lecture notes' example instead. Ask for their CSV file and "
                     "upload it in the sidebar.", icon=":material/warning:",
                     duration="infinite")
        elif params["data"] in DATA_SLUGS:
            st.session_state[DATA_CHOICE_KEY] = DATA_SLUGS[params["data"]]
        else:
            problems.append(f"data={params['data'][:30]!r} (unknown data set)")
    for name in ("step", "t"):  # "t" in links made before the stepper
        if name in params:
            try:
                st.session_state[_STEP] = whole(0, 10**7)(params[name])
            except ValueError as error:
                problems.append(f"{name}={params[name][:20]!r} ({error})")
            break
    return problems


def pending_step() -> int | None:
    """The step a link asked for, handed over once to the first step controls drawn."""
    return st.session_state.pop(_STEP, None)


def write(settings: Iterable[Setting]) -> None:
    """Mirror the settings' current values in the URL; defaults are left out."""
    for setting in settings:
        if setting.param is None:
            continue
        value = st.session_state.get(setting.key, setting.default)
        if value == setting.default:
            st.query_params.pop(setting.param, None)
        else:
            st.query_params[setting.param] = setting.format(value)


def write_data(choice: str, data: Dataset, *, your_data: str) -> None:
    """Mirror the chosen data set: its slug, its generator's parameters, or the points."""
    for param in ("data", "pts", "cls", "cols", *(s.param for s in DATA)):
        st.query_params.pop(param, None)
    st.session_state.pop(_UNLINKED, None)
    if choice == your_data:
        points = encode_points(data)
        if len(points) <= MAX_LINK_CHARS:
            st.query_params["pts"] = points
            if data.classes != ("-1", "+1"):
                st.query_params["cls"] = encode_names(data.classes)
            if data.columns:  # the names of x1 and x2 on the axes and in the maths
                st.query_params["cols"] = encode_names(data.columns)
        else:  # the link says so, and opens on the default data with a notice
            st.query_params["data"] = slug(your_data)
            st.session_state[_UNLINKED] = (data, len(points))
        return
    st.query_params["data"] = slug(choice)
    if choice in GENERATORS:
        write([DATA_N, DATA_SEED, DATA_SHAPES[GENERATORS[choice].shape_name]])


def write_step(position: int) -> None:
    """Mirror the current step as step=k (none at step 0); an address that says so already is
    left as it is (each change is a message to the browser)."""
    params = st.query_params
    if "t" in params:
        del params["t"]
    if position and params.get("step") != str(position):
        params["step"] = str(position)
    elif not position and "step" in params:
        del params["step"]


def current_link() -> str:
    """The address of this exact view, for sharing."""
    base = str(st.context.url or "").split("?")[0]
    query = "&".join(f"{quote(k)}={quote(v, safe=',;-.')}"
                     for k, v in st.query_params.to_dict().items())
    return f"{base}?{query}" if query else base


def share_button(place: str = "toolbar") -> None:
    """A popover with the link to this view, in a box with a copy button.

    When the view is on the user's own points and they are too many for a link,
    it says so plainly and offers them as a CSV file instead. ``place`` names
    where it is drawn (a run may draw it beside the title, then in a toolbar).
    """
    with st.popover("Share", icon=":material/link:"):
        unlinked = st.session_state.get(_UNLINKED)
        if unlinked is None:
            st.markdown("**Link to this view** (data, settings and step):")
        else:
            data, length = unlinked
            st.warning(f"Your {len(data):,} points do not fit in a link (they would take "
                       f"{length:,} characters; a link holds {MAX_LINK_CHARS:,}). This link "
                       "opens these settings on the lecture notes' example, with a notice. "
                       "To share the points, download them as CSV; others upload the file "
                       "in the sidebar.", icon=":material/link_off:")
            st.download_button("Download the points (CSV)", to_csv(data),
                               file_name="my_points.csv", mime="text/csv",
                               icon=":material/download:", on_click="ignore",
                               key=f"url.share.csv.{place}")
            st.markdown("**Link to these settings** (without the points):")
        st.code(current_link(), language=None, wrap_lines=True)
