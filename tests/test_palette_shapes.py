"""viz/palette.py and viz/shapes.py: one palette that stays apart for colour-blind eyes, and
shapes that agree with brute force on one sign convention."""

from __future__ import annotations

import ast
import itertools
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from viz import palette, shapes

ROOT = Path(__file__).resolve().parents[1]

# Machado, Oliveira and Fernandes (2009), severity 1: linear-RGB matrices of what a
# protanope, a deuteranope and a tritanope see.
CVD = {
    "protanopia": np.array([[0.152286, 1.052583, -0.204868],
                            [0.114503, 0.786281, 0.099216],
                            [-0.003882, -0.048116, 1.051998]]),
    "deuteranopia": np.array([[0.367322, 0.860646, -0.227968],
                              [0.280085, 0.672501, 0.047413],
                              [-0.011820, 0.042940, 0.968881]]),
    "tritanopia": np.array([[1.255528, -0.076749, -0.178779],
                            [-0.078411, 0.930809, 0.147602],
                            [0.004733, 0.691367, 0.303900]]),
}


def linear_rgb(colour: str) -> np.ndarray:
    srgb = np.array([int(colour[k:k + 2], 16) for k in (1, 3, 5)]) / 255
    return np.where(srgb <= 0.04045, srgb / 12.92, ((srgb + 0.055) / 1.055) ** 2.4)


def lab(rgb: np.ndarray) -> np.ndarray:
    """CIE L*a*b* (D65) of a linear-RGB colour."""
    xyz = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722],
                    [0.0193, 0.1192, 0.9505]]) @ np.clip(rgb, 0, 1)
    t = xyz / np.array([0.95047, 1.0, 1.08883])
    f = np.where(t > (6 / 29) ** 3, np.cbrt(t), t / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def distance(a: str, b: str, vision: str | None = None) -> float:
    """CIE76 colour difference between two colours, as seen with ``vision``."""
    ra, rb = linear_rgb(a), linear_rgb(b)
    if vision is not None:
        ra, rb = CVD[vision] @ ra, CVD[vision] @ rb
    return float(np.linalg.norm(lab(ra) - lab(rb)))


# Colours that meet in one chart: they must stay apart for every kind of vision.
MEET = {
    "the plane at a step": (palette.CLASS_NEG, palette.CLASS_POS, palette.BOUNDARY,
                            palette.VISITED, palette.MAX_MARGIN),
    "last, averaged and voted": (palette.CLASS_NEG, palette.CLASS_POS, palette.LAST,
                                 palette.AVERAGED, palette.VOTED),
    "weight space": (palette.BOUNDARY, palette.UPDATE, palette.NOW),
    # a projector's Train side by side: both runs and the maximum margin on one plane
    "the perceptron and the SVM on one plane": (palette.CLASS_NEG, palette.CLASS_POS,
                                                palette.BOUNDARY, palette.VISITED,
                                                palette.MAX_MARGIN, palette.SVM_RUN),
    "errors per epoch": (palette.LAST, palette.POCKET, palette.AVERAGED, palette.CYCLE),
}


@pytest.mark.parametrize("chart", MEET)
@pytest.mark.parametrize("vision", [None, *CVD])
def test_colours_that_meet_stay_apart_for_colour_blind_eyes(chart, vision):
    for a, b in itertools.combinations(MEET[chart], 2):
        assert distance(a, b, vision) > 12, (chart, vision, a, b)


def test_the_check_would_catch_red_against_green():
    assert distance("#D62728", "#2CA02C") > 60  # far apart for most eyes ...
    assert distance("#D62728", "#2CA02C", "deuteranopia") < 12  # ... not for a deuteranope


def test_the_classes_differ_by_shape_too():
    assert palette.CLASS_STYLE[-1]["symbol"] != palette.CLASS_STYLE[1]["symbol"]
    assert len({style["symbol"] for style in palette.MULTI_STYLE}) == 3


COLOUR = re.compile(r"#[0-9A-Fa-f]{6}\b|rgba?\(")


def test_colours_are_written_only_in_the_palette():
    """Every other module names the colour's meaning, so one idea keeps one colour."""
    for path in [*(ROOT / "viz").glob("*.py"), *(ROOT / "ui").glob("*.py")]:
        if path.name == "palette.py":
            continue
        strings = [node.value for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                   if isinstance(node, ast.Constant) and isinstance(node.value, str)]
        assert not [s for s in strings if COLOUR.search(s)], path.name


# ---------------------------------------------------------------- shapes against brute force

BOX = ((-2.0, 2.0), (-1.0, 3.0))
lines = st.tuples(st.floats(-3, 3), st.floats(-3, 3), st.floats(-4, 4)).filter(
    lambda v: abs(v[0]) + abs(v[1]) > 1e-3)


def area(xs, ys) -> float:
    return 0.5 * abs(np.dot(xs[:-1], ys[1:]) - np.dot(xs[1:], ys[:-1])) if xs else 0.0


SAMPLE = np.random.default_rng(0).uniform([-2, -1], [2, 3], size=(20_000, 2))


@given(lines)
def test_a_half_plane_is_the_positive_side(line):
    w, b = np.array(line[:2]), line[2]
    xs, ys = shapes.half_plane(w, b, BOX)
    share = np.mean(SAMPLE @ w + b >= 0)
    assert area(xs, ys) == pytest.approx(16 * share, abs=0.35)


@given(lines, st.floats(0.05, 2.0))
def test_a_band_is_where_the_activation_is_within_the_level(line, level):
    w, b = np.array(line[:2]), line[2]
    xs, ys = shapes.band(w, b, level, BOX)
    share = np.mean(np.abs(SAMPLE @ w + b) <= level)
    assert area(xs, ys) == pytest.approx(16 * share, abs=0.35)


@settings(deadline=None)  # a loaded machine takes 0.5 s over an example now and then
@given(lines)
def test_a_segment_lies_on_the_line_and_ends_on_the_view(line):
    w, b = np.array(line[:2]), line[2]
    xs, ys = shapes.segment(w, b, BOX)
    for x, y in zip(xs, ys, strict=True):
        assert w @ (x, y) + b == pytest.approx(0, abs=1e-9)
        on_edge = min(abs(x - e) for e in BOX[0]) < 1e-9 or min(abs(y - e) for e in BOX[1]) < 1e-9
        assert on_edge and BOX[0][0] - 1e-9 <= x <= BOX[0][1] + 1e-9
    # it misses the view only if the whole view is on one side
    values = np.array([w @ c + b for c in shapes.corners(BOX)])
    assert bool(xs) == (values.min() < 0 < values.max()) or np.any(np.abs(values) < 1e-9)


def test_the_positive_side_and_the_band_agree_on_the_sign():
    w, b = np.array([1.0, 0.0]), -1.0  # x >= 1
    xs, _ = shapes.half_plane(w, b, BOX)
    assert min(xs) == pytest.approx(1.0) and max(xs) == pytest.approx(2.0)
    xs, _ = shapes.band(w, b, 0.5, BOX)  # 0.5 <= x <= 1.5
    assert min(xs) == pytest.approx(0.5) and max(xs) == pytest.approx(1.5)
    assert shapes.svg_path(*shapes.band(w, b, 0.5, BOX)).count("L") == 3
    assert shapes.half_plane([0.0, 0.0], 1.0, BOX) == ([], [])
