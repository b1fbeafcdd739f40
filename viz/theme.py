"""Charts on a dark page: every colour of a figure, moved to Streamlit's dark theme.

One rule for every chart, whether Streamlit draws it (ui.lesson) or the stepper does in the
browser (ui/stepper_assets/figure.js, the same rule in JavaScript):

- greys, white and tints too pale to see on white (the ground, grids, ink) swap ends: white
  becomes the dark page, the ink the dark theme's text, a light grid a faint line on it;
- a colour (the classes, the updates, the visited ring...) keeps its hue and is lightened only
  as far as it needs to stand out from the dark page: 3:1 for lines and marks, 4.5:1 for text
  (WCAG 2.2 AA); Okabe and Ito's hues already do, so the classes look the same;
- see-through tints keep their alpha.
"""

from __future__ import annotations

import colorsys
import copy
import re

from viz.palette import BLACK, CLEAR, PAGE, TEXT, WHITE, contrast, mix, tint

GROUND = PAGE[1]  # Streamlit's dark page
INK = TEXT[1]
MARK_CONTRAST = 3.0  # lines and markers (WCAG 1.4.11)
TEXT_CONTRAST = 4.5  # words (WCAG 1.4.3)
_NAMED = {"white": WHITE, "black": BLACK}
_RGB = re.compile(r"^rgba?\(\s*([\d.]+)\s*,\s*([\d.]+)\s*,\s*([\d.]+)\s*(?:,\s*([\d.]+)\s*)?\)$")


def _hex(r: float, g: float, b: float) -> str:
    return "#" + "".join(f"{round(min(max(v, 0), 255)):02X}" for v in (r, g, b))


def _parse(colour: str) -> tuple[str, float | None] | None:
    """A colour as hex "RRGGBB" after a hash and its alpha (None when it has none), or None if
    not one."""
    text = colour.strip().lower()
    text = _NAMED.get(text, text)
    if re.fullmatch(r"#[0-9a-fA-F]{6}", text):
        return text.upper(), None
    if re.fullmatch(r"#[0-9a-fA-F]{3}", text):
        return "#" + "".join(c * 2 for c in text[1:]).upper(), None
    m = _RGB.match(text)
    if m:
        r, g, b, a = m.groups()
        return _hex(float(r), float(g), float(b)), None if a is None else float(a)
    return None


def dark_hex(colour: str, least: float = MARK_CONTRAST) -> str:
    """One hex colour (a hash and "RRGGBB") for the dark page (see the module's rule).

    >>> from viz.palette import VERMILLION
    >>> dark_hex(WHITE) == GROUND, dark_hex(BLACK) == INK
    (True, True)
    >>> dark_hex(VERMILLION) == VERMILLION  # it stands out already
    True
    """
    r, g, b = (int(colour[k:k + 2], 16) / 255 for k in (1, 3, 5))
    hue, light, sat = colorsys.rgb_to_hls(r, g, b)
    if sat < 0.15 or contrast(colour, WHITE) < 1.6:  # a grey, or a ground's pale tint
        return mix(INK, GROUND, 1 - light)
    out = colour
    while contrast(out, GROUND) < least and light < 1:
        light = min(1.0, light + 0.02)
        out = _hex(*(255 * v for v in colorsys.hls_to_rgb(hue, light, sat)))
    return out


def dark_colour(colour, least: float = MARK_CONTRAST):
    """A Plotly colour (hex in 3 or 6 digits, CSS rgb or rgba, white, black) for the dark page;
    anything else unchanged.

    >>> from viz.palette import UNCLAIMED
    >>> dark_colour(UNCLAIMED) == tint(GROUND, 0.8)  # see-through white: the page, as much
    True
    """
    if not isinstance(colour, str):
        return colour
    parsed = _parse(colour)
    if parsed is None:
        return colour
    hex_, alpha = parsed
    out = dark_hex(hex_, least)
    if alpha is None:
        return out
    return tint(out, alpha)


def _walk(spec, least: float, in_colour: bool):
    if isinstance(spec, dict):
        for key, value in spec.items():
            text = least if not key.endswith("font") and key != "font" else TEXT_CONTRAST
            spec[key] = _walk(value, text, in_colour or "color" in key.lower())
        return spec
    if isinstance(spec, list):
        return [_walk(item, least, in_colour) for item in spec]
    return dark_colour(spec, least) if in_colour else spec


def for_dark(figure: dict) -> dict:
    """A figure's JSON (``fig.to_plotly_json()``, template included) for the dark page: a copy
    with every colour moved (the module's rule) and the toolbar in the page's colours.

    >>> fig = for_dark({"data": [{"marker": {"color": "black"}, "name": "white"}],
    ...                 "layout": {"paper_bgcolor": "white"}})
    >>> fig["layout"]["paper_bgcolor"] == GROUND, fig["data"][0]["marker"]["color"] == INK
    (True, True)
    >>> fig["data"][0]["name"]  # words are not colours
    'white'
    """
    spec = _walk(copy.deepcopy(figure), MARK_CONTRAST, False)
    layout = spec.setdefault("layout", {})
    layout.setdefault("paper_bgcolor", GROUND)
    layout.setdefault("plot_bgcolor", GROUND)
    layout.setdefault("font", {}).setdefault("color", INK)
    layout["modebar"] = {**layout.get("modebar", {}), "bgcolor": CLEAR,
                         "color": mix(INK, GROUND, 0.6), "activecolor": INK}
    return spec
