"""A class in the app: the lecturer leads from any lesson, every student's page follows.

The class itself (its state, its routes, its store) is ``classroom/``; this module is what
the lecturer and the students see, around every lesson (app.py runs each page inside
:func:`class_session`):

- **Start.** The sidebar's *Start a class* opens a class on the current view. Its key
  stays in this session (``class.key``) and in the lecturer's own strip component (which
  keeps it in the tab's sessionStorage, so that a reload of that tab leads the class
  again); the projector shows the code, the link ``/?class=CODE`` and its QR code. A
  lecturer's address never holds ``class=``; a phone takes a key of its own through a
  one-time ``?class=CODE&remote=TOKEN`` link.
- **The view.** A view is what a Share link holds, as one query string, with the lesson
  as ``lesson=<url path>`` and without the step (which travels on its own), lecture mode
  (each screen's own) or the class's parameters. After every run of a lecturer's page
  whose view changed, the view is published (``set_view``); a page that follows a class
  and sees a newer ``view_seq`` asks for one run (through a relay component outside the
  strip's fragment) and *applies* it: the session's settings
  are dropped and the view's query string is read as a fresh link would be read (the
  lesson switched to when it is another), at the class's step.
- **Steps.** Presses never rerun: the stepper tells ``pl-step`` (its class layer,
  ui/stepper_assets/layers/class.js), the lecturer's strip posts the step, every
  follower's strip hears it on its event stream and moves its stepper with ``pl-class``
  (ui/classroom_assets/stream.js).
- **Exploring.** A student who presses, or whose view leaves the class's (a setting,
  another lesson), explores alone; *Rejoin* brings the class's view and step back.
- **Questions** are asked, answered, counted and revealed from the strips (ui/classroom_assets/):
  the server counts each browser once.
- **The end.** Ended or expired, a page keeps its last view and says so; a link to a
  class that is over says so and opens nothing else by itself.
"""

from __future__ import annotations

import contextlib
import io
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import TimeoutError as FutureTimeout
from pathlib import Path
from urllib.parse import parse_qsl, quote

import segno
import streamlit as st
from streamlit.runtime.scriptrunner import StopException

from classroom import codes, limits, server
from classroom.results import csv_text
from classroom.state import NEVER_VIEWED, ClassError, ClassState, public
from ui import class_questions, first_screen, js_modules, url_state
from ui.data_picker import YOUR_DATA
from ui.lecture import lecture_mode
from ui.outside import md
from ui.room_link import hall_root
from ui.settings import LECTURE
from viz import palette

ASSETS = Path(__file__).with_name("classroom_assets")
# the strip's script: stream.js, answers.js (the strip's questions, which it adds to the strip
# through strip.js's extensions) and every module they use, each joined after the modules it
# uses, as the header at the top of each file declares (ui/js_modules.py); dom.js is the
# stepper's own, shared
JS_MODULES = tuple(path.stem for path in js_modules.order([ASSETS / "stream.js",
                                                           ASSETS / "answers.js"]))
SHARED_JS = {"dom": Path(__file__).with_name("stepper_assets") / "dom.js"}


def module_path(name: str) -> Path:
    """The file of one of the strip's modules."""
    return SHARED_JS.get(name, ASSETS / f"{name}.js")


def script() -> str:
    """The strip's ES module: :data:`JS_MODULES` joined in their order."""
    return js_modules.join(module_path(name) for name in JS_MODULES)


COMPONENT = "perceptron_lab.classroom"
LESSON = "lesson"  # the view's name for the page (its url path; none for the first page)
# never part of a view: the class's own parameters, Streamlit's own, the step (it travels on
# its own), and lecture mode (each screen's own: a phone does not want a projector's type)
NOT_VIEW = NEVER_VIEWED | {"step", "t", "lecture"}
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
# the lecture plan (ui/lecture_plan.py)
_KEEP = ("class.", LECTURE.key, "data.user", "data.file", "plan.")


# ---------------------------------------------------------------- views


def encode_view(view: dict[str, str]) -> str:
    """A view as the class keeps it: its parameters sorted, each value percent-encoded.

    >>> encode_view({"lesson": "margin", "eta": "0.5", "pts": "1,-0.5,+;2,1,-"})
    'eta=0.5&lesson=margin&pts=1,-0.5,%2B;2,1,-'
    """
    return "&".join(f"{quote(k, safe='')}={quote(v, safe=',;-._~')}"
                    for k, v in sorted(view.items()))


def decode_view(text: str) -> dict[str, str]:
    """The inverse of :func:`encode_view` (a view from the class: no private parameter).

    >>> decode_view("eta=0.5&lesson=margin&pts=1,-0.5,%2B;2,1,-")["pts"]
    '1,-0.5,+;2,1,-'
    """
    return {k: v for k, v in parse_qsl(text, keep_blank_values=True)
            if k.lower() not in NOT_VIEW}


def owned(view: dict[str, str], parameters: frozenset[str] | None) -> dict[str, str]:
    """The view without the parameters the app does not own (``parameters``: those it owns,
    lessons.link_parameters(); None keeps every one).

    >>> owned({"lesson": "margin", "eta": "2", "utm_source": "mail"}, frozenset({"eta"}))
    {'lesson': 'margin', 'eta': '2'}
    """
    if parameters is None:
        return dict(view)
    return {k: v for k, v in view.items() if k == LESSON or k in parameters}


def view_of(params: dict[str, str], lesson: str,
            parameters: frozenset[str] | None = None) -> dict[str, str]:
    """The view of a page: its query parameters but the private ones (and those the app does
    not own, ``parameters`` as in :func:`owned`), and its lesson.

    >>> view_of({"data": "xor", "step": "4", "class": "ABCDEFGH", "lecture": "1"}, "margin")
    {'data': 'xor', 'lesson': 'margin'}
    """
    view = {k: v for k, v in params.items() if k.lower() not in NOT_VIEW}
    if lesson:
        view[LESSON] = lesson
    return owned(view, parameters)


def _current_view(page, parameters) -> dict[str, str]:
    return view_of(st.query_params.to_dict(), page.url_path, parameters and parameters())


def join_link(code: str, root: str | None = None) -> str:
    """The address students open to join: the app's root as the room opens it (``root``;
    by default ui.room_link's for this page) with ``?class=CODE``.

    >>> join_link("ABCDEFGH", "http://hall.example:8080/lab/")
    'http://hall.example:8080/lab/?class=ABCDEFGH'
    """
    return f"{root if root is not None else hall_root().url}?class={code}"


def qr_svg(link: str) -> str:
    """The link as a QR code, an SVG document (drawn as an image, never as HTML).

    >>> qr_svg("http://hall.example/?class=ABCDEFGH").startswith("<svg")
    True
    """
    buffer = io.BytesIO()
    segno.make(link, error="m").save(buffer, kind="svg", scale=10, border=2, xmldecl=False,
                                     svgns=True, dark=palette.QR_DARK, light=palette.QR_LIGHT)
    return buffer.getvalue().decode("ascii")


# ---------------------------------------------------------------- the store, from a script


class Unavailable(Exception):
    """The class store did not answer (Redis away, or too slow): try again on a later run."""


def _call(function, timeout: float = 5.0):
    store = server.classroom().store
    try:
        return server.call(function, timeout)
    except (*store.unavailable, TimeoutError, FutureTimeout) as failure:
        raise Unavailable(str(failure)) from None


def _get(code: str, timeout: float = 5.0) -> tuple[ClassState | None, bool]:
    """The class and, when there is none, whether it was there and ended."""
    async def read(store):
        state = await store.get(code)
        return state, (state is None and await store.was_ended(code))
    return _call(read, timeout)


def _ops(operation):
    """Run ``operation(ops)`` (classroom/ops.py: the same operations, and the same limits, as
    the HTTP routes) on the serving loop; its result."""
    operations = server.classroom().ops
    return _call(lambda _store: operation(operations))


def _address() -> str:
    """The browser's address, as the class routes see it (Streamlit says None for loopback)."""
    address = st.context.ip_address
    return address if isinstance(address, str) and address else "127.0.0.1"


def _open_class(view: str, step: int) -> tuple[str, ClassState]:
    """A new class on this view (``POST /class``'s operation, and its limit): key and state."""
    who = _address()
    return _ops(lambda ops: ops.start(who, view, step))


def _claim(code: str, token: str) -> str | None:
    """A key of this device's own for a remote token, once (``POST .../claim``'s operation)."""
    who = _address()
    try:
        return _ops(lambda ops: ops.claim(who, code, token))
    except ClassError:
        return None


def _act(action: str, **fields) -> tuple[ClassState, dict]:
    """A lecturer's action on the session's class, as its route does it (ops.ACTIONS)."""
    who, code, key = _address(), st.session_state[_CODE], st.session_state.get(_KEY)
    return _ops(lambda ops: ops.act(who, code, key, {"action": action, **fields}))


def _remote_token(code: str, key: str) -> str:
    """A one-time remote link's token for the class ``key`` leads (its route's operation)."""
    who = _address()
    return _ops(lambda ops: ops.act(who, code, key, {"action": "remote"}))[1]["remote"]


# ---------------------------------------------------------------- the session's class


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


def _apply(state: ClassState, pages: dict, page, parameters) -> None:
    """Make this page the class's view at its step: one run (a lesson's switch in it)."""
    view = owned(decode_view(state.view), parameters and parameters())
    target = pages.get(view.pop(LESSON, ""), page)
    params = dict(view)
    if st.session_state.get(_ROLE) != LECTURER:  # a lecturer's tab takes its class back by
        params["class"] = state.code             # its key after a reload, not by the link
    if state.step:
        params["step"] = str(state.step)
    if st.session_state.get(LECTURE.key):
        params["lecture"] = "1"
    _reset_session()
    st.session_state.update({_VIEW_SEQ: state.view_seq, _APPLIED: True, _TOOK: state.view_seq})
    if _mode() != FOLLOW:
        _set_mode(FOLLOW)
    if target.url_path != page.url_path:
        st.switch_page(target, query_params=params)
    st.query_params.from_dict(params)


def _start_class() -> None:
    """The sidebar's Start (a callback): a class on this view, led from this session."""
    try:
        key, state = _open_class("", 0)
    except ClassError as refused:
        st.session_state[_PROBLEM] = refused.message
        return
    except Unavailable:
        st.session_state[_PROBLEM] = "Classes are unavailable for a moment; try again."
        return
    _join(state.code, LECTURER, key)
    st.session_state.update({_VIEW_SEQ: state.view_seq, _CARD: True})


def _end_class() -> None:
    if st.session_state.get(_CODE) and st.session_state.get(_KEY):
        with contextlib.suppress(ClassError, Unavailable):
            _act("end")
        # the answers stay the lecturer's to download for the quiet hour after the end
        st.session_state[RESULTS] = (st.session_state[_CODE], st.session_state[_KEY])
    _leave()


def _results_button(code: str, key: str, label: str) -> None:
    """Download the class's answers as CSV (classroom/results.py; what ``GET
    /class/CODE/results`` gives the same key): one row per answer, a summary per question."""
    who = _address()
    try:
        results = _ops(lambda ops: ops.results(who, code, key))
    except (ClassError, Unavailable):
        return  # none kept (an hour after the end), or the store away: nothing to offer now
    now = csv_text(results)

    def fresh() -> str:
        # read as the button is pressed: the answers come without a run of this page
        try:
            return csv_text(_ops(lambda ops: ops.results(who, code, key)))
        except (ClassError, Unavailable):
            return now  # gone or away since: what this run read

    st.download_button(label, data=fresh, file_name=f"class-{code}-answers.csv",
                       mime="text/csv", key="class.results", on_click="ignore",
                       icon=":material/download:",
                       help="Every answer (slide, question, voter number, answer, right or not, "
                            "seconds after the question opened) and a summary per question.")


def _join_typed() -> None:
    code = codes.normalize_code(st.session_state.get("class.typed", ""))
    if code is None:
        st.session_state[_PROBLEM] = ("A class code is 8 letters and digits, like "
                                      "ABCD-EFGH (no 0, O, 1 or I).")
        return
    st.query_params["class"] = code
    st.session_state[_PROBLEM] = None


def _make_remote() -> None:
    if st.session_state.get(_CODE) and st.session_state.get(_KEY):
        try:
            token = _remote_token(st.session_state[_CODE], st.session_state[_KEY])
            state = _get(st.session_state[_CODE])[0]
            keys = len(state.key_hashes) if state is not None else 0
            st.session_state[_REMOTE] = (token, time.monotonic() + REMOTE_SHOWN_S, keys)
        except ClassError as refused:
            st.session_state[_PROBLEM] = refused.message
        except Unavailable:
            st.session_state[_PROBLEM] = "Classes are unavailable for a moment; try again."


# ---------------------------------------------------------------- around every page


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
    stopped = False
    try:
        yield
    except StopException:  # st.stop() ends a page early: the class goes on
        stopped = True
    except BaseException:
        if drawn is not None:
            first_screen.release(*drawn)
        raise
    if drawn is not None:  # (before the class's strip: a stopped page stops it again)
        first_screen.keep(*drawn, first_screen.recorded())
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
    if _in_class():
        if state is not None and whole:
            view = _current_view(page, parameters)
            if st.session_state.pop(_APPLIED, False):
                st.session_state[_BASELINE] = view
            elif view != st.session_state.get(_BASELINE):
                if st.session_state[_ROLE] == LECTURER:
                    state = _publish(view)
                elif _mode() == FOLLOW:
                    _set_mode(EXPLORE)
            st.session_state[_DIVERGED] = view != st.session_state.get(_BASELINE)
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


def title_slot() -> None:
    """The strip's place on the page's title row (ui.lesson's title calls it there): on a
    projector the strip takes no row of its own, the picture has its height.

    A container where it holds the strip, which a run keeps with the strip it drew last until
    this run draws it again (an empty was cleared as each of the lecturer's runs began: the bar
    went away for the run); an empty, which takes no width in the row, while the join card
    holds the strip over the page."""
    if _in_class() and lecture_mode():
        st.session_state[_TITLE_SLOT] = st.empty() if st.session_state.get(_CARD) \
            else st.container()


def _on_resume() -> None:
    """A reloaded tab of the lecturer's hands back the key it kept: lead the class again."""
    st.session_state[_RESUMED] = True
    value = (st.session_state.get("class.resume") or {}).get("resume")
    if not isinstance(value, dict):
        return
    code, key = codes.normalize_code(str(value.get("code", ""))), value.get("key")
    try:
        state = _get(code)[0] if code and codes.is_key(key) else None
    except Unavailable:
        state = None
    if state is not None and codes.key_matches(key, state.key_hashes):
        _join(code, LECTURER, key)  # the class's view and step again, as it left them


def _publish(view: dict[str, str]) -> ClassState | None:
    """The lecturer's page changed its view: every follower's page takes it, at this step.
    The class's state then (None when the class did not take it)."""
    step = st.query_params.get("step", "0")
    step = int(step) if step.isdigit() and len(step) < 9 else 0
    try:
        state = _act("view", view=encode_view(view), step=step)[0]
    except Unavailable:
        return None  # the view goes out on a later run (it still differs from the baseline)
    except ClassError as refused:
        if refused.status == 410:
            st.session_state[_OVER] = "ended"
        elif refused.status == 404:  # lost by its store: its strip gives it back, and the
            return None  # view goes out on a later run (it still differs from the baseline)
        else:
            st.toast(f"The class did not take this view: {refused.message}",
                     icon=":material/sync_problem:")
        return None
    st.session_state.update({_VIEW_SEQ: state.view_seq, _BASELINE: view, _TOOK: None})
    return state


# ---------------------------------------------------------------- what is drawn

_mount = st.components.v2.component(
    COMPONENT, css=(ASSETS / "classroom.css").read_text(),
    js=script(), isolate_styles=False)


def _on_mode() -> None:
    """The strip's student pressed (explore) or rejoined on the same view (follow)."""
    value = (st.session_state.get("class.strip") or {}).get("mode")
    if isinstance(value, dict) and value.get("mode") in (FOLLOW, EXPLORE) \
            and isinstance(value.get("n"), int) \
            and value["n"] > st.session_state.get(_MODE, (FOLLOW, 0))[1]:
        st.session_state[_MODE] = (value["mode"], value["n"])


def _on_rerun() -> None:
    """The strip heard of a newer view, or its student rejoins on another view: this run
    (the relay's trigger reruns the whole page) takes the class's view."""
    value = (st.session_state.get("class.relay") or {}).get("rerun")
    if isinstance(value, dict) and value.get("rejoin"):
        _set_mode(FOLLOW)
        st.session_state[_VIEW_SEQ] = None  # the class's view again, whatever it is


@st.fragment
def _strip_fragment() -> None:
    """The strip (and the projector's join card): a fragment, so that its reports (a student
    explores, rejoins on the same view) rerun only it."""
    code = st.session_state.get(_CODE)
    if not code:
        return
    lecturer = st.session_state.get(_ROLE) == LECTURER
    unavailable = lost = False
    fresh = st.session_state.pop(_FRESH, None)  # a full run's; a fragment's own reads it
    try:
        state, ended = (None, True) if st.session_state.get(_OVER) else \
            (fresh, False) if fresh else _get(code)
        lost = state is None and not ended  # the store lost it: not over (ops.restore)
    except Unavailable:
        state, unavailable = None, True
    mode, n = st.session_state.get(_MODE, (FOLLOW, 0))
    data = {"code": code, "display": codes.display_code(code), "role": st.session_state[_ROLE],
            "mode": mode, "n": n, "view_seq": st.session_state.get(_VIEW_SEQ),
            "synced": st.session_state.get(_VIEW_SEQ) == (state.view_seq if state else None)
            and not st.session_state.get(_DIVERGED),
            "state": public(state, with_view=False) if state else None,
            "link": join_link(code) if lecturer else None, "unavailable": unavailable,
            "lost": lost,
            "silent_ms": int(limits.SILENCE * 1000),
            # this page found the class: its stream is no guess (ops.look_up)
            "ticket": server.classroom().ops.ticket(code)}
    if lecturer:
        # a lecturer's page that took the class's view (a reload, another device's view)
        # takes its step too; one that published its own makes the class go where it is
        data.update(key=st.session_state.get(_KEY), took=st.session_state.get(_TOOK))
        key = st.session_state.get(_KEY)
        if state is not None and codes.key_matches(key, state.key_hashes):
            # what gives the class back where its store lost it (ops.restore): the charter
            # the server signs for this key, and the class's view
            st.session_state[_CHARTER] = server.classroom().ops.charter(state, key)
            st.session_state[_TALLY] = server.classroom().ops.tally_ticket(state)
            st.session_state[_LAST_VIEW] = state.view
        data.update(charter=st.session_state.get(_CHARTER),
                    tally=st.session_state.get(_TALLY),
                    view=st.session_state.get(_LAST_VIEW))
        # what the lecturer may ask on this page: the plan's slide's questions, the view's own
        # (ui/class_questions.py; the strip's questions.js sends them)
        data["asks"] = class_questions.offered(st.session_state.get(_LAST_VIEW) or "")
    _mount(key="class.strip", data=data, on_mode_change=_on_mode)
    if lecturer and state is not None and st.session_state.get(_CARD):
        _join_card(code)


def _join_card(code: str) -> None:
    """The projector's invitation: the code, the link and its QR code (and, when the room may
    not open the link, why and what to do)."""
    root = hall_root()
    link = join_link(code, root.url)
    with st.container(horizontal=True, vertical_alignment="center", gap="large",
                      key="class_card"):
        st.image(qr_svg(link), width=280, caption="Scan to join")
        with st.container():
            st.markdown("Join the class with the code")
            # a code is 8 characters of codes.ALPHABET and a dash: nothing to escape
            st.markdown(f"# {codes.display_code(code)}")
            st.markdown("or open")
            st.code(link, language=None)
    if root.note:
        st.warning(root.note, icon=":material/wifi_off:")
    if st.button("Hide the code", key="class.hide_card", icon=":material/visibility_off:"):
        st.session_state[_CARD] = False
        st.rerun()  # the whole page: the strip goes to the title's row (title_slot)


def _remote_gone() -> bool:
    """Whether the remote link asked for is to go: claimed by a phone, or shown long enough."""
    _token, until, keys = st.session_state[_REMOTE]
    if time.monotonic() >= until:
        return True
    try:
        state = _get(st.session_state[_CODE], 2.0)[0]
    except Unavailable:
        return False
    return state is None or len(state.key_hashes) > keys


@st.fragment(run_every=2.0)
def _remote_card() -> None:
    """The remote link and its QR code, asked for by the lecturer: shown until a phone claims
    it, for :data:`REMOTE_SHOWN_S` at most (every 2 s its fragment asks the class whether a
    phone claimed it); then the sidebar draws again without it (and its fragment stops)."""
    if not st.session_state.get(_REMOTE) or not st.session_state.get(_CODE):
        return
    if _remote_gone():
        st.session_state.pop(_REMOTE, None)
        st.rerun()  # the whole page: the fragment is not drawn again, and stops asking
    token, until, _keys = st.session_state[_REMOTE]
    link = f"{join_link(st.session_state[_CODE])}&remote={token}"
    left = max(0, round(until - time.monotonic()))
    st.warning("A link for your phone: it works once, within ten minutes. Keep it off the "
               f"projector: it goes from here once your phone opens it, or in {left} s.",
               icon=":material/phonelink_lock:")
    st.image(qr_svg(link), width=180)
    st.code(link, language=None, wrap_lines=True)


def _sidebar() -> None:
    """The foot of the sidebar: start or join a class; in one, its controls."""
    st.subheader("Class")
    problem = st.session_state.get(_PROBLEM)
    if problem:
        st.warning(problem, icon=":material/info:")
    code = st.session_state.get(_CODE)
    if not code:
        if st.session_state.get(RESULTS):
            _results_button(*st.session_state[RESULTS], "Download the last class's answers")
        st.button("Start a class", key="class.start", on_click=_start_class, type="primary",
                  icon=":material/co_present:", help="Your students' pages follow yours: "
                  "lesson, data, settings and step. The projector shows how to join.")
        with st.form("class.join", border=False, enter_to_submit=True):
            st.text_input("Join a class", key="class.typed", placeholder="ABCD-EFGH",
                          max_chars=16)
            st.form_submit_button("Join", on_click=_join_typed, icon=":material/login:")
        return
    shown = codes.display_code(code)
    if st.session_state.get(_OVER):
        st.info(f"The class {shown} has ended. This page keeps its last view.",
                icon=":material/event_busy:")
        st.button("Leave the class", key="class.leave", on_click=_leave)
        return
    if st.session_state[_ROLE] == STUDENT:
        st.caption(f"You are in the class {shown}.")
        st.button("Leave the class", key="class.leave", on_click=_leave,
                  icon=":material/logout:")
        return
    st.caption(f"You lead the class {shown}.")
    if not st.session_state.get(_CARD):
        st.button("Show how to join", key="class.show_card", icon=":material/qr_code_2:",
                  on_click=lambda: st.session_state.update({_CARD: True}))
    if st.session_state.get(_REMOTE):
        _remote_card()
    else:
        st.button("Phone as a remote", key="class.remote_button", on_click=_make_remote,
                  icon=":material/phonelink:",
                  help="A one-time link that lets your phone drive the class too.")
    if st.session_state.get(_KEY):
        _results_button(code, st.session_state[_KEY], "Download the answers (CSV)")
    st.button("End the class", key="class.end", on_click=_end_class,
              icon=":material/stop_circle:")

