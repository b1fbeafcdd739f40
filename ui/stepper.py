"""The stepper: a recorded run stepped through in the browser, one mechanism for every lesson.

The server records a run once and sends it once, packed as bytes: a small JSON
header (the figure's skeleton, the layers to draw, texts) and typed columns
(X, y, W, b, activation, index, updated, epoch, mistakes, and whatever a lesson
adds). The browser then steps, plays and explains on its own (ui/stepper_assets/);
a press sends nothing. The position comes back only when the student stops for a
moment, through a fragment rerun that keeps session state and ``step=k`` in the
address bar. The position is never part of the data: an unchanged run is sent as a
cache reference, and a reply can never move the student back.
"""

from __future__ import annotations

import base64
import functools
import gzip
import hashlib
import json
import os
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from functools import partial
from pathlib import Path

import numpy as np
import plotly
import plotly.graph_objects as go
import plotly.io as pio
import streamlit as st

from core.decimals import MAX_DECIMALS, decimal_integers
from core.trace import Outcome, Trace
from datasets import Dataset
from ui import first_screen, js_modules, url_state
from ui.lecture import lecture_mode
from viz import theme
from viz.palette import (
    BLACK,
    BOUNDARY,
    CLEAR,
    CURRENT_BAND,
    GHOST,
    MISTAKE,
    UPDATE,
    VISITED,
    WHITE,
)
from viz.plane import (
    CHART_CONFIG,
    PLANE_HEIGHT,
    PLANE_HEIGHT_LECTURE,
    axis_titles,
    house_layout,
    legend_at_foot,
    named_figure_json,
    point_traces,
    square_axes,
    view_box,
)
from viz.projector import MIN_FONT, for_projector

ROOT = Path(__file__).resolve().parents[1]
ASSETS = Path(__file__).with_name("stepper_assets")
STATIC = ROOT / "static"  # served at app/static/ (server.enableStaticServing)
# The page's Plotly: plotly.js's own cartesian bundle (4.1.1, the version plotly 7.1 writes
# figures for; MIT, vendor/plotly.js-LICENSE), a third of the whole bundle's 4.7 MB. A phone
# fetches and evaluates it before the first chart: the whole bundle took a page's thread for
# seconds (bench/README.md, "A lesson opens"). Its trace types are the only ones a stepper's
# figure may hold (figure_json refuses any other), and a chart's that ui/chart.py draws with it.
# Kept gzipped (a third of its 1.5 MB: the repository keeps no file over 1 MB but its
# screenshots); plotly_js() gives it whole.
PLOTLY_GZ = ASSETS / "vendor" / "plotly-cartesian.min.js.gz"
# The whole bundle (4.8 MB), for a chart the page's cannot draw (a 3-D one): the plotly
# package's own plotly.js, of the same version, served at app/static/plotly-whole.min.js and
# fetched only by a page that holds such a chart, once that page's first picture is drawn
# (plotly.js's loadWholePlotly): Streamlit's st.plotly_chart took the page's thread for its
# own whole Plotly before the lesson's first chart.
PLOTLY_WHOLE = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"
PLOTLY_WHOLE_NAME = "plotly-whole.min.js"
PLOTLY_TRACES = frozenset({"bar", "box", "contour", "heatmap", "histogram", "histogram2d",
                           "histogram2dcontour", "image", "pie", "scatter", "scatterternary",
                           "violin"})
COMPONENT = "perceptron_lab.stepper"
PLANE_LAYERS = ("boundary", "ghost", "normal", "visited", "weights", "explain")
_DTYPES = {"f8": np.float64, "f4": np.float32, "i4": np.int32, "i2": np.int16, "i1": np.int8,
           "u1": np.uint8}


KEYS_HELP = """
| key | does |
| --- | --- |
| → | Step: visit the next example |
| ← | Back: undo the last step |
| N | Next mistake: jump to the next update |
| Home | Reset: back to the start |
| Tab / Enter | move between and press any control |

The keys work wherever the page has focus, except while you type in a field.
▶ Play runs the steps at the chosen speed; *Predict* asks before each step.
"""


def keys_button() -> None:
    """A popover that lists the keyboard shortcuts."""
    with st.popover("Keys", icon=":material/keyboard:"):
        st.markdown(KEYS_HELP)


@functools.cache
def plotly_js() -> bytes:
    """The page's Plotly, whole (PLOTLY_GZ unzipped)."""
    return gzip.decompress(PLOTLY_GZ.read_bytes())


def serve_file(name: str, data: bytes) -> Path:
    """``data`` as ./static/``name`` (app/static/``name`` to the browser), written only where
    the copy there differs."""
    target = STATIC / name
    if not target.exists() or target.read_bytes() != data:
        STATIC.mkdir(exist_ok=True)
        # a copy of this call's own: several processes may start at once (a course
        # server's, the tests' workers) and each must replace the target with a whole file
        handle, temporary = tempfile.mkstemp(suffix=".part", dir=STATIC)
        os.close(handle)
        Path(temporary).write_bytes(data)
        Path(temporary).replace(target)  # atomic: a request never sees half a file
    return target


def serve_plotly() -> Path:
    """Write the page's Plotly (plotly_js) to ./static/plotly.min.js, and the whole bundle
    (PLOTLY_WHOLE) beside it as plotly-whole.min.js, once, for the browser to fetch and cache.

    Returns
    -------
    pathlib.Path
        The page's served copy. Copies rather than links: Streamlit's static route
        refuses files that resolve outside ./static.
    """
    serve_file(PLOTLY_WHOLE_NAME, PLOTLY_WHOLE.read_bytes())
    return serve_file("plotly.min.js", plotly_js())


# The page's script: the stepper (stepper_assets/stepper.js) and its layers (layers/, each a
# module that adds itself to the stepper's LAYERS: they are built and drawn in this order),
# with every module they use, each joined after the modules it uses, as the header at the top
# of each file declares (``// @uses``, ``// @provides``: ui/js_modules.py).
JS_LAYERS = ("plane", "kernel", "explain", "companion", "weights", "pair", "class")
_STEPPER = js_modules.order([ASSETS / "stepper.js", *(ASSETS / "layers" / f"{name}.js"
                                                       for name in JS_LAYERS)])
JS_MODULES = tuple(path.stem for path in _STEPPER if path.parent.name != "layers")
# The page's other charts (ui/chart.py) are a component of their own, with this script
JS_CHART = tuple(path.stem for path in js_modules.order([ASSETS / "chart.js"]))
# every module file, once
JS_FILES = tuple(dict.fromkeys((*JS_MODULES, *JS_LAYERS, *JS_CHART)))


def module_path(name: str) -> Path:
    """The file of one of the page's modules or layers."""
    return ASSETS / "layers" / f"{name}.js" if name in JS_LAYERS else ASSETS / f"{name}.js"


def script(names: tuple[str, ...] = (*JS_MODULES, *JS_LAYERS)) -> str:
    """One component's ES module: these modules and those they use, each after the ones it
    uses (the stepper's: :data:`JS_MODULES`, then :data:`JS_LAYERS`)."""
    return js_modules.join(js_modules.order(module_path(name) for name in names))


# The stepper's colours, every one the palette's: stepper.css takes them as these properties
# (a run's header sets the first four again, as it may its own). The colours of its text on
# a page (--pl-mistake-text, --pl-on-primary) are the page's, light or dark (ui/theme.py);
# without the page (the offline export) stepper.css falls back to these.
COLOURS = {"boundary": BOUNDARY, "ghost": GHOST, "visited": VISITED, "update": UPDATE,
           "band": CURRENT_BAND, "mistake": MISTAKE, "halo": WHITE}


# What figure.js moves a chart's colours by on a dark page (viz.theme's rule and colours)
THEME = {"ground": theme.GROUND, "ink": theme.INK, "white": WHITE, "black": BLACK, "clear": CLEAR}


def style() -> str:
    """The component's CSS: the palette's colours (and on a dark page, .pl-dark, theirs there)
    and the projector's least type (viz.projector.MIN_FONT, for what the stepper writes on its
    chart), then stepper.css."""
    colours = " ".join(f"--pl-{name}: {colour};" for name, colour in
                       [*COLOURS.items(), *((f"dark-{n}", c) for n, c in THEME.items())])
    dark = " ".join(f"--pl-{name}: {theme.dark_colour(colour)};"
                    for name, colour in COLOURS.items())
    return (f".pl-stepper {{ {colours} --pl-least-type: {MIN_FONT}px; }}\n"
            f".pl-stepper.pl-dark {{ {dark} }}\n"
            + (ASSETS / "stepper.css").read_text())


serve_plotly()
_mount = st.components.v2.component(COMPONENT, css=style(), js=script(), isolate_styles=False)

# A lesson's page starts loading its Plotly as it opens, with the page's first message (the
# same load the steppers and charts wait for, plotly.js): a chart's component mounts only once
# the script has run down to it, and its Plotly then took another 1-1.6 s to load on a lesson's
# link (bench/lesson_open.py)
PLOTLY_EARLY = ("<script>(() => {\n" + script(("plotly",))
                + "\nloadPlotly().catch(() => {});\n})();</script>")


# ---------------------------------------------------------------- packing


def pack(header: dict, columns: dict[str, np.ndarray]) -> bytes:
    """A run as bytes: uint32 header length, the JSON header, then 8-byte aligned columns.

    Parameters
    ----------
    header : Header or dict
        JSON-serialisable facts about the run. ``columns`` and ``digest`` are
        added to it.
    columns : dict of str to ndarray
        1-D or 2-D arrays of a dtype in float64, float32, int32, int16, int8, uint8.

    Returns
    -------
    bytes
        What the page's ``unpack`` (ui/stepper_assets/wire.js) reads.
        ``header["digest"]`` changes whenever anything in the bytes does.

    Examples
    --------
    >>> blob = pack({"steps": 1}, {"b": np.array([0.0, 1.0])})
    >>> len(blob) % 8, int.from_bytes(blob[:4], "little") % 8
    (0, 4)
    """
    header = dict(header)  # a Header, or a test's plain dict
    codes = {np.dtype(v): k for k, v in _DTYPES.items()}
    arrays, layout = [], {}
    for name, values in columns.items():
        values = np.ascontiguousarray(values)
        if values.dtype not in codes:
            raise ValueError(f"column {name!r}: dtype {values.dtype} is not packable")
        arrays.append((name, values))
    body = bytearray()
    offsets = {}
    for name, values in arrays:
        body.extend(b"\0" * (-len(body) % 8))
        offsets[name] = len(body)
        body.extend(values.tobytes())
    digest = hashlib.blake2b(bytes(body), digest_size=8)
    digest.update(json.dumps(header, sort_keys=True).encode())
    # the header's length moves the columns: size it with over-long offsets, then pad
    for name, values in arrays:
        layout[name] = [codes[values.dtype], 10**12, int(values.size),
                        int(values.shape[1]) if values.ndim == 2 else 1]
    full = {**header, "digest": digest.hexdigest(), "columns": layout}
    text = json.dumps(full, separators=(",", ":")).encode()
    start = 4 + len(text)
    start += -start % 8
    for name in layout:
        layout[name][1] = start + offsets[name]
    text = json.dumps(full, separators=(",", ":")).encode()
    text += b" " * (start - 4 - len(text))  # JSON allows trailing spaces
    if 4 + len(text) != start:
        raise AssertionError("header does not fit its own offsets")
    return len(text).to_bytes(4, "little") + text + bytes(body)


def run_id(X, y, settings: dict) -> str:
    """A short fingerprint of a run: its data and its settings."""
    h = hashlib.blake2b(digest_size=8)
    h.update(np.ascontiguousarray(X, dtype=float).tobytes())
    h.update(np.ascontiguousarray(y, dtype=float).tobytes())
    h.update(repr(sorted(settings.items())).encode())
    return h.hexdigest()


def epoch_columns(trace: Trace) -> dict:
    """The epoch after each step, as the steps where it changes and its value from each: a few
    bytes per epoch, not two per step (the page's wire.js spreads them over the steps)."""
    epoch = np.asarray(trace.epoch, dtype=np.int64)
    at = np.flatnonzero(np.r_[True, epoch[1:] != epoch[:-1]])
    return {"epoch_k": at.astype(np.int32), "epoch_v": epoch[at].astype(np.int32)}


def exact_scale(trace: Trace, X) -> tuple[dict | None, bool]:
    """An exact run's common scale, ``{"x": kx, "w": kw}``: X times 10^kx and every w and b
    times 10^kw are integers (the page takes its decisions on them), and whether the page can
    write each a = w.x + b from them as one division by 10^(kx + kw) of integers below 2^53,
    which is the correctly rounded a the run reports. (None, False) for a run in floats."""
    if not getattr(trace, "exact", False) or not len(trace.W):
        return None, False
    xs = decimal_integers(X)
    ws = decimal_integers(np.column_stack([trace.W, trace.b]), max_decimals=2 * MAX_DECIMALS)
    if xs is None or ws is None:
        return None, False
    (kx, Xi), (kw, Wi) = xs, ws
    reach = (float(np.max(np.abs(Xi), initial=0.0)) * float(np.max(np.abs(Wi[:, :-1]), initial=0.0))
             * Xi.shape[1] + float(np.max(np.abs(Wi[:, -1]), initial=0.0)) * 10.0**kx)
    return {"x": kx, "w": kw}, bool(reach < 2**53 and kx + kw <= 22)


# ---------------------------------------------------------------- what a lesson sends


@dataclass(frozen=True)
class Header(Mapping):
    """The run's header: the facts the page (ui/stepper_assets/) reads beside the columns.

    One typed structure for every run the stepper draws; :func:`run_header` builds it, a
    lesson changes a field with :meth:`with_`. It reads as the JSON object that travels
    (a Mapping of its fields that are not None), so ``{**header}`` and ``header["steps"]``
    are what the page sees.
    """

    steps: int
    classes: tuple[str, str]
    layers: tuple[str, ...]
    figure: dict
    point_traces: tuple = ()
    eta: float = 1.0
    bias: bool = True
    lecture: bool = False
    palette: dict = field(default_factory=dict)
    result: dict = field(default_factory=lambda: {"converged": False, "message": ""})
    words: dict = field(default_factory=dict)
    weights_figure: dict | None = None
    t0: int | None = None  # a window of a longer run: its steps are t0 + k
    svm: dict | None = None  # {"lam", "eta0"}: the SVM's descent, its maths
    descent: bool | None = None  # the page rebuilds W and b from row 0 (wire.js's descend)
    held: tuple[str, ...] | None = None  # columns sent only at the start and at updates
    averaged: bool | None = None  # the page averages the weights (running means)
    kernel: dict | None = None  # the kernel perceptron's kernel
    scale: dict | None = None  # an exact run's common scale {"x": kx, "w": kw} (exact_scale)
    exact: bool | None = None  # False: a run in floats (ui/floats.py)
    floats: dict | None = None  # the floats' mark and its reason
    lead: str | None = None  # other steppers follow this one
    follow: str | None = None  # the stepper this one follows
    name: str | None = None  # the run's name, over its maths where another run's are beside
    companion: dict | None = None  # another run of the same data stepped with this one
    features: tuple[str, str] | None = None  # the user's names for x1 and x2 (Dataset.columns)

    def wire(self) -> dict:
        """The header as JSON takes it: every field that is not None."""
        out = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if value is not None:
                out[f.name] = list(value) if isinstance(value, tuple) else value
        return out

    def with_(self, **changes) -> Header:
        """The same header with these fields changed."""
        return replace(self, **changes)

    def __getitem__(self, name: str):
        return self.wire()[name]

    def __iter__(self):
        return iter(self.wire())

    def __len__(self) -> int:
        return len(self.wire())


def run_header(data: Dataset, steps: int, *, eta: float, bias: bool, layers, result: dict,
               figure: dict, point_traces=(), lecture: bool = False, palette: dict | None = None,
               words: dict | None = None, **more) -> Header:
    """The one place a run's header is built: the common facts, and ``more`` of
    :class:`Header`'s fields."""
    more.setdefault("features", data.columns)
    figure = named_figure_json(figure, data.columns)  # the student's names on the plane's axes
    return Header(steps=int(steps), classes=tuple(data.classes), layers=tuple(layers),
                  figure=figure, point_traces=tuple(point_traces), eta=float(eta),
                  bias=bool(bias), lecture=bool(lecture), result=result, words=words or {},
                  palette=palette or {"boundary": BOUNDARY, "ghost": GHOST, "visited": VISITED,
                                      "update": UPDATE}, **more)


@dataclass(frozen=True)
class Run:
    """A run as the stepper sends it: its id, header (without the position) and columns."""

    id: str
    steps: int
    header: Header
    columns: dict


# what a companion's header leaves out: its plane is the run's own
_COMPANION_DROPS = ("figure", "point_traces", "weights_figure", "columns", "digest")


def with_companion(run: Run, other: Run) -> Run:
    """``run`` with ``other`` (a run of the same data and length) stepped with it in one
    stepper: ``other``'s boundary on the same plane, its maths beside the run's.

    ``other``'s header travels as ``header["companion"]``, its columns as
    ``"companion.<name>"`` (the points are the run's own); the page (wire.js) rebuilds it as
    a run of its own. On a projector two runs on one plane leave the picture the screen's
    height, which two charts side by side, each over its maths, cannot.
    """
    if other.steps != run.steps or not np.array_equal(other.columns["X"], run.columns["X"]):
        raise ValueError("a companion run steps the same points as long as the run")
    header = {key: value for key, value in other.header.wire().items()
              if key not in _COMPANION_DROPS}
    columns = {**run.columns, **{f"companion.{name}": values for name, values
                                 in other.columns.items() if name not in ("X", "y")}}
    return Run(f"{run.id}+{other.id}", run.steps,
               run.header.with_(companion=header,
                                layers=(*run.header.layers, "companion")), columns)


def figure_json(fig: go.Figure, *, lecture: bool = False) -> dict:
    """A figure as the browser's Plotly takes it, its legend clear of the axes; on a projector,
    drawn for one.

    Parameters
    ----------
    fig : plotly Figure
        Not changed.
    lecture : bool, default False
        Thick lines, big markers and no text under ``viz.projector.MIN_FONT``
        pixels (``viz.projector.for_projector``).

    Raises
    ------
    ValueError
        A trace of a type the page's Plotly does not draw (PLOTLY_TRACES).

    Examples
    --------
    >>> fig = go.Figure(layout=dict(legend=dict(font=dict(size=11))))
    >>> figure_json(fig, lecture=True)["layout"]["legend"]["font"]["size"]
    18
    """
    fig = legend_at_foot(fig)
    if lecture:
        fig = for_projector(go.Figure(fig))
    kinds = {trace.type for trace in fig.data} - PLOTLY_TRACES
    if kinds:
        raise ValueError(f"the page's Plotly (PLOTLY_GZ) cannot draw {', '.join(sorted(kinds))}: "
                         f"a stepper's figure holds only {', '.join(sorted(PLOTLY_TRACES))}")
    return json.loads(pio.to_json(fig, validate=False, remove_uids=True))


def legend_only(name: str, color: str, *, dash: str | None = None, symbol: str | None = None):
    """An empty trace that only names an overlay's mark in the legend."""
    if symbol:
        return go.Scatter(x=[None], y=[None], mode="markers", name=name, hoverinfo="skip",
                          marker=dict(size=14, symbol=symbol, color=CLEAR,
                                      line=dict(color=color, width=3)))
    return go.Scatter(x=[None], y=[None], mode="lines", name=name, hoverinfo="skip",
                      line=dict(color=color, width=3, dash=dash))


def plane_skeleton(data: Dataset, *, height: int = PLANE_HEIGHT, lecture: bool = False) -> dict:
    """The plane's Plotly figure without its points' coordinates, and the legend of the overlay.

    The point traces are the first two (class -1, then +1); the browser fills
    their x and y from the X and y columns. Built once per process for a data set, size
    and mode, and shared by every session that draws it (a hall opening one link builds it
    once, not 300 times): read it, never change it.
    """
    X = np.ascontiguousarray(data.X, dtype=float)
    look = hashlib.blake2b(X.tobytes(), digest_size=16)
    look.update(np.ascontiguousarray(data.y, dtype=float).tobytes())
    look.update(json.dumps([list(data.classes), data.columns]).encode())
    return _plane_skeleton(look.hexdigest(), int(height), bool(lecture), data)


@st.cache_resource(max_entries=64, show_spinner=False)
def _plane_skeleton(digest: str, height: int, lecture: bool, _data: Dataset) -> dict:
    X, y = np.asarray(_data.X, dtype=float), np.asarray(_data.y)
    traces = point_traces(X, y, _data.classes)
    for trace in traces:
        trace.x, trace.y = [], []
    fig = go.Figure([*traces,
                     legend_only("boundary w·x + b = 0", BOUNDARY),
                     legend_only("boundary before", GHOST, dash="dash"),
                     legend_only("visited example", VISITED, symbol="circle")])
    square_axes(fig, view_box(X), axis_titles(_data.columns))
    house_layout(fig, height)
    return figure_json(fig, lecture=lecture)


def weights_skeleton(W: np.ndarray, *, height: int = 320, lecture: bool = False) -> dict:
    """Weight space with fixed axes that hold every w of the run, and the overlay's legend.

    Shared like :func:`plane_skeleton`, by the axes' reach, size and mode: read it only.
    """
    reach = max(float(np.max(np.abs(W))) if W.size else 0.0, 1e-3) * 1.3
    return _weights_skeleton(reach, int(height), bool(lecture))


@st.cache_resource(max_entries=64, show_spinner=False)
def _weights_skeleton(reach: float, height: int, lecture: bool) -> dict:
    fig = go.Figure([legend_only("w before", GHOST), legend_only("η y x", UPDATE),
                     legend_only("w after", BOUNDARY)])
    square_axes(fig, ((-reach, reach), (-reach, reach)), ("w₁", "w₂"))
    house_layout(fig, height)
    return figure_json(fig, lecture=lecture)


def perceptron_run(data: Dataset, trace: Trace, settings: dict, result: Outcome, *,
                   lecture: bool = False, layers=PLANE_LAYERS, figure: go.Figure | None = None,
                   words: dict | None = None, extra: dict | None = None,
                   descent: dict | None = None) -> Run:
    """A perceptron run as the stepper draws it on the plane, with weight space and maths.

    Parameters
    ----------
    data : Dataset
        The points the run visited.
    trace : Trace
        The recorded run.
    settings : dict
        The run's settings (``eta`` and ``bias`` are shown in the maths).
    result : Outcome
        How the run ends (shown in the status line at its last step).
    lecture : bool, default False
        Draw for a projector: larger type, lines and markers.
    layers : sequence of str
        What the browser draws, and nothing it does not name (the plane's
        ``"boundary"``, its ``"normal"``, the ``"ghost"`` of the boundary before an
        update, ``"visited"``'s ring): any of ``PLANE_LAYERS``, ``"band"`` (the margin
        band of the current boundary and its closest point, and the margin in the
        status line), ``"errors"`` (training errors in the status line).
    figure : plotly Figure, optional
        The lesson's own static figure of the plane (with its points and fixed
        axis ranges) to draw the moving parts over; by default the house plane.
    words : dict, optional
        ``{"mistakes": "violation"}`` names what ``mistakes`` counts; ``"window"``
        what a window of a longer run is (``"of the period"``), its steps then shown
        with the run's own t; ``"boundary"`` what the arrow at the view's edge calls
        the boundary when it lies outside the view (``"boundary"``).
    extra : dict of str to ndarray, optional
        More columns, e.g. ``stops`` (uint8 per step: where Next mistake stops,
        when a lesson's clock stops at more than this run's updates).
    descent : dict, optional
        ``{"lam": ..., "eta0": ...}``: the run is the SVM's subgradient descent
        (core.descent.svm_sgd). The page writes its maths, and rebuilds its W and b
        from their start (the penalty shrinks w on every step) and each a, operation for
        operation as core takes them (tests hold wire.js to the recorded bits).

    Returns
    -------
    Run
        For :func:`stepper`.
    """
    X = np.asarray(data.X, dtype=float)
    more = {}
    if figure is None:  # built only when used (16 ms of CPU)
        more.update(figure=plane_skeleton(
            data, height=PLANE_HEIGHT_LECTURE if lecture else PLANE_HEIGHT, lecture=lecture),
                    point_traces=([0, -1], [1, 1]))
    else:
        more.update(figure=figure_json(figure, lecture=lecture))
    if "weights" in layers:
        more["weights_figure"] = weights_skeleton(trace.W, height=384 if lecture else 320,
                                                  lecture=lecture)
    if trace.steps and trace.t[1] != 1:  # a window of a longer run: show its own t
        more["t0"] = int(trace.t[1]) - 1
    columns = {"X": X, "y": np.asarray(data.y).astype(np.int8),
               "index": trace.index.astype(np.int16 if len(X) < 2**15 else np.int32),
               "updated": trace.updated.astype(np.uint8)}
    if descent is not None:
        # the page rebuilds W and b from row 0 as core/descent.py steps (wire.js's descend;
        # tests/browser/js/test_wire.py holds the two to the same bits)
        more.update(svm={"lam": float(descent["lam"]), "eta0": float(descent["eta0"])},
                    descent=True)
        columns.update(W=np.asarray(trace.W[:1], dtype=np.float64),
                       b=np.asarray(trace.b[:1], dtype=np.float64))
    else:
        weights = _weights(trace)
        if "held" in weights:
            more["held"] = tuple(weights.pop("held"))
        columns.update(weights)
    scale, exact_a = exact_scale(trace, X)
    if scale is not None:
        more["scale"] = scale
    if not exact_a and descent is None:
        # the page writes a = w.x + b itself from an exact run's integers, and the SVM's (in
        # floats, marked ≈) as its descent does; another run in floats sends its own
        columns["activation"] = np.asarray(trace.activation, dtype=np.float64)
    columns.update(epoch_columns(trace))
    columns.update(extra or {})
    counted = trace.mistakes[0] + np.cumsum(np.r_[0, trace.updated[1:]])
    if np.array_equal(counted, trace.mistakes):  # the browser counts them itself
        columns["mistakes0"] = np.asarray(trace.mistakes[:1], dtype=np.int32)
    else:  # e.g. a part of a run whose count started before it
        columns["mistakes"] = trace.mistakes.astype(np.int32)
    header = run_header(data, trace.steps, eta=settings["eta"], bias=settings["bias"],
                        layers=layers, lecture=lecture, words=words,
                        result={"converged": bool(result.converged), "message": result.message},
                        **more)
    # the data, the settings and the run itself: two runs of one setting (e.g. a part of it)
    # never share an id, so the browser never carries a step from one to the other
    ident = run_id(np.concatenate([X.ravel(), trace.W.ravel(), trace.b]), data.y,
                   {**settings, "steps": trace.steps})
    return Run(ident, trace.steps, header, columns)


def _weights(trace: Trace) -> dict:
    """W and b as float64 (every number shown exact), only at the start and at updates when
    they change nowhere else (the perceptron's; not the SVM's decay): a few KB, not 24 per step.
    """
    W, b = np.asarray(trace.W, dtype=np.float64), np.asarray(trace.b, dtype=np.float64)
    kept = trace.updated.astype(bool).copy()
    kept[:1] = True
    rows = np.cumsum(kept) - 1
    at = np.flatnonzero(kept)
    # bit for bit: a -0.0 must not pass for 0.0
    if np.array_equal(W[at][rows].view(np.int64), W.view(np.int64)) and \
            np.array_equal(b[at][rows].view(np.int64), b.view(np.int64)):
        return {"W": W[at], "b": b[at], "held": ["W", "b"]}
    return {"W": W, "b": b}


# ---------------------------------------------------------------- on the page


def accept_position(value, *, run: str | None, steps: int) -> int | None:
    """The step a sync reports, or None when it is for another run or malformed.

    Parameters
    ----------
    value : object
        What the browser set: ``{"run": <run id>, "k": <step>}``.
    run : str or None
        The id of the run on the page now.
    steps : int
        Its last step.

    Examples
    --------
    >>> accept_position({"run": "a", "k": 3}, run="a", steps=10)
    3
    >>> accept_position({"run": "old", "k": 3}, run="a", steps=10) is None
    True
    """
    if not isinstance(value, dict) or value.get("run") != run or run is None:
        return None
    k = value.get("k")
    if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k <= steps:
        return None
    return k


def _on_position(key: str, address: bool) -> None:
    """The browser's debounced position: keep it in the session (and the address bar)."""
    state = st.session_state.get(key) or {}
    k = accept_position(state.get("position"), run=st.session_state.get(f"{key}.stepper.run"),
                        steps=int(st.session_state.get(f"{key}.stepper.steps", 0)))
    if k is not None:
        st.session_state[f"{key}.t"] = k
        if address:
            url_state.write_step(k)


# the Keys and Share row over a stepper (its key's start): a phone's page puts it under the run
TOOLBAR_KEY = "pl-toolbar"


# a toolbar's place held for the page's next run (a class's first screen: ui.first_screen)
LATER = "later"


def _toolbar(key: str, toolbar: bool | str = True) -> None:
    """The Keys help and the Share link, side by side at their own widths (never cut short);
    on a wide window at the top of the steps' column (stepper.css, .pl-toolbar). Its place
    only, with ``toolbar=LATER``."""
    if toolbar == LATER:
        st.empty()
        return
    with st.container(horizontal=True, gap="small", key=f"{TOOLBAR_KEY}-{key}"):
        keys_button()
        with st.container(width="content"):  # its popover stretches to what holds it
            url_state.share_button()


@st.fragment
def _synced(key: str, blob: bytes, toolbar: bool, panels, address: bool, lead: bool) -> None:
    """The component inside a fragment: a sync reruns this alone, with the same bytes.

    The Share link is drawn here too, so that it holds the step the browser reported, and
    the lesson's panels that follow the step on the server.
    """
    # on a projector, and over two runs side by side (whose controls reach across both, with
    # the height theirs), the step comes first: the help and the link go under it
    below = lead or lecture_mode()
    if toolbar and not below:
        _toolbar(key, toolbar)
    _mount(key=key, data=blob, on_position_change=partial(_on_position, key, address))
    if toolbar and below:
        _toolbar(key, toolbar)
    if panels is not None:
        panels(int(st.session_state[f"{key}.t"]))


def _changed(header, **changes):
    """A header with these fields changed (a test's plain dict too)."""
    return header.with_(**changes) if isinstance(header, Header) else {**header, **changes}


def _tag(run: Run, start: int, keys: bool) -> tuple:
    look = hashlib.blake2b(json.dumps(dict(run.header), sort_keys=True).encode(), digest_size=8)
    return (run.id, look.hexdigest(), start, keys)


def _packed(run: Run, start: int, keys: bool) -> tuple[tuple, bytes]:
    """The run's bytes with the position to open at, and their tag."""
    return _tag(run, start, keys), pack({**run.header, "run": run.id, "start": start,
                                         "keys": keys, "config": CHART_CONFIG}, run.columns)


def _blob(key: str, run: Run, start: int, keys: bool) -> bytes:
    """The run's bytes with the position to open at, rebuilt only when either changes."""
    cache = st.session_state.get(f"{key}.stepper.blob")
    if cache is not None and cache[0] == _tag(run, start, keys):
        return cache[1]
    made = _packed(run, start, keys)
    st.session_state[f"{key}.stepper.blob"] = made
    return made[1]


def stepper(*, key: str, run: Run, keys: bool = True,
            toolbar: bool = True, panels: Callable[[int], None] | None = None,
            lead: bool = False, follow: str | None = None, address: bool = True) -> int:
    """Draw the stepper for one run; return the step the server knows (debounced).

    Parameters
    ----------
    key : str
        Names the stepper's state: ``{key}.t`` holds the step.
    run : Run
        What to step through, e.g. from :func:`perceptron_run`.
    keys : bool, default True
        Whether this stepper owns →, ←, N and Home (one per page should).
    toolbar : bool, default True
        Draw the Keys help and the Share link above it (under it on a projector, and under
        a leader).
    panels : callable, optional
        ``panels(k)`` draws what the server shows for step k (numbers that need
        the server, extra charts). It runs under the stepper and again after each
        debounced report, so it follows the student a moment after they stop.
    lead : bool, default False
        Other steppers may follow this one (``follow=key``): every step moves them too.
    follow : str, optional
        The key of the stepper to follow: this one then has no controls, no keys
        and no report of its own, and shows the leader's step (runs of one length).
    address : bool, default True
        Keep this stepper's step as ``step=k`` in the address bar; one stepper per
        page does, a second one on the page (with ``keys=False``) does not.

    Returns
    -------
    int
        The step last reported by the browser (or from a link), 0 to ``run.steps``.
    """
    if follow is not None:
        k = min(int(st.session_state.get(f"{follow}.t", 0)), run.steps)
        header = _changed(run.header, follow=follow)
        _mount(key=key, data=_blob(key, Run(run.id, run.steps, header, run.columns), k, False))
        return k
    if lead:
        run = Run(run.id, run.steps, _changed(run.header, lead=key), run.columns)
    position_key = f"{key}.t"
    if st.session_state.get(f"{key}.stepper.run") != run.id:
        st.session_state[position_key] = 0  # a new run opens before its first step
    linked = url_state.pending_step() if address else None
    if linked is not None:
        st.session_state[position_key] = linked
    k = _at(key, run, int(st.session_state.get(position_key, 0)), address)
    if not lead:  # (a leader's picture is more than its own stepper)
        first_screen.picture(_replayed, key, run, keys, toolbar, address)
    _synced(key, _blob(key, run, k, keys), toolbar, panels, address, lead)
    return k


def _at(key: str, run: Run, k: int, address: bool) -> int:
    """The stepper ``key`` is at step k of ``run`` (within its steps), in the session and in
    the address when it keeps the step there; that step."""
    k = min(max(k, 0), run.steps)
    st.session_state.update({f"{key}.t": k, f"{key}.stepper.run": run.id,
                             f"{key}.stepper.steps": run.steps})
    if address:
        url_state.write_step(k)
    return k


# the steps a first screen's run is packed at, kept for every page that replays it
MEMO_STEPS = 8


def _replayed(key: str, run: Run, keys: bool, toolbar: bool, address: bool, *, step: int,
              memo: dict) -> None:
    """The stepper on a class's first screen (ui.first_screen), at the class's step: as
    :func:`stepper` leaves it, its run packed once for every page that replays it (``memo``)."""
    k = _at(key, run, step, address)
    packed = memo.get(k)
    if packed is None:
        if len(memo) >= MEMO_STEPS:
            memo.pop(next(iter(memo)))
        packed = memo[k] = _packed(run, k, keys)
    st.session_state[f"{key}.stepper.blob"] = packed
    # the toolbar's place: its Keys and Share come with the page's rest
    _synced(key, packed[1], toolbar and LATER, None, address, False)


def offline_html(blob: bytes, *, title: str = "Perceptron Lab") -> bytes:
    """The stepper and its run as one HTML file that works with no network and no server.

    Parameters
    ----------
    blob : bytes
        A packed run (as :func:`stepper` sends it).
    title : str
        The page's title.

    Returns
    -------
    bytes
        UTF-8 HTML with Plotly, the stepper and the run inside.
    """
    module = script().replace("export default function", "const mountStepper = function", 1)
    data = base64.b64encode(blob).decode()
    css = style()
    page = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>body {{ font-family: system-ui, sans-serif; margin: 1.5rem; }}
{css}</style>
<script>{plotly_js().decode()}</script></head>
<body><div id="stepper"></div>
<script type="module">
{module}
const bytes = Uint8Array.from(atob("{data}"), (c) => c.charCodeAt(0));
mountStepper({{ parentElement: document.getElementById("stepper"), data: bytes,
               setStateValue: () => {{}} }});
</script></body></html>
"""
    return page.encode("utf-8")


def packed(key: str) -> bytes | None:
    """The bytes the stepper ``key`` sent last (for exports)."""
    cache = st.session_state.get(f"{key}.stepper.blob")
    return None if cache is None else cache[1]


def export_buttons(key: str, data: Dataset, trace: Trace) -> None:
    """Downloads made only when clicked: the stepper ``key`` offline (HTML), every step (CSV)."""
    from viz.export import trace_csv

    blob = packed(key)
    # side by side, each as wide as its words: fixed columns cut them short on a laptop
    with st.container(horizontal=True, gap="small"):
        if blob is not None:
            st.download_button("The run (HTML, steps offline)", lambda: offline_html(blob),
                               file_name="perceptron_run.html", mime="text/html",
                               icon=":material/movie:", on_click="ignore", width="content",
                               key=f"{key}.export.html")
        st.download_button("Every step (CSV)", lambda: trace_csv(trace, data.X, data.y),
                           file_name="perceptron_steps.csv", mime="text/csv",
                           icon=":material/table:", on_click="ignore", width="content",
                           key=f"{key}.export.csv")
