"""The session's class: the names it keeps in session state; joining, leaving, following or
exploring it; and the session's settings dropped as a view is taken."""

from __future__ import annotations

import streamlit as st

from ui.settings import LECTURE

FOLLOW, EXPLORE = "follow", "explore"
# how long a page opening a class's link waits for the class: a hall opening the link at
# once queues hundreds of scripts on one process, and the store's loop waits its turn
# among them (1,000 joins on 2 processes at load 20: 723 pages gave up after 5 s); a page
# that gives up says "reload", which the whole hall would then do
JOIN_PATIENCE = 30.0
LECTURER, STUDENT = "lecturer", "student"

_CODE, _ROLE, _KEY = "class.code", "class.role", "class.key"
_VIEW_SEQ = "class.view_seq"  # the class's view_seq this page took or gave last
_BASELINE = "class.baseline"  # this page's own view then: a change from it is the page's
_APPLIED = "class.applied"  # a view was applied in this run: its page's view is the baseline
_FRESH = "class.fresh"  # the class's state as this run read (or changed) it, for its strip
_TOOK = "class.took"  # the view_seq this page took from the class since it last published one
_DIVERGED = "class.diverged"  # this page's view is not the one it took from the class
_MODE = "class.mode"  # (follow | explore, n): n orders the page's and the server's changes
_OVER = "class.over"  # "ended" once the class is over (the page keeps its view)
_REMOTE = "class.remote"  # a remote link asked for: (token, shown until, keys then)
# how long the remote link's QR code stays in the sidebar (a projector may show the sidebar):
# it goes as soon as a phone claims it, and after this long in any case
REMOTE_SHOWN_S = 60
_CARD = "class.card"  # the projector's join card is shown
_PROBLEM = "class.problem"  # why a link's class could not be joined
_RESUMED = "class.resumed"  # a reloaded tab handed back the class it led (once)
_AHEAD = "class.ahead"  # this page is a slide prepared ahead (ahead())
_CHARTER = "class.charter"  # the lecturer's proof for its key (codes.charter, ops.restore)
_TALLY = "class.tally"  # what its projector's stream shows the counts with (codes.tally_ticket)
_LAST_VIEW = "class.last_view"  # the class's view as this lecturer's page last read it
_FIRST = "class.first"  # this session has just opened a class's link: its first run to come
_REST = "class.rest"  # this session's last run was a first screen: its next is its rest
# this run's place for the strip on its title's row (title_slot): a projector's, this run only
_TITLE_SLOT = "_class_title_slot"
# the last class this session led, (code, key): its answers to download after its end (not a
# "class." key: leaving a class forgets those)
RESULTS = "results.class"
# kept when a view is applied: the class, lecture mode, the student's own points and file,
# the lecture plan (ui/lecture_plan/)
_KEEP = ("class.", LECTURE.key, "data.user", "data.file", "plan.")


def _in_class() -> bool:
    return bool(st.session_state.get(_CODE))


def _mode() -> str:
    return st.session_state.get(_MODE, (FOLLOW, 0))[0]


def _set_mode(mode: str) -> None:
    n = st.session_state.get(_MODE, (FOLLOW, 0))[1]
    st.session_state[_MODE] = (mode, n + 1)


def _leave() -> None:
    for name in [k for k in st.session_state if str(k).startswith("class.")]:
        if name != _CARD:
            del st.session_state[name]
    st.query_params.pop("class", None)


def _join(code: str, role: str, key: str | None = None) -> None:
    _leave()
    st.session_state.update({_CODE: code, _ROLE: role, _VIEW_SEQ: None, _BASELINE: None,
                             _MODE: (FOLLOW, 0)})
    if key:
        st.session_state[_KEY] = key


def _reset_session() -> None:
    """Forget every setting of this session, as a fresh link's page would start."""
    for name in list(st.session_state):
        if not str(name).startswith(_KEEP):
            del st.session_state[name]


reset_session = _reset_session  # (a lecture plan's slide opens its view as a class's does)


def ahead() -> None:
    """This session's page is a slide prepared ahead of time: a projector's next slide, opened
    out of sight in a frame of the lecturer's own page (ui/lecture_plan). It never takes back
    a class its browser led (it would find the lecturer's kept key, lead the class and go to
    the class's view), and it offers its run and view for the key that shows it
    (ui/classroom/follow.py: offer_ahead, give_ahead)."""
    st.session_state[_RESUMED] = True
    st.session_state[_AHEAD] = True
