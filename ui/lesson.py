"""One lesson page: its link state, its sidebar, its charts and its steps, in one object.

Every lesson has one shape: its parts (:class:`Parts`, ui/parts.py), each a function with
its name, and a page whose first line is
``lesson = Lesson(PAGE, SETTINGS, parts=PARTS)``. That reads the link (the
shared settings once per session, the page's own once per page), keeps every
setting alive across pages, and writes the page's settings back to the
address bar. Then the page draws through it:

- ``data, settings = lesson.begin(text)``: the shared sidebar (``lesson.data()``,
  ``lesson.training()``), the page's title with the Share link to this view
  beside it (``lesson.title``; the stepper's toolbar holds Share instead where
  a run is stepped, so that it carries the step), and the data cut to the
  lesson's budget of points, with a notice when it is a sample;
- ``lesson.widget(setting)``: one of its own settings (drawn, then linked);
- ``lesson.chart(fig, key=..., alt=...)``: every chart, with its alt text and
  lecture mode applied, drawn by the page's own Plotly (ui.chart);
- ``lesson.stepper(run)``: a run stepped through in the browser (ui.stepper);
  it returns the step the server draws its panels for;
- ``lesson.draw_parts(...)``: the lesson's parts, every one in turn, or the one
  its reader picked under the title.

On a projector a page's first run ends at its first chart or stepper, whose picture the
browser draws before it asks for the rest (ui.rest_later).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import NoReturn

import plotly.graph_objects as go
import streamlit as st

from datasets import Dataset
from ui import first_screen, rest_later, url_state
from ui.budget import lesson_data
from ui.chart import draw_chart
from ui.classroom import title_slot
from ui.data_picker import YOUR_DATA, data_picker
from ui.floats import float_marker
from ui.lecture import lecture_css, lecture_mode
from ui.outside import md
from ui.parts import PART as PART  # (re-exported: lessons take it from here)
from ui.parts import Parts
from ui.settings import Setting, defaults
from ui.state import keep_alive, keep_button_values, keep_shared_settings
from ui.stepper import PLOTLY_EARLY, Run, stepper
from ui.theme import INTRO_KEY, PARTS_KEY
from ui.training import training_settings
from ui.user_data import set_user_data
from viz.describe import attached
from viz.plane import CHART_CONFIG, legend_at_foot, named_axes
from viz.projector import for_projector
from viz.theme import for_dark

# a lesson's settings drawn over its run (Lesson.aside): on a phone they go under the run, as
# the control beside the title does (ui/stepper_assets/stepper.css)
ASIDE_KEY = "pl-aside"
# a projector's title row's place for what names the view (Lesson.heading)
HEADING_KEY = "pl-heading"
PICKER_WIDTH = 210  # px: a part's longest name in a projector's type, and the drop-down's arrow


def dark_page() -> bool:
    """Whether the page is in Streamlit's dark theme (the browser asked for it)."""
    return st.context.theme.type == "dark"


class PageEnds(Exception):
    """A lesson's page ends where it is (raised by :func:`cannot_go_on`, caught by
    lessons.page): its own elements stop there, and what the app draws after every page (a
    class's strip and its controls) is drawn all the same, which st.stop() would not let be:
    a stopped run stops every element after it."""


def cannot_go_on(message: str) -> NoReturn:
    """Say why the page cannot go on and end it there. The message shows as written, never as
    Markdown: it quotes a check's error, which may quote the reader's data."""
    st.error(md(message))
    raise PageEnds(message)


def plain_title(text: str) -> None:
    """A page's title alone (a class's first screen, until its row comes with the rest)."""
    st.title(text, anchor=False)


class Lesson:
    """A lesson page's link state, shared sidebar, charts, stepper and parts.

    Parameters
    ----------
    page : str
        The page's name; its session keys and chart keys start with it.
    settings : sequence of Setting, optional
        The page's own settings (ui.settings.Setting), linked as ``?param=value``.
    parts : Parts
        The lesson's parts (with the picker's setting among its settings when
        the reader picks one).
    shared : bool, default True
        Whether the page draws the shared data and training settings (and so
        reads them from a link); a page without them reads only lecture mode.

    Notes
    -----
    Creating it, at the top of the page before any widget, restores the link
    and keeps the values alive; values only change in widget callbacks before
    a run, so writing the link here and again after each widget drawn with
    :meth:`widget` keeps the address equal to the view.
    """

    def __init__(self, page: str, settings: Sequence[Setting] = (), *, parts: Parts,
                 shared: bool = True):
        self.page = page
        self.parts = parts
        picker = parts.settings(page)
        self._picker = picker[0] if picker else None
        self._picked: str | None = None
        # the picker first, as the first thing the page asks (its place in the address)
        self.settings = (*picker, *settings)
        keep_button_values()
        keep_shared_settings()
        url_state.restore(self.settings, page=page, shared=shared, your_data=YOUR_DATA,
                          set_user_data=set_user_data)
        keep_alive(defaults(self.settings))
        url_state.write(self.settings)
        self._share = None
        self._heading = None
        self._aside = None
        self._asides = 0
        self._columns: tuple[str, str] | None = None
        first_screen.item(lecture_css, PLOTLY_EARLY)

    def title(self, text: str, intro: str = "", beside: Callable[[], None] | None = None) -> None:
        """The page's title and introduction, and Share beside it (and under them the picker of
        the lesson's parts, when its reader picks one).

        Parameters
        ----------
        text : str
            The title.
        intro : str, optional
            What the lesson shows, as a caption under the title; in lecture mode
            it is the title's help (a ? to hover), so that the first chart is on
            a projector's first screen.
        beside : callable, optional
            Draws a control between the title and Share (e.g. the lecture notes'
            example), where it stays on a projector's first screen too.

        Notes
        -----
        Every part of every lesson can be linked: a stepper drawn later takes
        Share into its toolbar (:meth:`stepper`), where it holds the step.
        """
        lecture = lecture_mode()
        first_screen.note(plain_title, text)  # a class's first screen: the words alone
        # one row that gives the controls their own width and the title the rest (fixed
        # columns squeezed "Share" to a letter a line beside an open sidebar); the title holds
        # the introduction as its help too, shown where the caption under it folds away (a
        # phone: ui.theme; a projector draws no caption)
        with st.container(horizontal=True, vertical_alignment="center",
                          key=INTRO_KEY if intro and not lecture else None):
            # (no link to its own anchor: the page's top, beside the words it would wrap)
            st.title(text, help=intro or None, anchor=False)
            if beside is not None:
                beside()  # (a phone's page moves it under the run: stepper.css)
            if lecture:  # a projector's view of the lesson, on the page (Lesson.heading)
                self._heading = st.container(horizontal=True, width="content",
                                             vertical_alignment="center", key=HEADING_KEY)
            self._share = st.empty()
            with self._share.container(width="content"):
                url_state.share_button(place="title")
            title_slot()  # a class's strip, on a projector
        if intro and not lecture:
            with st.container(key=f"{INTRO_KEY}-text"):
                st.caption(intro)
        self._pick()

    def _pick(self) -> None:
        """The picker of the lesson's parts (once, under the title, or on a projector heading
        the sidebar's view when the parts say so), when the reader picks one."""
        if self._picker is None or self._picked is not None:
            return
        if self.parts.pick_aside and lecture_mode():
            self._picked = self.widget(replace(self._picker, widget="select"), self.heading(),
                                       label_visibility="collapsed", width=PICKER_WIDTH)
        else:
            with st.container(key=PARTS_KEY):
                self._picked = self.widget(self._picker, required=True,
                                           label_visibility="collapsed")

    def draw_parts(self, *args) -> None:
        """Draw the lesson's parts: the one its reader picked, or every one in turn.

        Each part is called as ``part(lesson, *args)``.
        """
        self._pick()
        names = self.parts.names if self._picker is None else (self._picked,)
        lead = self.parts.lead
        if lead in names and lecture_mode():  # the picture first on a projector
            names = (lead, *(name for name in names if name != lead))
        for name in names:
            self.parts[name](self, *args)

    def heading(self):
        """Where a projector's page shows what names its view (the part picked, a layout): on
        the title's row, beside the title, so that the room sees what the page speaks of and
        the picture keeps the height under the title; elsewhere :meth:`aside`."""
        if self._heading is None:
            return self.aside()
        return self._heading

    def aside(self):
        """Where the lesson's secondary settings go (a view's layout, data to try): in the page
        where they are drawn, or on a projector at the foot of the sidebar, so that the picture
        has the first screen and the settings stay one click away."""
        if not lecture_mode():
            # (keyed: a phone's page moves it under the run, stepper.css)
            self._asides += 1
            return st.container(key=f"{ASIDE_KEY}-{self._asides}")
        if self._aside is None:
            self._aside = st.sidebar.container()
            self._aside.subheader("This lesson's view")
        return self._aside

    def begin(self, text: str, intro: str = "",
              beside: Callable[[], None] | None = None) -> tuple[Dataset, dict]:
        """The sidebar's data and run settings, the title (:meth:`title`), and the data the
        lesson works on: at most its budget of points, a sample announced under the title
        (``ui.budget.lesson_data``, whose limits are keyed by the page's name).

        Returns
        -------
        (Dataset, dict)
            The data, and the run settings (keyword arguments for ``perceptron``).
        """
        with st.sidebar:
            data = self.data()
            settings = self.training()
        self.title(text, intro, beside)
        self._columns = data.columns  # the user's names for x₁ and x₂, on every plane (chart)
        return lesson_data(data, view=self.page), settings

    def data(self) -> Dataset:
        """The data picker (with the lecture switch) in the sidebar; the chosen data set."""
        return data_picker()

    def training(self) -> dict:
        """The run settings in the sidebar; keyword arguments for ``perceptron``."""
        return training_settings()

    def widget(self, setting: Setting, container=None, **kwargs):
        """Draw one of the page's settings and mirror its value in the link.

        Parameters
        ----------
        setting : Setting
            One of the page's settings.
        container : streamlit container, optional
            Where to draw it.
        **kwargs
            Passed to :meth:`Setting.draw`.

        Returns
        -------
        object
            The widget's value.
        """
        value = setting.draw(container, **kwargs)
        url_state.write([setting])
        return value

    def chart(self, fig: go.Figure, *, key: str, alt: str, **kwargs):
        """Draw a Plotly figure: alt text, the legend clear of the axes, larger in lecture mode,
        a small toolbar (:data:`CHART_CONFIG`).

        Parameters
        ----------
        fig : plotly.graph_objects.Figure
            The figure (not changed).
        key : str
            The chart's name in the page; its widget key is ``"<page>.<key>"``.
        alt : str
            What the chart is, for screen readers; what it shows now, in words the
            figure's builder attached (viz.describe), follows it.
        **kwargs
            ``config`` (the toolbar), ``clicks`` (see :func:`ui.chart.draw_chart`).

        Returns
        -------
        dict or None
            With ``clicks``, the point clicked since the last run (``{"x", "y"}``).
        """
        # a projector's wide plot is held by its height: the rows a flowing legend gives up go
        # to it (elsewhere they would only move down a plot held by its width)
        lecture = lecture_mode()
        fig = named_axes(fig, self._columns)
        fig = legend_at_foot(fig, flow=lecture)
        if lecture:
            fig = for_projector(go.Figure(fig))
        now = attached(fig)
        if now:
            alt = f"{alt.rstrip('. ')}. {now}"
        config = kwargs.pop("config", CHART_CONFIG)
        if dark_page():  # the page's theme as the browser last said it (the next rerun follows)
            fig = for_dark(fig.to_plotly_json())
        shown = draw_chart(fig, key=f"{self.page}.{key}", alt=alt, config=config, **kwargs)
        if shown is None:  # (a click on it is taken in whatever run it comes)
            rest_later.end_here(self.page)  # on a projector's first run, the picture first
        return shown

    def stepper(self, run: Run, *, part: str | None = None,
                panels: Callable[[int], None] | None = None, **options) -> int:
        """Step through a run; the position to draw (0 = the start).

        Parameters
        ----------
        run : ui.stepper.Run
            A run packed for the browser: it steps there, with no rerun per
            press. It carries its own signature: a new run starts over. A run
            whose header says it is in floats (``ui.floats.marked``) gets the
            mark over it (under it, for a follower).
        part : str, optional
            A part of the page with its own position (e.g. "kernel").
        panels : callable, optional
            ``panels(k)`` draws what the server shows for step k,
            again after each position the browser reports (ui.stepper.stepper).
        **options
            Passed to ``ui.stepper.stepper`` (``lead``, ``follow``).

        Returns
        -------
        int
            The position, 0 to the run's number of steps.
        """
        key = self.page if part is None else f"{self.page}.{part}"
        floats = run.header.get("floats")
        # a run in floats says so over its steps (ui.floats.marked); a follower's top is level
        # with its leader's controls, which reach across both runs: it says so under them
        follower = bool(options.get("follow"))
        if floats is not None and not follower:
            first_screen.item(float_marker, floats["note"])
        if self._share is not None and options.get("toolbar", True) and not follower:
            self._share.empty()  # the stepper's toolbar has Share, with the step it is on
        # on a projector's first run the page ends at its picture, and the panels come with the
        # rest (ui.rest_later; a projector steps two runs on one plane, ui.stepper.with_companion)
        first = rest_later.pending(self.page)
        k = stepper(key=key, run=run, panels=None if first else panels, **options)
        if floats is not None and follower:
            float_marker(floats["note"])
        rest_later.end_here(self.page)
        return k
