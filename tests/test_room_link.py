"""The join link a lecture hall can open (ui/room_link.py): never a loopback link silently."""

from __future__ import annotations

import doctest

import pytest
from streamlit import net_util

import ui.room_link
from tests.apptest import ROOT, assert_clean, by_key
from ui.room_link import PUBLIC_URL, is_loopback, room_root

NETWORK = "192.0.2.10"  # a documentation address (RFC 5737): injected, never contacted


def network():
    return NETWORK


def test_the_examples_in_the_docstrings_hold():
    assert doctest.testmod(ui.room_link).failed == 0


@pytest.mark.parametrize("page", ["http://localhost:8501", "http://127.0.0.1:8501/",
                                  "http://[::1]:8501"])
def test_a_lecturer_at_a_loopback_address_gets_the_computers_network_address(page):
    root = room_root(page, streamlit_port=8501, network=network)
    assert root.url == f"http://{NETWORK}:8501/"
    assert "network" in root.note and PUBLIC_URL in root.note


def test_the_public_address_comes_first_and_a_mistyped_one_is_said():
    assert room_root("http://localhost:8501/", public="https://lab.example.edu",
                     network=network).url == "https://lab.example.edu/"
    assert room_root("http://127.0.0.1:8080/", public=" https://lab.example.edu/lab ",
                     server_address="http://other:1/").url == "https://lab.example.edu/lab/"
    mistyped = room_root("http://localhost:8501/", public="lab.example.edu", network=network)
    assert mistyped.url == f"http://{NETWORK}:8501/"
    assert "lab\\.example" in mistyped.note and "not an http(s) address" in mistyped.note
    assert "\\*" in room_root(None, public="*x*").note  # the operator's text, never Markdown


def test_streamlits_server_address_is_respected():
    root = room_root("http://localhost:8501/", server_address="https://hall.example:8443/lab",
                     network=network)
    assert root == ui.room_link.Root("https://hall.example:8443/lab/")


def test_a_lecturer_at_an_address_others_reach_gives_that_address():
    assert room_root("https://lab.example.edu/course", network=network) == \
        ui.room_link.Root("https://lab.example.edu/course/")
    assert room_root("http://10.0.0.7:8501", listening="127.0.0.1", streamlit_port=8501,
                     network=network).url == "http://10.0.0.7:8501/"


def test_no_address_the_room_can_open_is_said_plainly():
    # the app listens on loopback only, opened directly: no network address helps
    only = room_root("http://127.0.0.1:8501/", listening="127.0.0.1", streamlit_port=8501,
                     network=network)
    assert only.url == "http://127.0.0.1:8501/"
    assert "this computer only" in only.note and "listens on `127.0.0.1`" in only.note
    assert PUBLIC_URL in only.note and "--server.address 0.0.0.0" in only.note
    # behind a proxy on this computer (another port): the network address at the proxy's port
    proxied = room_root("http://localhost:8080/", listening="127.0.0.1", streamlit_port=8501,
                        network=network)
    assert proxied.url == f"http://{NETWORK}:8080/"
    # no network at all
    alone = room_root("http://localhost:8501/", network=lambda: "127.0.0.1")
    assert alone.url == "http://localhost:8501/" and "this computer only" in alone.note
    # an operator's address that is loopback is respected, and still said
    assert "this computer only" in room_root(
        None, server_address="http://localhost:8501/").note
    for host in ("localhost", "app.localhost", "127.9.9.9", "[::1]", "::1"):
        assert is_loopback(host)
    for host in ("10.0.0.1", "lab.example.edu", "[2001:db8::1]", ""):
        assert not is_loopback(host)


def _card(at) -> tuple[str, str]:
    """The join card's link and what is said under it."""
    link = next(c.value for c in at.code if "?class=" in c.value)
    return link, "\n".join(w.value for w in at.warning)


def test_the_projectors_card_shows_the_rooms_link_and_says_when_there_is_none(monkeypatch):
    from streamlit.testing.v1 import AppTest

    def lecturer():
        at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
        at.run()
        by_key(at.button, "class.start").click()
        at.run()
        assert_clean(at)
        return at, at.session_state["class.code"]

    monkeypatch.delenv(PUBLIC_URL, raising=False)
    monkeypatch.setattr(net_util, "get_internal_ip", network)
    at, code = lecturer()
    link, said = _card(at)
    assert link.startswith(f"http://{NETWORK}/follow?class={code}&ticket=")
    assert "this computer's address on its network" in said
    monkeypatch.setattr(net_util, "get_internal_ip", lambda: "127.0.0.1")
    at, code = lecturer()
    link, said = _card(at)
    assert link.startswith(f"http://localhost/follow?class={code}&ticket=")
    assert "This link opens on this computer only" in said and PUBLIC_URL in said
    monkeypatch.setenv(PUBLIC_URL, "https://lab.example.edu/")
    at, code = lecturer()
    link, said = _card(at)
    assert link.startswith(f"https://lab.example.edu/follow?class={code}&ticket=")
    assert "computer" not in said
