"""How to join: the link students open, its QR code, and the projector's join card."""

from __future__ import annotations

import io
from urllib.parse import quote

import segno
import streamlit as st

from classroom import codes
from ui.classroom.session import _CARD
from ui.room_link import hall_root
from viz import palette


def join_link(code: str, root: str | None = None, ticket: str | None = None) -> str:
    """The address students open to join: the follower page (ui/classroom/follower_page.py, a
    page that runs no lesson: light enough for a hall of phones at once) under the app's root
    as the room opens it (``root``; by default ui.room_link's for this page), with
    ``?class=CODE`` and, on the projector's card, the class's join ticket (``ticket``,
    classroom.codes.join_ticket): a page that brings it looks nothing up, so that no misses
    spent at the hall's address (a script, a page elsewhere guessing codes) keep it out. Its
    "Open the full app" is :func:`app_link`.

    >>> join_link("ABCDEFGH", "http://hall.example:8080/lab/")
    'http://hall.example:8080/lab/follow?class=ABCDEFGH'
    >>> join_link("ABCDEFGH", "http://hall.example/", ticket="123.abc")
    'http://hall.example/follow?class=ABCDEFGH&ticket=123.abc'
    """
    link = f"{root if root is not None else hall_root().url}follow?class={code}"
    return link if ticket is None else f"{link}&ticket={quote(ticket, safe='')}"


def app_link(code: str, root: str | None = None) -> str:
    """The class in the full app (a Streamlit session with the lesson's settings): the app's
    root with ``?class=CODE``, as a typed code or a remote link opens it.

    >>> app_link("ABCDEFGH", "http://hall.example:8080/lab/")
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


def _join_card(code: str) -> None:
    """The projector's invitation: the code, the link and its QR code (and, when the room may
    not open the link, why and what to do)."""
    from classroom import server

    root = hall_root()
    link = join_link(code, root.url, ticket=server.classroom().ops.ticket(code))
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
