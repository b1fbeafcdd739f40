"""This process's followers of each class, and the frames they are sent.

A page's event stream is a ``Subscriber``. Publishing a change encodes its
server-sent-events frame once and hands the same bytes to every subscriber of the
class: each holds only the *latest* frame it has not written yet (a state event is
the whole public state, so a slow reader skips to the newest and never queues),
and an ``asyncio.Event`` wakes its writer. A publish is a few attribute stores per
subscriber; the writes to the sockets happen in each stream's own task.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import Counter, OrderedDict
from collections.abc import Iterable
from typing import Any

from classroom.limits import RETRY_MS, TOMBSTONE_TTL

ENDED_KEPT = 10_000  # the codes of classes this process saw end, at most (newest kept)

FOLLOW, EXPLORE = "follow", "explore"
# an event, not a comment: a page hears it, and one that hears nothing for a while knows its
# stream died unannounced (a phone that roamed to another access point)
HEARTBEAT_FRAME = b"event: beat\ndata: 1\n\n"
RETRY_FRAME = f"retry: {RETRY_MS}\n\n".encode()


def frame(event: str, data: dict[str, Any], event_id: int | None = None) -> bytes:
    """One server-sent event; ``id`` is what EventSource sends back as Last-Event-ID.

    >>> frame("state", {"seq": 3}, 3)
    b'id: 3\\nevent: state\\ndata: {"seq":3}\\n\\n'
    """
    head = f"id: {event_id}\n" if event_id is not None else ""
    body = json.dumps(data, separators=(",", ":"))  # JSON on one line: one data field
    return f"{head}event: {event}\ndata: {body}\n\n".encode()


class Subscriber:
    """One page's event stream on one class."""

    __slots__ = ("address", "closing", "code", "identity", "mode", "notice", "pending",
                 "pending_seq", "seq", "tally", "voter", "wake", "wants_tally")

    def __init__(self, code: str, voter: str, mode: str = FOLLOW, *, seq: int = 0,
                 wants_tally: bool = False, address: str = "", identity: str = ""):
        self.code = code
        self.address = address  # the client's, and its identity's (codes.identity): what
        self.identity = identity  # the hub counts streams by
        self.voter = voter  # HMAC of the voter token under the class's salt
        self.mode = mode
        self.wants_tally = wants_tally
        self.seq = seq  # the last seq written to this stream (or the page had)
        self.pending: bytes | None = None  # the newest state frame not yet written
        self.pending_seq = seq
        self.tally: bytes | None = None
        self.notice: dict[str, bytes] = {}  # the newest word on the store, on the lecturer
        self.closing = False
        self.wake = asyncio.Event()

    def offer(self, seq: int, data: bytes) -> None:
        if seq > self.pending_seq:
            self.pending, self.pending_seq = data, seq
            self.wake.set()

    def take(self) -> list[bytes]:
        """The frames to write now (and forget them)."""
        out = []
        if self.pending is not None:
            out.append(self.pending)
            self.seq, self.pending = self.pending_seq, None
        if self.tally is not None:
            out.append(self.tally)
            self.tally = None
        if self.notice:
            out.extend(self.notice.values())
            self.notice = {}
        self.wake.clear()
        return out


class Hub:
    """Subscribers by class code, in this process."""

    def __init__(self) -> None:
        self._classes: dict[str, set[Subscriber]] = {}
        self.latest: dict[str, int] = {}  # the highest seq published per class
        self.lead_here: dict[str, bool] = {}  # whether its lecturer was heard from lately
        self.streams = 0
        self._by_address: Counter[str] = Counter()
        self._by_identity: Counter[str] = Counter()
        # classes this process saw end, and when: a store that lost its tombstones (a
        # redis-server restarted without its data) cannot bring one back (ops.restore)
        self._ended: OrderedDict[str, float] = OrderedDict()

    def add(self, sub: Subscriber) -> bool:
        """Add a stream; True when it is the class's first here."""
        subs = self._classes.setdefault(sub.code, set())
        subs.add(sub)
        self.streams += 1
        self._by_address[sub.address] += 1
        self._by_identity[sub.identity] += 1
        return len(subs) == 1

    def remove(self, sub: Subscriber) -> bool:
        """Remove a stream; True when it was the class's last here."""
        subs = self._classes.get(sub.code)
        if subs is None or sub not in subs:
            return False
        subs.discard(sub)
        self.streams -= 1
        for counter, name in ((self._by_address, sub.address), (self._by_identity, sub.identity)):
            counter[name] -= 1
            if counter[name] <= 0:
                del counter[name]
        if not subs:
            del self._classes[sub.code]
            return True
        return False

    def codes(self) -> list[str]:
        return list(self._classes)

    def subscribers(self, code: str) -> Iterable[Subscriber]:
        return self._classes.get(code, ())

    def count(self, code: str) -> int:
        return len(self._classes.get(code, ()))

    def publish(self, code: str, public_state: dict[str, Any]) -> int:
        """Send a state to every stream of the class that has not seen it; how many."""
        seq = public_state["seq"]
        if seq <= self.latest.get(code, 0) and not public_state.get("ended"):
            return 0  # a repeat (Redis repairs) or an old one arriving late
        self.latest[code] = max(seq, self.latest.get(code, 0))
        if public_state.get("ended"):
            self.saw_end(code)
        data = frame("state", public_state, seq)
        subs = self._classes.get(code, ())
        for sub in subs:
            if public_state.get("ended"):  # the last word, whatever its seq
                sub.pending, sub.pending_seq = data, max(seq, sub.pending_seq)
                sub.closing = True
                sub.wake.set()
            else:
                sub.offer(seq, data)
        return len(subs)

    def saw_end(self, code: str) -> None:
        self._ended[code] = time.monotonic()
        self._ended.move_to_end(code)
        while len(self._ended) > ENDED_KEPT:
            self._ended.popitem(last=False)

    def ended(self, code: str) -> bool:
        """Whether this process saw the class end within the day a tombstone is kept."""
        when = self._ended.get(code)
        return when is not None and time.monotonic() - when < TOMBSTONE_TTL

    def newest(self, code: str) -> int:
        """The highest seq this process has sent or been told of, for the class."""
        return max([self.latest.get(code, 0),
                    *(sub.pending_seq for sub in self._classes.get(code, ()))])

    def publish_tally(self, code: str, tally: dict[str, int]) -> None:
        data = frame("tally", tally)
        for sub in self._classes.get(code, ()):
            if sub.wants_tally:
                sub.tally = data
                sub.wake.set()

    def notify_all(self, event: str, data: dict[str, Any]) -> None:
        """A word for every stream of every class (the store is away, or back): each holds
        only the newest of each event."""
        encoded = frame(event, data)
        for subs in self._classes.values():
            for sub in subs:
                sub.notice[event] = encoded
                sub.wake.set()

    def tell_lead(self, code: str, here: bool) -> None:
        """Whether the class's lecturer is here (heard from lately), to its students'
        streams when that changes (a ``lead`` event)."""
        if self.lead_here.get(code, True) == here:
            return
        self.lead_here[code] = here
        encoded = frame("lead", {"here": here})
        for sub in self._classes.get(code, ()):
            if not sub.wants_tally:
                sub.notice["lead"] = encoded
                sub.wake.set()

    def wants_tally(self, code: str) -> bool:
        return any(sub.wants_tally for sub in self._classes.get(code, ()))

    def presence(self, code: str) -> dict[str, str]:
        """Voter -> follow or explore, in this process (follow when any tab follows).

        A stream that asked for the tally is the projector's, not a student's: not counted.
        """
        out: dict[str, str] = {}
        for sub in self._classes.get(code, ()):
            if sub.wants_tally:
                continue
            if out.get(sub.voter) != FOLLOW:
                out[sub.voter] = sub.mode
        return out

    def streams_of(self, code: str, voter: str) -> int:
        return sum(sub.voter == voter for sub in self._classes.get(code, ()))

    def streams_of_class(self, code: str) -> int:
        return len(self._classes.get(code, ()))

    def streams_from(self, address: str) -> int:
        return self._by_address.get(address, 0)

    def streams_of_identity(self, identity: str) -> int:
        return self._by_identity.get(identity, 0)

    def close_all(self) -> None:
        """End every stream (the server is stopping): each page reconnects by itself."""
        for subs in self._classes.values():
            for sub in subs:
                sub.closing = True
                sub.wake.set()

    def forget(self, code: str) -> None:
        self.latest.pop(code, None)
        self.lead_here.pop(code, None)
