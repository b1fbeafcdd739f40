"""The component's assets: its script, the page's JavaScript modules joined by
ui/js_modules.py, and its style."""

from __future__ import annotations

from pathlib import Path

from ui import js_modules
from ui.stepper.files import ASSETS
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
from viz.projector import MIN_FONT

# The page's script: the stepper's mount (stepper_assets/mount.js, the component's default
# export, which mounts stepper.js's Stepper) and its layers (layers/, each a module that adds
# itself to the stepper's LAYERS: they are built and drawn in this order), with every module
# they use, each joined after the modules it uses, as the header at the top of each file
# declares (``// @uses``, ``// @provides``: ui/js_modules.py).
JS_LAYERS = ("plane", "kernel", "explain", "companion", "weights", "pair", "class")
_STEPPER = js_modules.order([ASSETS / "mount.js", *(ASSETS / "layers" / f"{name}.js"
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


# A lesson's page starts loading its Plotly as it opens, with the page's first message (the
# same load the steppers and charts wait for, plotly.js): a chart's component mounts only once
# the script has run down to it, and its Plotly then took another 1-1.6 s to load on a lesson's
# link (bench/lesson_open.py)
PLOTLY_EARLY = ("<script>(() => {\n" + script(("plotly",))
                + "\nloadPlotly().catch(() => {});\n})();</script>")
