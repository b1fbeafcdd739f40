"""Around every page: the class joined before it, its view taken or given after it, the
strip and the sidebar drawn."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence

import streamlit as st
from streamlit.runtime.scriptrunner import StopException

from classroom import codes
from classroom.state import ClassState
from ui import first_screen, rest_later, url_state
from ui.classroom.assets import _mount
from ui.classroom.follow import (
    _apply,
    _give_run,
    _offer_ahead,
    _offer_run,
    _on_resume,
    _publish,
)
from ui.classroom.session import (
    _AHEAD,
    _APPLIED,
    _BASELINE,
    _CARD,
    _CODE,
    _DIVERGED,
    _FIRST,
    _FRESH,
    _OVER,
    _PROBLEM,
    _REST,
    _RESUMED,
    _ROLE,
    _TITLE_SLOT,
    _VIEW_SEQ,
    EXPLORE,
    FOLLOW,
    JOIN_PATIENCE,
    LECTURER,
    STUDENT,
    _in_class,
    _join,
    _mode,
    _set_mode,
)
from ui.classroom.sidebar import _sidebar
from ui.classroom.store import Unavailable, _claim, _get
from ui.classroom.strip import _on_rerun, _strip_fragment
from ui.classroom.views import _current_view, decode_view
from ui.data_picker import YOUR_DATA
from ui.lecture import lecture_mode
from ui.outside import md
from ui.stepper.component import picture_run, watch_picture


@contextlib.contextmanager
def class_session(pages: Sequence, page,
                  parameters: Callable[[], frozenset[str]] | None = None) -> Iterator[None]:
    """Run one page inside the session's class (app.py: ``with class_session(...): page.run()``).

    ``parameters`` gives those the app's links hold (lessons.link_parameters, asked only in
    a class: it imports every lesson): a view carries only these, whatever else the
    lecturer's address or a view from outside holds.

    Before the page: a link's class is joined (a remote link's token traded for a key),
    and a page that follows takes the class's newer view (switching lesson if need be).
    After it: a lecturer's changed view goes to the class, a student's marks them as
    exploring; the strip (and the projector's join card) fills the top of the page, the
    class's controls the foot of the sidebar.

    A student's page that has just opened a class's link draws the view's first screen
    instead of the page's script when this process has it (ui.first_screen: a hall opening
    the link at once), and its rest with its next run; a student's page that takes the
    class's view draws it whole and records its first screen.
    """
    by_path = {p.url_path: p for p in pages}
    if st.session_state.pop(_REST, False):  # a first screen's rest: after the burst's others
        first_screen.after_first_screens()
    # the strip's place at the top (a function that opens it): in a class a container, which
    # a run keeps with the strip it drew last until this run draws it again, and which holds
    # it as the first run's empty held it (an empty cleared it as a run began: the strip went
    # away for the run and came back a new one, its stream opened again)
    if _in_class():
        top = st.container()
        slot = lambda: top
    else:
        slot = st.empty().container
    st.session_state.pop(_TITLE_SLOT, None)
    state = _before(by_path, page, parameters)
    first = st.session_state.pop(_FIRST, False)
    screen = None  # the view's first screen (ui.first_screen), of which this run
    drawn = None   # is a replay, or the whole page that records it
    if state is not None and st.session_state.get(_APPLIED) and _alike(state.view) \
            and st.session_state.get(_ROLE) == STUDENT:
        drawn = (state.view, lecture_mode())
        screen = first_screen.take(*drawn) if first else None
    if screen is not None:
        with first_screen.drawing():
            st.session_state[_REST] = True
            first_screen.schedule(screen, state.step, page.url_path)
            yield  # the page draws the screen; its script runs with its rest
            _after(page, state, slot, parameters, whole=False)
        return
    if drawn is not None:
        first_screen.begin_run()
    if state is not None or st.session_state.get(_AHEAD):
        watch_picture()  # the run of the page's picture, for the follower page (_after)
    stopped, done = False, []

    def before_end() -> None:
        # a projector's run that ends at its picture (ui.rest_later.end_here): the class
        # hears the view now, not with the rest (a run once stopped can draw nothing more)
        done.append(True)
        _after(page, state, slot, parameters)

    ending = rest_later.BEFORE_END.set(before_end if drawn is None else None)
    try:
        yield
    except StopException:  # st.stop() ends a page early: the class goes on
        stopped = True
    except BaseException:
        if drawn is not None:
            first_screen.release(*drawn)
        raise
    finally:
        rest_later.BEFORE_END.reset(ending)
    if drawn is not None:  # (before the class's strip: a stopped page stops it again)
        first_screen.keep(*drawn, first_screen.recorded())
    if not done:
        _after(page, state, slot, parameters)
    if stopped:
        st.stop()


def _alike(view: str) -> bool:
    """Whether the view opens the same page in every session (not a view of someone's own
    points too many for a link, which a page opens on its own points or the default data)."""
    params = decode_view(view)
    return not (params.get("data") == url_state.slug(YOUR_DATA) and "pts" not in params)


def _before(pages: dict, page, parameters) -> ClassState | None:
    params = st.query_params
    typed = params.get("class")
    opened = None  # the class a link names, as it was read to join it
    if typed is not None:
        code = codes.normalize_code(typed)
        remote = params.get("remote")
        problem = None
        if code and remote is not None:
            st.query_params.pop("remote", None)  # never kept, never shared
            try:
                key = _claim(code, remote)
            except Unavailable:
                key = None
            if key:
                _join(code, LECTURER, key)
                st.query_params.pop("class", None)
            else:
                problem = ("This remote link was used already or expired (it works once, "
                           "for ten minutes): this page follows the class as a student.")
        if code is None or code != st.session_state.get(_CODE):
            opened = _open_link(code, typed)
        if problem:
            st.session_state[_PROBLEM] = problem
    if not _in_class() or st.session_state.get(_OVER):
        return None
    code = st.session_state[_CODE]
    try:
        # a link just joined has the class's state already: a hall opening the link at once
        # waits on the store once per page, not twice
        state, ended = (opened, False) if opened is not None else _get(code)
    except Unavailable:
        return None  # the page as it is; the strip says it reconnects
    if state is None:
        if ended:
            st.session_state[_OVER] = "ended"
        # else the store lost it: the page as it is, the strip says it reconnects, and the
        # lecturer's strip gives the class back (lead.js, ops.restore)
        return None
    follows = st.session_state[_ROLE] == LECTURER or _mode() == FOLLOW
    if follows and state.view_seq != st.session_state.get(_VIEW_SEQ):
        _apply(state, pages, page, parameters)
    return state


def _open_link(code: str | None, typed: str) -> ClassState:
    """A link (or a typed code) names a class: join it (its state), or say plainly why not
    and stop."""
    try:
        state, ended = _get(code, JOIN_PATIENCE) if code else (None, False)
    except Unavailable:
        st.error("Classes are unavailable for a moment: reload this page in a few seconds.",
                 icon=":material/cloud_off:")
        st.stop()
    if state is not None:
        _join(code, STUDENT)
        st.session_state[_FIRST] = True  # its first screen may be the view's (class_session)
        return state
    shown = md(typed[:20])  # outside text: shown as typed, never as Markdown
    if ended:
        message = (f"The class {shown} has ended (a class ends when its lecturer ends it, or "
                   "after an hour without a word from them).")
    else:
        message = f"No class has the code {shown}. Check the code on the projector."
    st.error(message, icon=":material/event_busy:")
    st.caption("This page opens nothing else by itself.")

    def drop() -> None:
        st.query_params.pop("class", None)

    st.button("Open the lesson without a class", on_click=drop, icon=":material/arrow_forward:")
    st.stop()


def _after(page, state: ClassState | None, slot, parameters, *, whole: bool = True) -> None:
    """The class around the page just drawn: ``slot()`` opens the strip's place at the top
    (``whole``: the page's script ran, rather than its first screen: then its view is the
    class's as it comes, the sidebar comes with its rest)."""
    picture = picture_run()  # the first stepper this run drew (ui.stepper), or None
    if whole and not _in_class():
        _offer_ahead(page, picture, parameters)  # (a slide prepared ahead's)
    if _in_class():
        if state is not None and whole:
            view = _current_view(page, parameters)
            lecturer = st.session_state[_ROLE] == LECTURER
            if st.session_state.pop(_APPLIED, False):
                st.session_state[_BASELINE] = view
            elif view != st.session_state.get(_BASELINE):
                if lecturer:
                    state = _publish(view, picture)
                elif _mode() == FOLLOW:
                    _set_mode(EXPLORE)
            st.session_state[_DIVERGED] = view != st.session_state.get(_BASELINE)
            on_view = state is not None and not st.session_state[_DIVERGED] \
                and state.view_seq == st.session_state.get(_VIEW_SEQ)
            if on_view and lecturer:
                state = _give_run(state, picture)  # the follower page's run of this view
            elif on_view and _mode() == FOLLOW:
                _offer_run(state, picture)
        if state is not None:
            st.session_state[_FRESH] = state  # the strip needs not read the store again
        beside = st.session_state.pop(_TITLE_SLOT, None)
        # the join card needs the page's width: the strip over the page while it shows
        if beside is not None and not st.session_state.get(_CARD):
            slot = beside.container
        with slot():
            _strip_fragment()
    st.session_state.pop(_TITLE_SLOT, None)
    with st.sidebar:
        if whole:
            _sidebar()
        if _in_class():
            # the strip's requests for a run of the whole page: outside the strip's fragment,
            # so that a newer view costs one run (and no fragment that may be gone by then)
            _mount(key="class.relay", data={"relay": True}, on_rerun_change=_on_rerun,
                   height=0)
        if whole and not _in_class() and not st.session_state.get(_RESUMED):
            # a lecturer's tab reloaded takes its class back (drawn where it adds no space)
            _mount(key="class.resume", data={"resume": True}, on_resume_change=_on_resume,
                   height=0)
