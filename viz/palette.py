"""The app's colours, named by what they mean: one colour per idea, in every lesson.

The hues are Okabe and Ito's eight (2008), chosen to stay apart for the
common colour blindnesses; classes also differ by marker shape, and lines of
the same colour by dash. What each colour means, everywhere:

- blue circles and vermillion squares: class -1 and class +1 (tinted, their regions);
- ink (near black): the current boundary, its normal, its margin band and its
  closest point; faint ink, dashed: the boundary before the step (the ghost);
- orange: where the run is now (the visited example, the current weights, a cursor);
- vermillion words: a step that is a mistake (its verdict beside the maths);
- reddish purple: the updates (eta y x, the loop of updates a cycle repeats) and
  the voted perceptron, whose votes come from the weights between updates;
- bluish green: the maximum-margin separator and the SVM's answers (their band,
  margin lines and support vectors);
- reddish purple too: the SVM's descent where it is stepped on the perceptron's plane
  beside the maximum margin (green there would be two lines of one colour);
- sky blue: the averaged perceptron;
- greys: references (the ball of radius R, bounds, the size of w, paths, a run's own
  margin lines).

In charts without data points the pocket's weights are drawn blue (dashed, diamonds).

Charts that compare several series of one kind (visiting orders, perceptron
runs, losses) take :data:`SERIES` in order, each with its own dash or marker.
"""

from __future__ import annotations

# Okabe-Ito
BLACK = "#000000"
ORANGE = "#E69F00"
SKY_BLUE = "#56B4E9"
BLUISH_GREEN = "#009E73"
YELLOW = "#F0E442"
BLUE = "#0072B2"
VERMILLION = "#D55E00"
REDDISH_PURPLE = "#CC79A7"
# and the ink and greys of lines that are not data
INK = "#222222"
GREY = "#7F7F7F"
LIGHT_GREY = "#DDDDDD"
MID_GREY = "#999999"
DARK_GREY = "#444444"
WHITE = "#FFFFFF"
CLEAR = "rgba(0,0,0,0)"


def tint(colour: str, alpha: float) -> str:
    """A "#rrggbb" colour as "rgba(r,g,b,alpha)": the same hue, see-through."""
    r, g, b = (int(colour[k:k + 2], 16) for k in (1, 3, 5))
    return f"rgba({r},{g},{b},{alpha:g})"


# the classes: colour AND shape, so no one needs the colour to tell them apart
CLASS_NEG = BLUE
CLASS_POS = VERMILLION
CLASS_STYLE = {
    -1: dict(color=CLASS_NEG, symbol="circle"),
    +1: dict(color=CLASS_POS, symbol="square"),
}
CLASS_TINT = {-1: tint(CLASS_NEG, 0.16), +1: tint(CLASS_POS, 0.16)}
# more than two classes (one-vs-rest on three species): two more hues, two more shapes
MULTI_STYLE = (
    dict(color=CLASS_NEG, symbol="circle", tint=CLASS_TINT[-1]),
    dict(color=CLASS_POS, symbol="square", tint=CLASS_TINT[+1]),
    dict(color=BLUISH_GREEN, symbol="diamond", tint=tint(BLUISH_GREEN, 0.16)),
)

# the current boundary and everything that belongs to it
BOUNDARY = INK
NORMAL = INK
GHOST = tint(INK, 0.25)
CURRENT_BAND = tint(INK, 0.10)
CLOSEST = INK
WRONG = BLACK            # a misclassified point's cross
POSITIVE_SIDE = tint(CLASS_POS, 0.10)
NEGATIVE_SIDE = tint(CLASS_NEG, 0.10)

# where the run is now
VISITED = ORANGE
NOW = ORANGE

# a step that is a mistake, in the words that say so beside its maths
MISTAKE = VERMILLION

# the updates, and the voted perceptron built from the weights between them
UPDATE = REDDISH_PURPLE
CYCLE = REDDISH_PURPLE
VOTED = REDDISH_PURPLE

# the maximum margin and the SVM's answers
MAX_MARGIN = BLUISH_GREEN
MAX_BAND = tint(BLUISH_GREEN, 0.14)
SUPPORT = BLUISH_GREEN
SVM = BLUISH_GREEN
# the SVM's run stepped with the perceptron's on one plane, where the maximum margin is green
SVM_RUN = REDDISH_PURPLE

# the other ways to read a run
AVERAGED = SKY_BLUE
QR_DARK = "#111111"      # a QR code's modules: near black on white, as phones' cameras read best
QR_LIGHT = WHITE
LAST = INK
POCKET = BLUE

# references
BALL = GREY
BOUND = GREY
NORM = GREY
PATH = tint(GREY, 0.55)
OWN_MARGIN = tint(INK, 0.55)
SLACK = BLACK
DISPUTED = tint(BLACK, 0.22)
UNCLAIMED = "rgba(255,255,255,0.8)"
GRID = LIGHT_GREY
AXIS = MID_GREY
PATTERN = DARK_GREY
SURFACE = tint(INK, 0.35)

# several series of one kind, in this order (each also gets its own dash or marker)
SERIES = (BLUE, ORANGE, BLUISH_GREEN, REDDISH_PURPLE, VERMILLION, SKY_BLUE, YELLOW, BLACK)

# ---------------------------------------------------------------- text on the page
# WCAG 2.2 AA: text at least 4.5:1 against what it sits on (3:1 when large). Each text colour
# is a pair: Streamlit's light theme, then its dark one (which it takes when the browser asks
# for a dark scheme); the page picks by its own colour scheme (CSS light-dark()).

# what Streamlit's themes put behind text (its defaults: the page, the sidebar, widgets and
# code blocks), and their ink
PAGE = ("#FFFFFF", "#171614")
SIDEBAR = ("#F8F8F7", "#21201D")
WIDGET = ("#F1F0EE", "#2D2B27")
CODE_BACKGROUND = ("#F7F7F6", "#242321")
TEXT = ("#2F2D2B", "#EDEBE8")

# the theme's accent (.streamlit/config.toml, theme.light and theme.dark primaryColor): the
# selected option, a slider's value and the main buttons. Streamlit writes it as text on a 10%
# tint of itself, and the stepper's Step button writes ON_PRIMARY on it.
PRIMARY = ("#B8323F", "#F07F8A")
ON_PRIMARY = (WHITE, PAGE[1])
# captions and notes (Streamlit's own grey is 3.8:1 on white)
MUTED_TEXT = ("#5C5A57", "#B3AFA9")
# "a mistake" in the step's maths: the vermillion of class +1, dark enough to read as text
MISTAKE_TEXT = ("#B34D00", "#EC8236")
# st.code's tokens (Streamlit's own keyword blue and comment grey are 3.5:1 on its code block)
CODE_TOKENS = {
    "keyword": ("#0B63B3", "#7DB9F2"),
    "comment": ("#5E6170", "#A9ACB8"),
    "punctuation": ("#5E6170", "#A9ACB8"),
    "operator": ("#A84B0C", "#F2A15E"),
    "number": ("#00725F", "#55D2BE"),
    "boolean": ("#177A33", "#6BD88E"),
    "string": ("#177A33", "#6BD88E"),
}


def luminance(colour: str) -> float:
    """The relative luminance of a "#rrggbb" colour (WCAG 2.2), 0 for black to 1 for white.

    >>> luminance("#000000"), luminance("#FFFFFF")
    (0.0, 1.0)
    """
    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(int(colour[k:k + 2], 16) / 255) for k in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(ink: str, ground: str) -> float:
    """WCAG's contrast ratio of two "#rrggbb" colours, from 1 (the same) to 21.

    >>> round(contrast("#000000", "#FFFFFF"), 1)
    21.0
    >>> round(contrast("#D55E00", "#FFFFFF"), 2)  # vermillion: too light for text on white
    3.87
    """
    light, dark = sorted((luminance(ink), luminance(ground)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def mix(colour: str, ground: str, alpha: float) -> str:
    """``colour`` laid over ``ground`` at ``alpha``, as one "#rrggbb" colour.

    >>> mix("#FF0000", "#FFFFFF", 0.5)
    '#FF8080'
    """
    parts = [round(int(colour[k:k + 2], 16) * alpha + int(ground[k:k + 2], 16) * (1 - alpha))
             for k in (1, 3, 5)]
    return "#" + "".join(f"{v:02X}" for v in parts)
