"""Every bound on what a client may send or hold, and the token buckets that enforce rates.

Rates are per client address (the address uvicorn reports: behind deploy/nginx.conf
it is the browser's, from X-Forwarded-For), per voter (the student's cookie) or per
class. Each process counts for itself; deploy/nginx.conf bounds every route before
that (200 requests/s per address, burst 6,000).
"""

from __future__ import annotations

import contextlib
import time
from collections import OrderedDict
from collections.abc import Callable

# ------------------------------------------------------------------ sizes
MAX_LECTURER_BODY = 16 * 1024  # a view (<= 6,000 characters) and a few fields, as JSON
MAX_STUDENT_BODY = 256  # {"question": 123, "choice": "anticlockwise"} is about 45 bytes
# a view's packed run, as the follower page fetches it (GET /class/run/DIGEST): one run at most
# this many bytes (gzipped as kept; a run larger is not kept, and the follower page says "open
# the full app"), and a process's store of runs at most RUN_BUDGET bytes (the least recently
# used go first); in Redis each lives RUN_TTL after it was last put or read
MAX_RUN_BYTES = 2 * 1024 * 1024
RUN_BUDGET = 64 * 1024 * 1024

# ------------------------------------------------------------------ lifetimes, seconds
QUIET_TTL = 3600.0  # a class with no word from its lecturer for an hour ends
# ... and one that no page follows either ends after a quarter of an hour: its lecturer has
# left (a lecturer's open page touches the class every 10 minutes, stream.js, and every
# press is a word), and no student is there to keep it for
ABANDONED_TTL = 900.0
TOMBSTONE_TTL = 86400.0  # an ended class's code still says "ended" for a day
RUN_TTL = 3 * 3600.0  # a view's packed run in Redis: a lecture and the hour after
REMOTE_TTL = 600.0  # a remote link works once, within ten minutes
# a page's join ticket (codes.join_ticket) is good this long after the page's last run made it:
# a lecture and the hour after. It says only that its holder had the class's code, so its life
# bounds nothing but how long a copied ticket stays good, and a page whose ticket ran out joins
# as any page without one does (a lookup that spends misses)
TICKET_TTL = 3 * 3600.0
# a follower whose stream went quiet longer is no longer counted; a process renews its own
# followers' presence at each sweep (SWEEP_EVERY, redis_store.py), well within it
PRESENCE_TTL = 45.0
HEARTBEAT = 15.0  # a beat on every stream this often: proxies keep it, dead ones show
SILENCE = 2.5 * HEARTBEAT  # a page that heard nothing this long opens a new stream
SWEEP_EVERY = 10.0  # expiry and repair
# a lecturer's page says a word (an action, or a touch) at least every LEAD_TOUCH s: one not
# heard from for LEAD_QUIET is away (its network dropped), and its students' pages say so
LEAD_TOUCH = 10.0
LEAD_QUIET = 30.0
TALLY_EVERY = 0.25  # the lecturer's tally is sent at most this often per class
RETRY_MS = 2000  # EventSource waits this long before reconnecting

# ------------------------------------------------------------------ counts
MAX_CLASSES = 1000  # open classes in one store
# event streams in one process, at most; fit_to_machine lowers it (and the three below) to the
# process's real open-file limit, with room left for pages (a stream and a page's WebSocket
# are a file each): 1,100 streams in a process of 1,024 files timed out every page
MAX_STREAMS = 5000
MAX_STREAMS_PER_CLASS = 2000  # one class's, in one process: no class takes every room
MAX_STREAMS_PER_ADDRESS = 600  # one address's (a hall of 300 behind one NAT, two tabs each)
MAX_STREAMS_PER_VOTER = 8  # one browser's (its tabs), over every class
# the last fifth of the process's streams is kept for classes that hold fewer than SMALL_CLASS
# streams here: streams from many addresses on a few classes fill the process only up to the
# reserve, and another class (a hall of 300, and its tabs) still gets in
RESERVE_SHARE = 0.2
SMALL_CLASS = 400
WANTED_FILES = 65536  # the open files a process asks for (up to its hard limit)
FILES_FOR_PAGES = 512  # kept for what is not a stream: pages' WebSockets, Redis, files read

# ------------------------------------------------------------------ rates: (per second, burst)
MISSES = (0.5, 20)  # per address: an unknown code, a wrong key, a spent remote token; and
# per identity, for a page that has one (a voter cookie the server signed): one student's
# mistyped codes then slow that student alone, and the address as a whole spends from
ADDRESS_MISSES = (5.0, 200)  # (a hall behind one NAT: ten times one typist's pace, sustained)
STARTS = (0.1, 5)  # per address: new classes
# per process, all addresses together: new classes (the lecturers of a campus at the hour start
# a few a minute; 200 addresses started 997 classes in 2 s and filled MAX_CLASSES). A lecturer
# who has a class is never refused by it: its actions, and the restore of a class its store
# lost, are no start
STARTS_ALL = (1.0, 60)
NEW_VOTERS = (10.0, 400)  # per address: identities made free, for a projector's tally stream

# ------------------------------------------------------------------ the work an identity costs
# A student's identity (the voter cookie) is given for a proof of work its page made once
# (codes.work_ok): a try is PBKDF2-HMAC-SHA-256 of WORK_ITERATIONS iterations, and a proof is a
# try whose result begins with WORK_BITS zero bits, so 2**WORK_BITS tries on average. The page
# makes them with WebCrypto, the browser's own native code, so a script's laptop is not much
# faster per core than a phone (bench/README.md measures both); the server checks one try.
# The identity is the proof's own (a proof sent again is the same identity), so it cannot be
# replayed into more votes; bench/README.md says what hundreds of identities cost a script
WORK_BITS = 8
WORK_ITERATIONS = 1000
STREAM_OPENS = (1.0, 10)  # per voter: streams opened (a page reconnects every few s at worst)
ANSWERS = (1.0, 5)  # per voter: answer requests (at most one counts per question)
REMOTES = (1 / 60, 5)  # per class: remote links made (each a store key for REMOTE_TTL)
ACTIONS = (20.0, 60)  # per class: the lecturer's actions (a held arrow key repeats ~30/s)


def open_files() -> int:
    """The open files this process may hold now (its soft RLIMIT_NOFILE)."""
    import resource

    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return soft if soft != resource.RLIM_INFINITY else WANTED_FILES


def raise_open_files(wanted: int = WANTED_FILES) -> int:
    """Raise this process's open-file limit to ``wanted`` where its hard limit allows (no
    privilege needed: a bare ``streamlit run`` under Debian's soft 1,024 gets what the machine
    gives); the limit it has then."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    ceiling = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < ceiling:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (ceiling, hard))
    return open_files()


def stream_caps(files: int) -> dict[str, int]:
    """The stream caps a process of ``files`` open files can keep: half of what is left after
    ``FILES_FOR_PAGES`` (the rest for the pages that follow and lead, and their Streamlit
    sessions), at most ``MAX_STREAMS``; each share as its part of 5,000.

    >>> stream_caps(1024)
    {'MAX_STREAMS': 256, 'MAX_STREAMS_PER_CLASS': 102, 'MAX_STREAMS_PER_ADDRESS': 30}
    >>> stream_caps(65536)
    {'MAX_STREAMS': 5000, 'MAX_STREAMS_PER_CLASS': 2000, 'MAX_STREAMS_PER_ADDRESS': 600}
    """
    streams = max(64, min(5000, (files - FILES_FOR_PAGES) // 2))
    return {"MAX_STREAMS": streams, "MAX_STREAMS_PER_CLASS": streams * 2 // 5,
            "MAX_STREAMS_PER_ADDRESS": min(600, streams * 3 // 25)}


def fit_to_machine() -> int:
    """Raise the open-file limit and fit the stream caps to it (server.py, once per process);
    the open files the process has."""
    files = raise_open_files()
    globals().update(stream_caps(files))
    return files


def room_for(streams: int, of_class: int) -> bool:
    """Whether a process holding ``streams`` streams, ``of_class`` of them the class's, has
    room for one more of that class: the reserve (``RESERVE_SHARE``) is for small classes."""
    if streams >= MAX_STREAMS:
        return False
    return streams < MAX_STREAMS * (1 - RESERVE_SHARE) or of_class < SMALL_CLASS


class Buckets:
    """Token buckets by key: ``allow(key)`` spends one token if the key has one.

    Each key's bucket fills at ``rate`` tokens a second up to ``burst``. Full buckets are
    forgotten first when more than ``max_keys`` keys are held, so memory is bounded.

    >>> now = [0.0]
    >>> b = Buckets(1.0, 2, clock=lambda: now[0])
    >>> [b.allow("a") for _ in range(3)]
    [True, True, False]
    >>> now[0] = 1.0
    >>> b.allow("a"), b.allow("a")
    (True, False)
    """

    def __init__(self, rate: float, burst: float, *, max_keys: int = 100_000,
                 clock: Callable[[], float] = time.monotonic):
        self.rate, self.burst, self.max_keys, self.clock = rate, burst, max_keys, clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def allow(self, key: str, cost: float = 1.0) -> bool:
        now = self.clock()
        tokens, then = self._buckets.pop(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.rate)
        allowed = tokens >= cost
        if allowed:
            tokens -= cost
        self._buckets[key] = (tokens, now)
        if len(self._buckets) > self.max_keys:
            self._buckets.popitem(last=False)  # the least recently used key
        return allowed

    def peek(self, key: str) -> bool:
        """Whether ``allow(key)`` would pass, spending nothing."""
        now = self.clock()
        tokens, then = self._buckets.get(key, (self.burst, now))
        return min(self.burst, tokens + (now - then) * self.rate) >= 1.0
