"""What a lesson sends: a run's header, built in one place, and the run itself."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace

from datasets import Dataset
from viz.palette import BOUNDARY, GHOST, UPDATE, VISITED
from viz.plane import named_figure_json


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
