"""The class's operations (classroom/ops.py) and the store's contract, against both stores: the
one in this process and Redis (a real redis-server). Whatever a route or the sidebar does
goes through these, so each holds for both doors."""

from __future__ import annotations

import asyncio
import contextlib
import time

import pytest

from classroom import codes, limits
from classroom.hub import EXPLORE, FOLLOW, Subscriber
from classroom.ops import ACTIONS, Operations
from classroom.plan import MAX_PLAN_BYTES
from classroom.state import ClassError, set_step
from testkit.classroom import with_store

VIEW = "data=xor-0-1&eta=0.1"


async def following(store, code: str, token: str, mode: str = FOLLOW) -> Subscriber:
    state = await store.get(code)
    sub = Subscriber(code, codes.voter_hash(state.salt, token), mode)
    await store.join(sub)
    return sub


@contextlib.contextmanager
def refused(status: int):
    """The block raises ClassError with this status."""
    with pytest.raises(ClassError) as raised:
        yield
    assert raised.value.status == status, (raised.value.status, raised.value.message)


# ------------------------------------------------------------------ the store's contract


def test_a_class_is_kept_changed_and_ended_and_its_code_then_says_ended(make_store):
    async def main(store, ops):
        key, state = await ops.start("10.0.0.1", VIEW, 2)
        assert (await store.get(state.code)).view == VIEW and await store.count() == 1
        moved = await store.change(state.code, lambda s: set_step(s, 5))
        assert moved.step == 5 and moved.seq == 2 and (await store.get(state.code)).step == 5
        with refused(400):
            await store.change(state.code, lambda s: set_step(s, -1))  # nothing written
        assert (await store.get(state.code)).seq == 2
        await store.touch(state.code)
        ended, _ = await ops.act("10.0.0.1", state.code, key, {"action": "end"})
        assert ended.ended and await store.get(state.code) is None
        assert await store.was_ended(state.code) and await store.count() == 0
        with refused(410):
            await store.change(state.code, lambda s: set_step(s, 1))
        with refused(410):
            await store.touch(state.code)
        assert not await store.was_ended("ABCDEFGH")
    with_store(make_store, main)


def test_a_remote_token_is_taken_once(make_store):
    async def main(store, ops):
        await store.put_remote("hash", "ABCDEFGH")
        assert await store.take_remote("hash") == "ABCDEFGH"
        assert await store.take_remote("hash") is None
    with_store(make_store, main)


def test_a_vote_counts_once_and_only_from_a_page_that_follows(make_store):
    async def main(store, ops):
        key, state = await ops.start("10.0.0.1", VIEW)
        here, away = ops.new_voter("10.0.0.2"), ops.new_voter("10.0.0.2")
        sub = await following(store, state.code, here)
        asked, _ = await ops.act("10.0.0.1", state.code, key,
                                 {"action": "ask", "kind": "mistake", "step": 1})
        question = asked.question.id
        await ops.answer(state.code, here, question, "mistake")
        with refused(409):
            await ops.answer(state.code, here, question, "no_mistake")
        with refused(403):  # no open stream
            await ops.answer(state.code, away, question, "mistake")
        with refused(403):  # a class that does not exist says the same: nothing to learn
            await ops.answer("ABCDEFGH", here, question, "mistake")
        assert (await store.tally(state.code)) == {"following": 1, "exploring": 0,
                                                   "answered": 1}
        revealed, _ = await ops.act("10.0.0.1", state.code, key, {"action": "reveal"})
        assert revealed.question.counts == (1, 0)
        await store.leave(sub)
    with_store(make_store, main)


def test_a_quiet_class_no_one_follows_ends_after_the_abandoned_time(make_store):
    now = [time.time()]

    async def main(store, ops):
        _, left = await ops.start("10.0.0.1", VIEW)
        _, kept = await ops.start("10.0.0.1", VIEW)  # a student still follows this one
        _, led = await ops.start("10.0.0.1", VIEW)  # its lecturer's page touches it
        sub = await following(store, kept.code, ops.new_voter("10.0.0.2"), EXPLORE)
        now[0] += limits.ABANDONED_TTL - 60
        await store.touch(led.code)
        await store.sweep()
        assert await store.count() == 3  # not yet
        now[0] += 120
        await store.sweep()
        assert await store.get(left.code) is None and await store.was_ended(left.code)
        assert await store.get(kept.code) is not None and await store.get(led.code) is not None
        await store.leave(sub)
    assert limits.ABANDONED_TTL < limits.QUIET_TTL / 2
    # a lecturer's open page touches its class more often than that, and than its students'
    # pages wait before they say it is away (stream.js)
    assert "TOUCH_EVERY_MS = 10 * 1000" in _stream_js()
    assert limits.ABANDONED_TTL > limits.LEAD_QUIET > 2 * limits.LEAD_TOUCH == 20
    with_store(make_store, main, clock=lambda: now[0])


def _stream_js() -> str:
    from ui.classroom import ASSETS

    return (ASSETS / "stream.js").read_text()


# ------------------------------------------------------------------ the operations


def test_every_action_of_the_table_is_taken_through_one_operation(make_store):
    async def main(store, ops):
        key, state = await ops.start("10.0.0.1", VIEW)
        code = state.code
        bodies = {"step": {"step": 4},
                  "view": {"view": "data=iris", "step": 1, "run": "0123456789abcdef"},
                  "ask": {"kind": "turn", "step": 2, "spec": {"answer": "clockwise"},
                          "slide": 3},
                  "reveal": {}, "answers": {"question": 4, "after": 0}, "close": {},
                  "touch": {}, "plan": {"plan": '{"slides": []}', "at": 2}, "remote": {},
                  "run": {"run": "fedcba9876543210"}, "end": {}}
        assert list(bodies) != list(ACTIONS) and set(bodies) == set(ACTIONS)
        seen = {}
        for name, fields in bodies.items():
            assert set(fields) == ACTIONS[name].fields, name
            seen[name] = await ops.act("10.0.0.1", code, key, {"action": name, **fields})
        assert seen["step"][0].step == 4
        assert (seen["view"][0].view, seen["view"][0].step) == ("data=iris", 1)
        assert seen["view"][0].run == "0123456789abcdef"
        assert seen["run"][0].run == "fedcba9876543210"
        assert seen["run"][0].view_seq == seen["view"][0].view_seq  # no page reruns for it
        assert seen["run"][0].seq == seen["remote"][0].seq + 1  # but followers hear of it
        assert seen["ask"][0].question.kind == "turn"
        assert (seen["ask"][0].question.slide, seen["ask"][0].question.spec) == (
            3, {"answer": "clockwise"})
        assert seen["answers"][1] == {"answers": [], "after": 0}
        assert seen["reveal"][0].question.revealed and seen["close"][0].question is None
        assert seen["touch"][0].seq == seen["close"][0].seq
        assert seen["plan"][1] == {}
        assert await store.take_remote(codes.digest(seen["remote"][1]["remote"])) == code
        assert seen["end"][0].ended
    with_store(make_store, main)


def test_actions_are_checked_and_a_wrong_key_is_a_miss(make_store):
    async def main(store, ops):
        key, state = await ops.start("10.0.0.1", VIEW)
        code = state.code
        with refused(400):
            await ops.act("10.0.0.1", code, key, {"action": "jump"})
        with refused(400):
            await ops.act("10.0.0.1", code, key, {"action": "reveal", "step": 1})
        with refused(400):  # a view never holds the key
            await ops.act("10.0.0.1", code, key, {"action": "view", "view": f"k={key}",
                                                  "step": 0})
        for _ in range(limits.MISSES[1]):
            with refused(403):
                await ops.act("10.0.0.9", code, codes.new_key(), {"action": "end"})
        with refused(429):
            await ops.act("10.0.0.9", code, codes.new_key(), {"action": "end"})
        # the right key always passes, whatever its address missed
        assert (await ops.act("10.0.0.9", code, key, {"action": "step", "step": 3}))[0].step == 3
    with_store(make_store, main)


def test_a_class_keeps_its_plan_for_the_lecturers_other_devices_and_only_theirs(make_store):
    async def main(store, ops):
        key, state = await ops.start("10.0.0.1", VIEW)
        _, other = await ops.start("10.0.0.1", VIEW)
        ask = {"action": "plan"}
        assert (await ops.act("10.0.0.1", state.code, key, ask))[1] == {"plan": None}
        await ops.act("10.0.0.1", state.code, key, {**ask, "plan": "FILE", "at": 3})
        await ops.act("10.0.0.1", state.code, key, {**ask, "plan": "FILE", "at": 4})
        _, reply = await ops.act("10.0.0.1", state.code, key, {"action": "remote"})
        second = await ops.claim("10.0.0.3", state.code, reply["remote"])
        assert (await ops.act("10.0.0.3", state.code, second, ask))[1] == {"plan": "FILE",
                                                                           "at": 4}
        assert await store.get_plan(other.code) is None  # one class's plan is its own
        with refused(403):  # only with the class's key
            await ops.act("10.0.0.9", state.code, codes.new_key(), ask)
        for bad in ({"plan": 7, "at": 0}, {"plan": "F", "at": -1}, {"plan": "F", "at": True},
                    {"plan": "x" * (MAX_PLAN_BYTES + 1), "at": 0}):
            with refused(400):
                await ops.act("10.0.0.1", state.code, key, {**ask, **bad})
        await ops.act("10.0.0.1", state.code, key, {"action": "end"})
        assert await store.get_plan(state.code) is None  # it goes with its class
    with_store(make_store, main)


def test_a_remote_token_gives_a_key_of_its_own_once(make_store):
    async def main(store, ops):
        key, state = await ops.start("10.0.0.1", VIEW)
        _, other = await ops.start("10.0.0.1", VIEW)
        _, reply = await ops.act("10.0.0.1", state.code, key, {"action": "remote"})
        second = await ops.claim("10.0.0.3", state.code, reply["remote"])
        assert codes.key_matches(second, (await store.get(state.code)).key_hashes)
        with refused(403):  # once
            await ops.claim("10.0.0.3", state.code, reply["remote"])
        _, reply = await ops.act("10.0.0.1", state.code, key, {"action": "remote"})
        with refused(403):  # only for its class, and spent by the try
            await ops.claim("10.0.0.3", other.code, reply["remote"])
        with refused(403):
            await ops.claim("10.0.0.3", state.code, reply["remote"])
    with_store(make_store, main)


def test_starts_from_one_address_share_one_limit(make_store):
    async def main(store, ops):
        for _ in range(limits.STARTS[1]):
            await ops.start("10.0.0.1")
        with refused(429):
            await ops.start("10.0.0.1")
        await ops.start("10.0.0.2")  # another address has its own
    with_store(make_store, main)


def test_identities_are_the_servers_and_minted_within_a_bound_per_address(make_store):
    async def main(store, ops):
        token = ops.new_voter("10.0.0.1")
        assert ops.voter_ok(token)
        assert not ops.voter_ok(codes.new_token())  # the old shape, made up
        assert not ops.voter_ok(token[:-1] + ("A" if token[-1] != "A" else "B"))
        assert not Operations(store, secret=b"another-secret" * 3).voter_ok(token)
        # a hall behind one address: its burst at once, then NEW_VOTERS[0] a second
        for _ in range(int(limits.NEW_VOTERS[1])):
            ops.new_voter("10.0.0.5")
        with refused(429):
            ops.new_voter("10.0.0.5")
        ops.new_voter("10.0.0.6")
    assert limits.NEW_VOTERS[1] >= 300  # 300 students behind one NAT join at once
    assert 300 - limits.NEW_VOTERS[1] <= 0 or limits.NEW_VOTERS[0] * 10 >= 300
    assert limits.NEW_VOTERS[0] * 60 <= 600  # a script: a few hundred a minute at most
    with_store(make_store, main)


def test_answers_are_never_refused_for_anyone_elses_misses(make_store):
    async def main(store, ops):
        key, state = await ops.start("10.0.0.1", VIEW)
        voters = [ops.new_voter("10.0.0.7") for _ in range(3)]
        subs = [await following(store, state.code, v) for v in voters]
        asked, _ = await ops.act("10.0.0.1", state.code, key,
                                 {"action": "ask", "kind": "mistake", "step": 1})
        for _ in range(limits.MISSES[1] + 5):  # one student at the hall's address mistypes
            with pytest.raises(ClassError):
                await ops.find("10.0.0.7", "ABCDEFGH")
        for voter in voters:
            await ops.answer(state.code, voter, asked.question.id, "mistake")
        assert (await store.tally(state.code))["answered"] == 3
        for sub in subs:
            await store.leave(sub)
    with_store(make_store, main)


def test_the_ops_layer_is_the_only_place_that_starts_or_claims():
    """The routes and the sidebar call the operations; neither writes them again."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    for path in [root / "classroom/http.py", *sorted((root / "ui/classroom").glob("*.py"))]:
        text = path.read_text()
        for written in ("codes.new_key()", "store.open_class(", "take_remote(", "put_remote(",
                        "store.change(", "new_code()"):
            assert written not in text, (path, written)


def test_concurrent_votes_of_one_voter_count_once(make_store):
    async def main(store, ops):
        key, state = await ops.start("10.0.0.1", VIEW)
        voter = ops.new_voter("10.0.0.2")
        sub = await following(store, state.code, voter)
        asked, _ = await ops.act("10.0.0.1", state.code, key,
                                 {"action": "ask", "kind": "mistake", "step": 1})
        results = await asyncio.gather(*(ops.answer(state.code, voter, asked.question.id,
                                                    "mistake") for _ in range(5)),
                                       return_exceptions=True)
        assert sum(r is None for r in results) == 1
        assert (await store.tally(state.code))["answered"] == 1
        await store.leave(sub)
    with_store(make_store, main)
