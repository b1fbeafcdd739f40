"""The stepper: a recorded run stepped through in the browser, one mechanism for every lesson.

The server records a run once and sends it once, packed as bytes: a small JSON
header (the figure's skeleton, the layers to draw, texts) and typed columns
(X, y, W, b, activation, index, updated, epoch, mistakes, and whatever a lesson
adds). The browser then steps, plays and explains on its own (ui/stepper_assets/);
a press sends nothing. The position comes back only when the student stops for a
moment, through a fragment rerun that keeps session state and ``step=k`` in the
address bar. The position is never part of the data: an unchanged run is sent as a
cache reference, and a reply can never move the student back.

Its modules do one job each (docs/ARCHITECTURE.md, "The path of a step"); this package
gives the names lessons and tests take from it.
"""

from __future__ import annotations

from ui.stepper.assets import (
    COLOURS,
    JS_CHART,
    JS_FILES,
    JS_LAYERS,
    JS_MODULES,
    PLOTLY_EARLY,
    THEME,
    module_path,
    script,
    style,
)
from ui.stepper.component import stepper
from ui.stepper.export import export_buttons, offline_html
from ui.stepper.figures import figure_json, legend_only, plane_skeleton, weights_skeleton
from ui.stepper.files import (
    ASSETS,
    PLOTLY_TRACES,
    PLOTLY_WHOLE,
    PLOTLY_WHOLE_NAME,
    plotly_js,
    serve_file,
    serve_plotly,
)
from ui.stepper.header import Run, run_header
from ui.stepper.runs import perceptron_run, with_companion
from ui.stepper.sync import accept_position
from ui.stepper.wire import epoch_columns, pack, run_id

__all__ = [
    "ASSETS", "COLOURS", "JS_CHART", "JS_FILES", "JS_LAYERS", "JS_MODULES", "PLOTLY_EARLY",
    "PLOTLY_TRACES", "PLOTLY_WHOLE", "PLOTLY_WHOLE_NAME", "THEME", "Run", "accept_position",
    "epoch_columns", "export_buttons", "figure_json", "legend_only", "module_path",
    "offline_html", "pack", "perceptron_run", "plane_skeleton", "plotly_js", "run_header",
    "run_id", "script", "serve_file", "serve_plotly", "stepper", "style", "weights_skeleton",
    "with_companion",
]
