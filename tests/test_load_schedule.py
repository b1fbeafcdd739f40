"""The hall benchmark's students send what the page sends: its throttle, its recorded message."""

from __future__ import annotations

import itertools
import json

from hypothesis import example, given, settings
from hypothesis import strategies as st
from streamlit.proto.BackMsg_pb2 import BackMsg

from bench._protocol import Session
from bench.load import SYNC_EVERY, SYNC_IDLE, recorded_sync, sync_times


def ticked(presses: list[int], *, idle: int, every: int) -> list[tuple[int, int]]:
    """The page's timer rule run one millisecond at a time (presses in whole ms)."""
    out, k, sent_at, unsynced, due = [], 0, None, None, None
    pending = sorted(presses)
    for t in range(0, (pending[-1] if pending else 0) + every + idle + 1):
        # a timer due at this very millisecond fires before a press at it (a tie the
        # browser may break either way; the benchmark's schedule breaks it so)
        if due is not None and due <= t:
            out.append((t, k))
            sent_at, unsynced, due = t, None, None
        while pending and pending[0] == t:
            pending.pop(0)
            k += 1
            unsynced = t if unsynced is None else unsynced
            due = max(min(t + idle, unsynced + every), -10**9 if sent_at is None else
                      sent_at + every)
    return out


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 30_000), max_size=25, unique=True))
@example([0, 500])  # the second press lands on the first's idle limit
def test_the_schedule_is_the_pages_timer_rule(presses):
    presses = sorted(presses)
    got = sync_times([p / 1000 for p in presses])
    want = ticked(presses, idle=int(SYNC_IDLE * 1000), every=int(SYNC_EVERY * 1000))
    assert [(round(t * 1000), k) for t, k in got] == want
    if presses:
        assert got[-1][1] == len(presses)  # the last sync reports the last step
        gaps = [b[0] - a[0] for a, b in itertools.pairwise(got)]
        assert all(gap >= SYNC_EVERY - 1e-9 for gap in gaps)


def test_a_student_pressing_every_3_s_sends_13_syncs_a_minute_not_20():
    assert len(sync_times([0.7 + 3 * i for i in range(20)])) == 13


def _sync_frame(k: int) -> bytes:
    message = BackMsg()
    state = message.rerun_script
    state.query_string = "data=x&step=1"
    state.fragment_id = "frag"
    state.widget_states.widgets.add(id="$$ID-other", int_value=7)
    state.widget_states.widgets.add(
        id="$$ID-stepper", json_value=json.dumps({"position": {"run": "r", "k": k}}))
    state.cached_message_hashes.extend(["browser-hash"])
    return message.SerializeToString()


def test_replay_keeps_the_recorded_shape_with_this_sessions_k_query_and_cache():
    heartbeat = BackMsg()
    heartbeat.app_heartbeat = True
    recorded = recorded_sync([heartbeat.SerializeToString(), _sync_frame(1), b"\x00junk"])
    assert recorded.widget == "$$ID-stepper" and recorded.value["position"]["k"] == 1
    session = Session(None, "http://127.0.0.1:1/", "data=x")
    session.cached = {"mine"}
    value = {"position": {"run": "r", "k": 9}}
    out = BackMsg()
    out.ParseFromString(session._replay(recorded.message, {recorded.widget: json.dumps(value)}))
    state = out.rerun_script
    assert state.fragment_id == "frag" and state.query_string == "data=x"
    assert list(state.cached_message_hashes) == ["mine"]
    widgets = {w.id: w for w in state.widget_states.widgets}
    assert widgets["$$ID-other"].int_value == 7
    assert json.loads(widgets["$$ID-stepper"].json_value)["position"]["k"] == 9
