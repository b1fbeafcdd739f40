"""Text colours meet WCAG 2.2 AA's contrast (4.5:1) in Streamlit's light and dark themes, and the
page and Streamlit's theme take them from viz/palette.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from ui.theme import page_css
from viz import palette

ROOT = Path(__file__).resolve().parents[1]
AA = 4.5
THEMES = {"light": 0, "dark": 1}

# each text colour, and every ground Streamlit puts it on
TEXTS = {
    "captions": (palette.MUTED_TEXT, (palette.PAGE, palette.SIDEBAR, palette.WIDGET)),
    "a mistake": (palette.MISTAKE_TEXT, (palette.PAGE, palette.WIDGET)),
    "the accent": (palette.PRIMARY, (palette.PAGE, palette.SIDEBAR)),
    "on the accent": (palette.ON_PRIMARY, (palette.PRIMARY,)),
    "body text": (palette.TEXT, (palette.PAGE, palette.SIDEBAR, palette.WIDGET,
                                 palette.CODE_BACKGROUND)),
    **{f"code {name}": (pair, (palette.CODE_BACKGROUND,))
       for name, pair in palette.CODE_TOKENS.items()},
}


@pytest.mark.parametrize("theme", list(THEMES))
@pytest.mark.parametrize("text", list(TEXTS))
def test_text_reads_at_4_5_to_1_on_everything_it_sits_on(text, theme):
    ink, grounds = TEXTS[text]
    i = THEMES[theme]
    for ground in grounds:
        assert palette.contrast(ink[i], ground[i]) >= AA, (text, theme, ground[i])


@pytest.mark.parametrize("theme", list(THEMES))
def test_the_accent_reads_on_its_own_tint(theme):
    """A selected option: the accent on a 10% tint of itself over the page."""
    i = THEMES[theme]
    tint = palette.mix(palette.PRIMARY[i], palette.PAGE[i], 0.10)
    assert palette.contrast(palette.PRIMARY[i], tint) >= AA


def test_streamlit_takes_its_accent_from_the_palette():
    tomllib = pytest.importorskip("tomllib")  # Python 3.11 on
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    assert config["theme"]["light"]["primaryColor"] == palette.PRIMARY[0]
    assert config["theme"]["dark"]["primaryColor"] == palette.PRIMARY[1]
    # a forced base would ignore the scheme the browser asks for
    assert "base" not in config["theme"]


def test_the_page_writes_each_text_colour_for_both_themes():
    css = page_css()
    for pair in (palette.MUTED_TEXT, palette.MISTAKE_TEXT, palette.ON_PRIMARY,
                 *palette.CODE_TOKENS.values()):
        assert f"light-dark({pair[0]}, {pair[1]})" in css


def test_the_old_vermillion_was_too_light_for_text():
    """Why MISTAKE_TEXT is not CLASS_POS itself."""
    assert palette.contrast(palette.CLASS_POS, palette.PAGE[0]) < AA
