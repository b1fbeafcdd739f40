"""The class store, from a script: the same operations as the HTTP routes (classroom/ops.py),
run on the serving loop; a store that does not answer is :class:`Unavailable`."""

from __future__ import annotations

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
