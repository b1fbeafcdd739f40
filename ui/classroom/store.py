"""The class store, from a script: the same operations as the HTTP routes (classroom/ops.py),
run on the serving loop; a store that does not answer is :class:`Unavailable`."""

from __future__ import annotations

import time
from concurrent.futures import TimeoutError as FutureTimeout

import streamlit as st

from classroom import server
from classroom.state import ClassError, ClassState
from ui.classroom.session import _CODE, _KEY


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


# the runs this process has seen kept in the store lately (digest -> when): a page of the class's
# view that draws the same run asks the store no more (a digest's bytes never change)
_KEPT_RUNS: dict[str, float] = {}
_KEPT_FOR = 600.0


def _keep_run(digest: str, blob: bytes, *, unless_kept: bool = False) -> bool:
    """Keep a view's packed run (gzipped) in the class store for the follower page (and its
    hashed name in the class's state is then the lecturer's to set); False when it is too large
    to keep. ``unless_kept``: a page that only offers it (a student's) first asks whether the
    store has it."""
    now = time.monotonic()
    if now - _KEPT_RUNS.get(digest, -_KEPT_FOR) < _KEPT_FOR:
        return True

    async def keep(store):
        if unless_kept and await store.has_run(digest):
            return True
        return await store.put_run(digest, blob)

    kept = _call(keep)
    if kept:
        if len(_KEPT_RUNS) > 256:
            _KEPT_RUNS.clear()
        _KEPT_RUNS[digest] = now
    return kept
