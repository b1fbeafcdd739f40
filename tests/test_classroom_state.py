"""The class state's transitions, codes and keys: pure functions, any sequence of actions."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from classroom import codes
from classroom.state import (
    KINDS,
    ClassError,
    add_key,
    answer,
    clean_view,
    close_question,
    dumps,
    end,
    loads,
    open_question,
    public,
    reveal,
    set_step,
    set_view,
    start,
)

KEY = codes.new_key()


def new_class(view: str = "data=xor&eta=0.1", step: int = 0):
    return start("ABCDEFGH", codes.digest(KEY), "classsalt", view, step)


# ------------------------------------------------------------------ codes and keys

def test_codes_are_eight_unambiguous_characters_and_40_bits():
    assert len(codes.ALPHABET) == 32 and len(set(codes.ALPHABET)) == 32
    assert not set("01OI") & set(codes.ALPHABET)
    assert codes.CODE_BITS == codes.CODE_LENGTH * 5
    made = {codes.new_code() for _ in range(2000)}
    assert len(made) == 2000  # 2,000 draws of 40 bits: a repeat would be a broken generator
    assert all(codes.normalize_code(c) == c for c in made)


def test_a_typed_code_is_read_kindly_and_strictly():
    assert codes.normalize_code("abcd efgh") == "ABCDEFGH"
    assert codes.normalize_code("ABCD-EFGH") == "ABCDEFGH"
    for bad in ("", "ABCDEFG", "ABCDEFGHJ", "ABCDEFG0", "ABCDEFGI", "../../etc", "A" * 500, None):
        assert codes.normalize_code(bad) is None


def test_a_key_is_checked_against_its_hash_only():
    key, other = codes.new_key(), codes.new_key()
    hashes = (codes.digest(other), codes.digest(key))
    assert codes.key_matches(key, hashes)
    assert not codes.key_matches(codes.new_key(), hashes)
    assert not codes.key_matches(codes.digest(key), hashes)  # the hash is not the key
    for bad in (None, "", 42, key[:-1], key + "A", "x" * 43):
        assert not codes.key_matches(bad, hashes)


def test_voter_hashes_differ_by_salt_and_do_not_show_the_token():
    token = codes.new_token()
    a, b = codes.voter_hash("class", token), codes.voter_hash("question", token)
    assert a != b and token not in a + b
    assert codes.voter_hash("class", token) == a


# ------------------------------------------------------------------ transitions

def test_a_class_starts_at_seq_one_on_its_view():
    state = new_class(step=3)
    assert (state.seq, state.view_seq, state.step, state.question) == (1, 1, 3, None)


def test_the_view_drops_the_class_code_and_secrets():
    assert clean_view("?data=xor&class=ABCDEFGH&key=abc&remote=x&eta=0.1") == "data=xor&eta=0.1"
    # Streamlit's own parameters too, however they are spelt: no script can set them
    assert clean_view("embed=true&data=xor&EMBED_OPTIONS=dark_theme&%65mbed=1&Class=X") == \
        "data=xor"
    for bad in ("data=<script>", "a b", "x" * 7000, None, 3, "é=1", "a=\n"):
        with pytest.raises(ClassError) as refused:
            clean_view(bad)
        assert refused.value.status == 400


def test_a_question_opens_counts_each_voter_once_and_reveals_the_step():
    state = open_question(new_class(), "turn", 5, "qsalt")
    question_id = state.question.id
    state = answer(state, question_id, "clockwise", "voter-a")
    state = answer(state, question_id, "no_mistake", "voter-b")
    with pytest.raises(ClassError) as twice:
        answer(state, question_id, "anticlockwise", "voter-a")
    assert twice.value.status == 409
    assert state.question.counts == (1, 0, 1)
    revealed = reveal(state)
    assert revealed.step == 5 and revealed.question.revealed
    assert revealed.question.voters == frozenset()  # who voted is forgotten at the reveal
    assert revealed.question.counts == (1, 0, 1)
    with pytest.raises(ClassError):
        answer(revealed, question_id, "clockwise", "voter-c")


def test_answers_must_name_the_open_question_and_one_of_its_choices():
    state = open_question(new_class(), "mistake", 1, "qsalt")
    for question_id, choice in ((state.question.id + 1, "mistake"), (None, "mistake"),
                                (state.question.id, "clockwise"), (state.question.id, None),
                                (state.question.id, ["mistake"])):
        with pytest.raises(ClassError):
            answer(state, question_id, choice, "voter")
    with pytest.raises(ClassError):
        answer(new_class(), 1, "mistake", "voter")


def test_an_ended_class_refuses_everything():
    state = end(new_class())
    assert state.ended
    for change in (lambda s: set_step(s, 1), lambda s: set_view(s, "a=1", 0), end,
                   lambda s: open_question(s, "mistake", 1, "s"), reveal, close_question,
                   lambda s: add_key(s, "h")):
        with pytest.raises(ClassError) as refused:
            change(state)
        assert refused.value.status == 410


def test_a_class_has_at_most_four_lecturer_devices():
    state = new_class()
    for n in range(3):
        state = add_key(state, f"hash{n}")
    assert len(state.key_hashes) == 4 and state.seq == 1  # followers see no change
    with pytest.raises(ClassError):
        add_key(state, "one more")


def test_what_followers_see_holds_no_key_salt_or_voter():
    state = open_question(new_class(), "turn", 2, "question-salt")
    state = answer(state, state.question.id, "clockwise", "voter-hash")
    sent = json.dumps(public(state))
    for secret in (codes.digest(KEY), "classsalt", "question-salt", "voter-hash", KEY):
        assert secret not in sent
    assert "counts" not in public(state)["question"]  # only the lecturer's tally, until revealed
    assert public(reveal(state))["question"]["counts"] == [0, 0, 1]


def test_the_stored_form_round_trips_without_voters():
    state = open_question(new_class(), "turn", 2, "qs")
    state = answer(state, state.question.id, "clockwise", "v")
    back = loads(dumps(state))
    assert back.question.voters == frozenset()
    assert back == type(state)(**{**state.__dict__, "question": back.question})
    assert back.question.counts == state.question.counts


# ------------------------------------------------------------------ any sequence of actions

VOTERS = [f"voter-{n}" for n in range(6)]
actions = st.one_of(
    st.tuples(st.just("step"), st.integers(-2, 50)),
    st.tuples(st.just("view"), st.sampled_from(["data=xor", "data=iris&eta=0.5", "x", "é"]),
              st.integers(0, 50)),
    st.tuples(st.just("ask"), st.sampled_from([*KINDS, "nonsense"]), st.integers(0, 50)),
    st.tuples(st.just("answer"), st.sampled_from(VOTERS),
              st.sampled_from(["mistake", "no_mistake", "clockwise", "anticlockwise", "x"]),
              st.integers(-1, 1)),
    st.tuples(st.just("reveal")), st.tuples(st.just("close")), st.tuples(st.just("end")),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(actions, max_size=60))
def test_any_sequence_of_actions_keeps_the_invariants(sequence):
    state = new_class()
    answered: set[str] = set()  # the voters of the open question, as the test counts them
    for action in sequence:
        before = state
        try:
            if action[0] == "step":
                state = set_step(state, action[1])
            elif action[0] == "view":
                state = set_view(state, action[1], action[2])
            elif action[0] == "ask":
                state = open_question(state, action[1], action[2], "salt")
            elif action[0] == "answer":
                question_id = state.question.id + action[3] if state.question else 0
                state = answer(state, question_id, action[2], action[1])
            elif action[0] == "reveal":
                state = reveal(state)
            elif action[0] == "close":
                state = close_question(state)
            else:
                state = end(state)
        except ClassError:
            assert state is before
            continue
        if action[0] == "answer":
            # a student changes the counts of the open question and nothing else
            assert (state.seq, state.view, state.step, state.view_seq, state.ended) == (
                before.seq, before.view, before.step, before.view_seq, before.ended)
            assert state.question.id == before.question.id and state.question.is_open
            assert action[1] not in answered
            answered.add(action[1])
        else:
            assert state.seq == before.seq + 1  # every lecturer action is one new seq
            assert state.view_seq == (state.seq if action[0] == "view" else before.view_seq)
            if action[0] != "reveal":
                answered = set()
        question = state.question
        if question is not None:
            assert question.answered == sum(question.counts)
            if question.is_open:
                assert question.voters == answered
                assert question.answered == len(answered)  # counts = distinct voters
            else:
                assert question.voters == frozenset()
        assert state.key_hashes == (codes.digest(KEY),)
        assert codes.digest(KEY) not in json.dumps(public(state))
