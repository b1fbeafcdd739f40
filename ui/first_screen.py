"""A following student's first screen: the class's picture without its lesson's script.

A hall opens a class's link at once: hundreds of pages, each a first run of the same view at
the same step, on one process. A lesson's whole page costs some 30 ms of the server's CPU a
run (its settings, its data, its run and the messages of sixty elements), so the last of 300
pages waited 8-10 s (bench/README.md, "A hall opening a class's link at once"). What every one
of them shows first is the same: the page's style, its title, the notices over its run and the
stepper at the class's step. So a page that draws a class's view in full (a student's page
that has just taken it: its session was reset to the view, as a fresh link's) *records* those
elements as it draws them, and the view's next first runs on this process *replay* them:

- :func:`item` and :func:`picture` record an element drawn in the main area's top level, at
  its place there (its index: the replay puts each at the same place, so that the page's
  whole run later finds its stepper where it was and keeps it, with no new mount). An
  element drawn inside a container is not replayed, and a picture inside one leaves the view
  without a first screen.
- :func:`keep` makes what this run recorded the view's :class:`Screen`, shared by the process
  (a few views, the oldest dropped).
- :func:`take` gives a first run the view's screen; when there is none yet and another page
  is drawing the view in full, it waits for that one (a hall's first seconds on a second
  process), and otherwise this page draws in full (and records).
- :func:`schedule` makes this run's page the screen, which the page draws in place of its
  script (:func:`replayed`): empty places for what it does not hold, its items, the picture at
  the class's step; one page at a time (:func:`drawing`).

The page's rest (its sidebar, its prose, the rest of its parts) comes with its next run,
which the page asks for once the picture is drawn (ui.rest_later), later still in a burst
(:func:`spread_ms`), and which waits for the process's first screens still to be drawn
(:func:`after_first_screens`), so that a hall's first screens are not queued behind its
rests.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import streamlit as st
from streamlit.proto.RootContainer_pb2 import MAIN

# the views whose screens one process keeps (each holds its run: a few hundred KB)
KEPT = 8
# how long a first run waits for another page drawing its view in full, at most
WAIT_S = 10.0
# twice a whole page's run (bench/README.md): a burst's rests are spread over its joins of
# the last few seconds times this (at most REST_SPREAD_MAX_MS), so that they take half of a
# core at most and the class's steps still reach every page at once
REST_MS = 80
REST_SPREAD_MAX_MS = 60_000
_BURST_S = 5.0
# one first screen drawn at a time: a burst's hundreds of script threads otherwise take
# turns on the GIL through every message (bench/README.md: a join's CPU 8-9 ms against
# 9-11 with two at a time, and its pages drawn one after another rather than all at the
# end). Nothing inside waits for the store or the network; a page waits DRAWING_S at most.
DRAWING_S = 30.0
# and a page's rest waits while first screens are still to be drawn (REST_WAIT_S at most):
# whole runs beside them took the GIL from the burst's last first screens
REST_WAIT_S = 60.0

_RUN = "_pl.first"  # this run's record: [(index, draw, args, picture?)] or None (not replayable)
_REPLAY = "_pl.first.replay"  # (screen, step, page): this run's page is a first screen


@dataclass
class Screen:
    """A view's first screen: its items in the main area's order (the picture among them)."""

    items: tuple[tuple[int, Callable, tuple, bool], ...]
    memo: dict = field(default_factory=dict)  # the picture's packed run by step, shared


_lock = threading.Lock()
_screens: OrderedDict[tuple, Screen | None] = OrderedDict()
_drawing: dict[tuple, threading.Event] = {}
_joins: deque[float] = deque()  # when the pages that opened a class's link here began
_drawing_one = threading.Lock()  # the turn to draw a first screen
_to_draw = threading.Condition(_lock)  # notified as each first screen taken is drawn
_waiting = 0  # first screens taken (take) and not drawn yet (under _lock)


def begin_run() -> None:
    """This run records what it draws (a class's page drawing a view in full:
    ui.classroom.class_session; :func:`recorded` then)."""
    st.session_state[_RUN] = []


def _place() -> int | None:
    """The main area's next index, when the page draws in its top level now (None too where
    this Streamlit keeps its cursor elsewhere: then no view has a first screen)."""
    try:
        cursor = st._main._active_dg._cursor  # where the next element goes
    except AttributeError:
        return None
    if cursor is None or cursor.root_container != MAIN or cursor.parent_path:
        return None
    return cursor.index


def _note(draw: Callable, args: tuple, picture: bool) -> None:
    record = st.session_state.get(_RUN)
    if record is None:
        return
    at = _place()
    if at is None:
        if picture:  # a picture in a container: the view has no first screen
            st.session_state[_RUN] = None
        return
    record.append((at, draw, args, picture))


def item(draw: Callable, *args):
    """Draw ``draw(*args)`` and record it for the view's first screen; its result."""
    _note(draw, args, False)
    return draw(*args)


def note(draw: Callable, *args) -> None:
    """Record ``draw(*args)`` for the view's first screen, at the place of what the page draws
    next (a simpler element in place of a row the page's whole run draws)."""
    _note(draw, args, False)


def picture(draw: Callable, *args) -> None:
    """Record the page's picture: replayed as ``draw(*args, step=k, memo=...)`` (the caller
    draws it itself)."""
    record = st.session_state.get(_RUN)
    if record is not None and any(p for *_, p in record):
        return  # the first picture is the page's
    _note(draw, args, True)


def recorded() -> Screen | None:
    """What this run recorded, as a screen (None: no picture in the main area's top level);
    the record is the session's no longer."""
    record = st.session_state.pop(_RUN, None)
    if not record or not any(p for *_, p in record):
        return None
    return Screen(tuple(record[:next(i for i, r in enumerate(record) if r[3]) + 1]))


def take(view: str, lecture: bool) -> Screen | None:
    """The view's screen on this process, which the caller draws at once (in
    :func:`drawing`); None when this page draws the view in full (and records it:
    :func:`keep` then)."""
    key = (view, lecture)
    waiting = None  # another page drawing the view in full
    with _lock:
        _joins.append(time.monotonic())
        if key not in _screens:
            waiting = _drawing.get(key)
            if waiting is None:
                _drawing[key] = threading.Event()
                return None
    if waiting is not None:
        waiting.wait(WAIT_S)
    return _taken(key)


def _taken(key: tuple) -> Screen | None:
    """The screen kept for ``key``, counted as one to draw now (:func:`drawing`)."""
    global _waiting
    with _lock:
        screen = _screens.get(key)
        if screen is not None:
            _screens.move_to_end(key)
            _waiting += 1
        return screen


def keep(view: str, lecture: bool, screen: Screen | None) -> None:
    """``screen`` (what a page drawing the view in full recorded: :func:`recorded`) becomes the
    view's (None: the view has none), and the pages waiting for it go on."""
    key = (view, lecture)
    with _lock:
        if key in _drawing or _screens.get(key) is None:  # (one kept stays, with its packings)
            _screens[key] = screen
        _screens.move_to_end(key)
        while len(_screens) > KEPT:
            _screens.popitem(last=False)
        done = _drawing.pop(key, None)
    if done is not None:
        done.set()


def release(view: str, lecture: bool) -> None:
    """This page drew the view but kept nothing (its run failed): the waiting pages draw in
    full."""
    with _lock:
        done = _drawing.pop((view, lecture), None)
    if done is not None:
        done.set()


@contextmanager
def drawing() -> Iterator[None]:
    """Draw a first screen that :func:`take` gave: in turn (DRAWING_S at most, then anyway),
    and counted until drawn."""
    global _waiting
    turn = _drawing_one.acquire(timeout=DRAWING_S)
    try:
        yield
    finally:
        if turn:
            _drawing_one.release()
        with _to_draw:
            _waiting = max(0, _waiting - 1)
            _to_draw.notify_all()


def after_first_screens() -> None:
    """Wait until this process has no first screen left to draw (a page's rest: its whole run
    comes after a burst's first screens), REST_WAIT_S at most."""
    with _to_draw:
        _to_draw.wait_for(lambda: not _waiting, timeout=REST_WAIT_S)


def schedule(screen: Screen, step: int, page: str) -> None:
    """This run's page draws ``screen`` at ``step`` in place of its script (:func:`replayed`),
    and asks for its rest once drawn (ui.rest_later, as ``page``)."""
    st.session_state[_REPLAY] = (screen, step, page)


def replayed() -> bool:
    """Whether this run's page is a first screen (scheduled), drawn now: a lesson's page asks
    first (lessons.page), so that its elements are the page's own, as its script's are."""
    scheduled = st.session_state.pop(_REPLAY, None)
    if scheduled is None:
        return False
    screen, step, page = scheduled
    for at, draw, args, is_picture in screen.items:
        while (place := _place()) is not None and place < at:  # places the whole page fills
            st.empty()
        if is_picture:
            draw(*args, step=step, memo=screen.memo)
        else:
            draw(*args)
    from ui import rest_later

    rest_later.ask(page, spread_ms())
    return True


def spread_ms() -> int:
    """How long a page just drawn as a first screen may wait before it asks for its rest: the
    pages that opened a class's link here in the last few seconds (a burst's, all of them
    begun before the first of them is drawn) times twice a whole page's run, so that the
    rests come after the burst's first screens and spread out."""
    now = time.monotonic()
    with _lock:
        while _joins and now - _joins[0] > _BURST_S:
            _joins.popleft()
        joins = len(_joins)
    return min(REST_SPREAD_MAX_MS, joins * REST_MS) if joins > 1 else 0


def forget() -> None:
    """Drop every screen, and let every page waiting for one draw in full (tests)."""
    global _waiting
    with _lock:
        _screens.clear()
        _joins.clear()
        _waiting = 0
        waiting = list(_drawing.values())
        _drawing.clear()
    for done in waiting:
        done.set()
