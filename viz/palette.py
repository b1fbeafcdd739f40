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

# the other ways to read a run
AVERAGED = SKY_BLUE
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
