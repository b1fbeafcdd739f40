"""The component on a lesson's page: mounted in a fragment with its Keys and Share toolbar,
its run's bytes packed once per position, and on a class's first screen replayed."""

from __future__ import annotations

import gzip
import hashlib
import json
import threading
from collections.abc import Callable
from functools import partial

import streamlit as st

from ui import first_screen, url_state
from ui.lecture import lecture_mode
from ui.stepper.assets import script, style
from ui.stepper.files import serve_plotly
from ui.stepper.header import Header, Run
from ui.stepper.sync import _on_position
from ui.stepper.wire import pack
from viz.plane import CHART_CONFIG

COMPONENT = "perceptron_lab.stepper"


serve_plotly()
_mount = st.components.v2.component(COMPONENT, css=style(), js=script(), isolate_styles=False)


KEYS_HELP = """
| key | does |
| --- | --- |
| → | Step: visit the next example |
| ← | Back: undo the last step |
| N | Next mistake: jump to the next update |
| Home | Reset: back to the start |
| Tab / Enter | move between and press any control |

The keys work wherever the page has focus, except while you type in a field.
▶ Play runs the steps at the chosen speed; *Predict* asks before each step.
"""


def keys_button() -> None:
    """A popover that lists the keyboard shortcuts."""
    with st.popover("Keys", icon=":material/keyboard:"):
        st.markdown(KEYS_HELP)


# the Keys and Share row over a stepper (its key's start): a phone's page puts it under the run
TOOLBAR_KEY = "pl-toolbar"


# a toolbar's place held for the page's next run (a class's first screen: ui.first_screen)
LATER = "later"


def _toolbar(key: str, toolbar: bool | str = True) -> None:
    """The Keys help and the Share link, side by side at their own widths (never cut short);
    on a wide window at the top of the steps' column (stepper.css, .pl-toolbar). Its place
    only, with ``toolbar=LATER``."""
    if toolbar == LATER:
        st.empty()
        return
    with st.container(horizontal=True, gap="small", key=f"{TOOLBAR_KEY}-{key}"):
        keys_button()
        with st.container(width="content"):  # its popover stretches to what holds it
            url_state.share_button()


@st.fragment
def _synced(key: str, blob: bytes, toolbar: bool, panels, address: bool, lead: bool) -> None:
    """The component inside a fragment: a sync reruns this alone, with the same bytes.

    The Share link is drawn here too, so that it holds the step the browser reported, and
    the lesson's panels that follow the step on the server.
    """
    # on a projector, and over two runs side by side (whose controls reach across both, with
    # the height theirs), the step comes first: the help and the link go under it
    below = lead or lecture_mode()
    if toolbar and not below:
        _toolbar(key, toolbar)
    _mount(key=key, data=blob, on_position_change=partial(_on_position, key, address))
    if toolbar and below:
        _toolbar(key, toolbar)
    if panels is not None:
        panels(int(st.session_state[f"{key}.t"]))


def _changed(header, **changes):
    """A header with these fields changed (a test's plain dict too)."""
    return header.with_(**changes) if isinstance(header, Header) else {**header, **changes}


def _tag(run: Run, start: int, keys: bool) -> tuple:
    look = hashlib.blake2b(json.dumps(dict(run.header), sort_keys=True).encode(), digest_size=8)
    return (run.id, look.hexdigest(), start, keys)


def _packed(run: Run, start: int, keys: bool) -> tuple[tuple, bytes]:
    """The run's bytes with the position to open at, and their tag."""
    return _tag(run, start, keys), pack({**run.header, "run": run.id, "start": start,
                                         "keys": keys, "config": CHART_CONFIG}, run.columns)


def _blob(key: str, run: Run, start: int, keys: bool) -> bytes:
    """The run's bytes with the position to open at, rebuilt only when either changes."""
    cache = st.session_state.get(f"{key}.stepper.blob")
    if cache is not None and cache[0] == _tag(run, start, keys):
        return cache[1]
    made = _packed(run, start, keys)
    st.session_state[f"{key}.stepper.blob"] = made
    return made[1]


# a class's page asks, for one run, which run its picture is (the first stepper the page draws,
# not one that follows another): ``watch_picture`` before the page, ``picture_run`` after it
_PICTURE = "_stepper.picture"


def watch_picture() -> None:
    """Note the run of the first stepper this run of the page draws (ui/classroom/page.py)."""
    st.session_state[_PICTURE] = None


def picture_run() -> Run | None:
    """The run of the first stepper this run drew since :func:`watch_picture` (None: none);
    forgotten as it is read."""
    return st.session_state.pop(_PICTURE, None)


def _note_picture(run: Run) -> None:
    if _PICTURE in st.session_state and st.session_state[_PICTURE] is None:
        st.session_state[_PICTURE] = run


_SHARED: dict[tuple, tuple[str, bytes]] = {}  # a few runs' shared bytes, by their tag
_SHARED_RUNS = 16
_SHARED_LOCK = threading.Lock()


def shared_run(run: Run) -> tuple[str, bytes]:
    """The digest and the gzipped bytes of ``run`` as the follower page steps it: opened before
    its first step, owning the keys, not in lecture mode (a phone's type, not a projector's).
    The same run packs to the same bytes (and digest) on every page and every process; a run
    packed lately is not packed again."""
    tag = _tag(run, 0, True)
    made = _SHARED.get(tag)
    if made is None:
        blob = _packed(Run(run.id, run.steps, _changed(run.header, lecture=False), run.columns),
                       0, True)[1]
        length = int.from_bytes(blob[:4], "little")
        made = (json.loads(blob[4:4 + length])["digest"], gzip.compress(blob, 6, mtime=0))
        with _SHARED_LOCK:  # (the sessions' script threads share it)
            while len(_SHARED) >= _SHARED_RUNS:
                _SHARED.pop(next(iter(_SHARED)))
            _SHARED[tag] = made
    return made


def stepper(*, key: str, run: Run, keys: bool = True,
            toolbar: bool = True, panels: Callable[[int], None] | None = None,
            lead: bool = False, follow: str | None = None, address: bool = True) -> int:
    """Draw the stepper for one run; return the step the server knows (debounced).

    Parameters
    ----------
    key : str
        Names the stepper's state: ``{key}.t`` holds the step.
    run : Run
        What to step through, e.g. from :func:`perceptron_run`.
    keys : bool, default True
        Whether this stepper owns →, ←, N and Home (one per page should).
    toolbar : bool, default True
        Draw the Keys help and the Share link above it (under it on a projector, and under
        a leader).
    panels : callable, optional
        ``panels(k)`` draws what the server shows for step k (numbers that need
        the server, extra charts). It runs under the stepper and again after each
        debounced report, so it follows the student a moment after they stop.
    lead : bool, default False
        Other steppers may follow this one (``follow=key``): every step moves them too.
    follow : str, optional
        The key of the stepper to follow: this one then has no controls, no keys
        and no report of its own, and shows the leader's step (runs of one length).
    address : bool, default True
        Keep this stepper's step as ``step=k`` in the address bar; one stepper per
        page does, a second one on the page (with ``keys=False``) does not.

    Returns
    -------
    int
        The step last reported by the browser (or from a link), 0 to ``run.steps``.
    """
    if follow is not None:
        k = min(int(st.session_state.get(f"{follow}.t", 0)), run.steps)
        header = _changed(run.header, follow=follow)
        _mount(key=key, data=_blob(key, Run(run.id, run.steps, header, run.columns), k, False))
        return k
    _note_picture(run)
    if lead:
        run = Run(run.id, run.steps, _changed(run.header, lead=key), run.columns)
    position_key = f"{key}.t"
    if st.session_state.get(f"{key}.stepper.run") != run.id:
        st.session_state[position_key] = 0  # a new run opens before its first step
    linked = url_state.pending_step() if address else None
    if linked is not None:
        st.session_state[position_key] = linked
    k = _at(key, run, int(st.session_state.get(position_key, 0)), address)
    if not lead:  # (a leader's picture is more than its own stepper)
        first_screen.picture(_replayed, key, run, keys, toolbar, address)
    _synced(key, _blob(key, run, k, keys), toolbar, panels, address, lead)
    return k


def _at(key: str, run: Run, k: int, address: bool) -> int:
    """The stepper ``key`` is at step k of ``run`` (within its steps), in the session and in
    the address when it keeps the step there; that step."""
    k = min(max(k, 0), run.steps)
    st.session_state.update({f"{key}.t": k, f"{key}.stepper.run": run.id,
                             f"{key}.stepper.steps": run.steps})
    if address:
        url_state.write_step(k)
    return k


# the steps a first screen's run is packed at, kept for every page that replays it
MEMO_STEPS = 8


def _replayed(key: str, run: Run, keys: bool, toolbar: bool, address: bool, *, step: int,
              memo: dict) -> None:
    """The stepper on a class's first screen (ui.first_screen), at the class's step: as
    :func:`stepper` leaves it, its run packed once for every page that replays it (``memo``)."""
    k = _at(key, run, step, address)
    packed = memo.get(k)
    if packed is None:
        if len(memo) >= MEMO_STEPS:
            memo.pop(next(iter(memo)))
        packed = memo[k] = _packed(run, k, keys)
    st.session_state[f"{key}.stepper.blob"] = packed
    # the toolbar's place: its Keys and Share come with the page's rest
    _synced(key, packed[1], toolbar and LATER, None, address, False)
