"""The stepper's files: its assets' folder, and the page's Plotly, served once for the
browser to fetch and cache."""

from __future__ import annotations

import functools
import gzip
import os
import tempfile
from pathlib import Path

import plotly

ROOT = Path(__file__).resolve().parents[2]
ASSETS = Path(__file__).parent.with_name("stepper_assets")
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
