"""figure.js's dark page follows viz/theme.py's rule colour for colour, and a run's header on a
dark page has every colour moved: the page's ground, text and marks that stand out from it."""

from __future__ import annotations

import colorsys
import json

import numpy as np
import pytest

from datasets.builtin import BUILTIN
from ui.stepper import THEME, plane_skeleton
from viz import palette
from viz.theme import GROUND, MARK_CONTRAST, TEXT_CONTRAST, dark_colour, for_dark

pytestmark = pytest.mark.browser


def colours() -> list[str]:
    """Every colour of the palette, Plotly's white template's, and random ones in each form."""
    found = [v for v in vars(palette).values() if isinstance(v, str) and
             (v.startswith("#") or v.startswith("rgb"))]
    rng = np.random.default_rng(26)
    for r, g, b in rng.integers(0, 256, size=(150, 3)):
        found += [f"#{r:02x}{g:02X}{b:02x}", f"rgba({r},{g},{b},{rng.random():.3g})",
                  f"rgb({r}, {g}, {b})"]
    return [*found, "#2a3f5f", "#EBF0F8", "#C8D4E3", "#fff", "white", "black", "transparent",
            "red", 3]


def test_the_page_and_the_server_move_every_colour_alike(js):
    given = colours()
    for least in (MARK_CONTRAST, TEXT_CONTRAST):
        got = js.evaluate("([cs, least, t]) => cs.map((c) => pl.darkColour(c, least, t))",
                          [given, least, THEME])
        assert got == [dark_colour(c, least) for c in given]


def test_marks_stand_out_and_words_read_on_the_dark_page():
    for colour in colours():
        if not isinstance(colour, str) or not colour.startswith("#") or len(colour) != 7:
            continue
        dark = dark_colour(colour)
        # a colour of its own keeps it when it stands out already
        if palette.contrast(colour, GROUND) >= MARK_CONTRAST:
            r, g, b = (int(colour[k:k + 2], 16) / 255 for k in (1, 3, 5))
            _, _, sat = colorsys.rgb_to_hls(r, g, b)
            if sat >= 0.15 and palette.contrast(colour, palette.WHITE) >= 1.6:
                assert dark == colour.upper()
        # and nothing meant to be seen is harder to see on the dark page than on white, up to
        # the target (a ground or a grid, hardly seen on white, stays so)
        on_white = palette.contrast(colour, palette.WHITE)
        for least in (MARK_CONTRAST, TEXT_CONTRAST) if on_white >= 1.6 else ():
            got = palette.contrast(dark_colour(colour, least), GROUND)
            assert got >= 0.95 * min(least, on_white), (colour, least, got, on_white)
    # the classes keep their colours and stand out: told apart by hue and by shape
    for style in palette.CLASS_STYLE.values():
        assert dark_colour(style["color"]) == style["color"]
        assert palette.contrast(style["color"], GROUND) >= MARK_CONTRAST
    assert palette.contrast(dark_colour(palette.BOUNDARY), GROUND) >= 7
    assert dark_colour(palette.WHITE) == GROUND


def test_a_figure_on_the_dark_page(js):
    data = BUILTIN["Lecture notes' example: 4 points"]()
    figure = json.loads(json.dumps(plane_skeleton(data, height=520, lecture=False)))
    got = js.evaluate("([f, t]) => pl.darkFigure(f, t)", [figure, THEME])
    expected = json.loads(json.dumps(for_dark(figure)))
    assert got == expected
    layout = got["layout"]
    assert layout["template"]["layout"]["paper_bgcolor"] == GROUND
    assert layout["template"]["layout"]["plot_bgcolor"] == GROUND
    ink = layout["template"]["layout"]["font"]["color"]
    assert palette.contrast(ink, GROUND) >= TEXT_CONTRAST
