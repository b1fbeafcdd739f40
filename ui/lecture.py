"""Lecture mode: the page big enough to read from the back of a hall (its charts: viz.projector)."""

from __future__ import annotations

import streamlit as st

from ui import url_state
from ui.navigation import TOP_SCRIPT
from ui.settings import LECTURE
from ui.theme import PAGE_SCRIPT, PAGE_STYLE_KEY, SHORT_WINDOW_CSS, page_css

# Large type; a short title and little space above it, so that a lesson's first chart is on
# a projector's first screen (1280 x 720, 1024 x 768).
_LECTURE_CSS = """
<style>
  html { font-size: 21px; }
  /* a value written with "≈" (viz.maths.written) is two characters longer: it still fits its
     column at 1024 px */
  [data-testid="stMetricValue"] { font-size: 2.2rem; }
  .katex { font-size: 1.3em !important; }
  /* a long formula breaks after a relation or an operator, as a line of text does, rather
     than scroll sideways out of the picture */
  .katex-display > .katex, .katex-display > .katex > .katex-html { white-space: normal; }
  .katex-display { overflow: visible !important; text-align: left; }
  [data-testid="stMainBlockContainer"] { max-width: 100%; padding: 3.4rem 2rem 2rem; }
  [data-testid="stMainBlockContainer"] h1 { font-size: 1.75rem; padding: 0; line-height: 1.25; }
  /* a class's bar (ui/classroom_assets): on the title's row, at its right (ui.classroom's
     title_slot), no taller than the title; its words in two short lines beside its buttons,
     which keep a finger's 44 px; the join link said to a screen reader only (the join card
     shows it to the room) */
  div.pl-class { flex-wrap: nowrap; gap: 0.25rem; padding: 0 0.2rem; font-size: 0.65rem;
    line-height: 1.15; }
  .pl-class-text { flex: 0 1 auto; max-width: 5.4em; }
  .pl-class-code { white-space: nowrap; }
  .pl-class-join { position: absolute; width: 1px; height: 1px; overflow: hidden;
    clip-path: inset(50%); white-space: nowrap; }
  div.pl-class .pl-button { min-height: 44px; margin: 0; padding: 0 0.3rem;
    flex: 0 1 auto; max-width: 7.6em; white-space: normal; line-height: 1;
    font-size: 0.65rem; }
  div.pl-class .pl-class-tally { flex: 0 1 auto; max-width: 8.4em; padding: 0 0.3rem;
    text-align: center; line-height: 1.05; border-radius: 0.5rem; }
  /* a question asked in the strip (ui/classroom_assets/questions.js): a panel at the foot of
     the right-hand side (over the lower maths, clear of a lecture's slide bar at the foot), the
     plane and the step's controls in sight */
  div.pl-class .pl-class-quiz:not([hidden]) { position: fixed; bottom: 2.2rem; right: 1rem;
    width: min(34rem, 44vw); max-height: 48vh; overflow: auto; z-index: 30;
    font-size: 0.85rem; line-height: 1.3; padding: 0.6rem 0.8rem; border-radius: 0.5rem;
    background: var(--st-secondary-background-color, white);
    border: 1px solid var(--st-border-color, currentColor); }
  div.pl-class .pl-class-quiz .pl-button { max-width: none; font-size: 0.85rem; }
  [data-testid="stHorizontalBlock"]:has(> * .pl-class) { column-gap: 0.4rem; }
  [data-testid="stHorizontalBlock"] > :has(.pl-class) { flex: 0 0 auto; width: auto;
    margin-left: auto; }
  /* ... the title taking what the bar leaves (its own basis is the row's whole width, which
     put the bar on a row of its own under it: the plane 60 px lower on a 4:3 screen), and
     wrapping its words where that is too little */
  [data-testid="stHorizontalBlock"]:has(> * .pl-class) > :has(h1) { flex: 1 1 0; }
  /* every page on a projector, a chart's as a step's (ui/stepper_assets/stepper.css): a slim
     title beside the sidebar's toggle, the header band behind it see-through */
  [data-testid="stHeader"] { background: transparent; pointer-events: none; }
  [data-testid="stHeader"] button { pointer-events: auto; }
  [data-testid="stMainBlockContainer"] { padding: 0.4rem 3.25rem 3rem; }
  [data-testid="stMainBlockContainer"] h1 { font-size: 1.6rem; line-height: 1.3; }
  @media (max-aspect-ratio: 3/2) {
    [data-testid="stMainBlockContainer"] { padding-left: 2.5rem; padding-right: 1.25rem; }
    [data-testid="stMainBlockContainer"] h1 { font-size: 1.35rem; }
    /* in a class on a 4:3 projector the title row holds the strip as well: a button beside the
       title shows its icon alone (its name is still what a screen reader says), so that the
       title keeps two lines and the plane its height */
    [data-testid="stHorizontalBlock"]:has(> * .pl-class) [data-testid="stButton"] button p {
      position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%);
      white-space: nowrap; }
  }
</style>
"""


# On every page: labels wrap rather than end in "…" ("still lear…", "Sh…" were seen).
_PAGE_CSS = """
<style>
  [data-testid="stMetricLabel"] *, [data-testid="stWidgetLabel"] *, .stButton button * {
    white-space: normal !important; overflow: visible !important; text-overflow: clip !important;
    word-break: normal !important; overflow-wrap: normal !important;
  }
</style>
"""


def lecture_mode() -> bool:
    """Whether the page is drawn for a projector."""
    return bool(st.session_state.get(LECTURE.key,
                                     st.session_state.get(_KEPT, LECTURE.default)))


# the switch's value as the session keeps it: Streamlit forgets a widget's value after a run
# that did not draw the widget (a run a class's view ends early, before the sidebar)
_KEPT = f"{LECTURE.key}.kept"


def lecture_toggle() -> None:
    """The sidebar switch (the page's ``Lesson`` enlarges the type, see :func:`lecture_css`)."""
    st.session_state[LECTURE.key] = st.session_state.get(
        LECTURE.key, st.session_state.get(_KEPT, LECTURE.default))
    LECTURE.draw()
    st.session_state[_KEPT] = st.session_state[LECTURE.key]
    url_state.write([LECTURE])


def lecture_css(early: str = "") -> None:
    """Labels that wrap, text colours that read in both themes, boxes that scroll sideways
    reachable by keyboard (ui.theme); in lecture mode, the page's type and spacing for a
    projector. ``early``: a script the page runs as it opens (a lesson's: its Plotly loads).

    Drawn in the main area at the top of every page: in a collapsed sidebar (where a
    lecture link opens) the style did not always reach the page.
    """
    # in a container of its own that takes no room: a script would otherwise cost a gap
    with st.container(key=PAGE_STYLE_KEY):
        own = _LECTURE_CSS if lecture_mode() else SHORT_WINDOW_CSS
        st.html(page_css() + _PAGE_CSS + own + PAGE_SCRIPT + TOP_SCRIPT + early,
                unsafe_allow_javascript=True)

