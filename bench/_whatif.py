"""`streamlit run` with a bench-only patch, to measure a change before anyone makes it.

    python -m bench._whatif lean-template run app.py --server.port 8501 ...

The app's files are untouched: the patch is applied in this process before
Streamlit starts, and the pages then import the patched modules.

lean-template
    ``plotly_white`` holds defaults for every Plotly trace type; viz/plane.py
    passes ``template="plotly_white"`` for each figure, and Plotly deep-copies
    and validates the whole template every time (and sends it with every
    figure). This registers, under the same name, a template with only its
    layout part, which is all a scatter figure uses: the figures look the same.
"""

from __future__ import annotations

import sys


def lean_template() -> None:
    """Make ``template="plotly_white"`` resolve to its layout part alone."""
    import plotly.graph_objects as go
    import plotly.io as pio

    pio.templates["plotly_white"] = go.layout.Template(layout=pio.templates["plotly_white"].layout)


PATCHES = {"lean-template": lean_template}


def main() -> None:
    names, argv = sys.argv[1].split(","), sys.argv[2:]
    for name in names:
        PATCHES[name]()
    from streamlit.web.cli import main as streamlit_main

    sys.argv = ["streamlit", *argv]
    streamlit_main()


if __name__ == "__main__":
    main()
