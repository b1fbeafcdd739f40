"""The address a lecture hall opens to join a class: never a link only the projector can open.

A lecturer opens the app as the README says, at http://localhost:8501; a link to the class at
that address opens on no student's phone. The join card's link is, in this order:

1. the public address the operator set (``PERCEPTRON_LAB_PUBLIC_URL``, e.g.
   ``https://lab.example.edu/``, for a server behind a proxy; deploy/run.sh's ``PUBLIC_URL``);
2. Streamlit's ``browser.serverAddress``, where it is set (the address Streamlit prints as its
   URL then);
3. the lecturer's own address, when it is not this computer's loopback (others reach the
   server the way the lecturer does);
4. this computer's address on its network (the one Streamlit prints as its *Network URL*) at
   the lecturer's port and path, unless the server listens on a loopback address only.

Where none of them is an address another device can open, the link is the lecturer's own and
the card says plainly that it works on this computer only, and how to get one that does not.
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

import streamlit as st
from streamlit import config, net_util
from streamlit.runtime.context_util import maybe_trim_page_path
from streamlit.runtime.scriptrunner import get_script_run_ctx
from streamlit.web.server import server_util

from ui.outside import md

PUBLIC_URL = "PERCEPTRON_LAB_PUBLIC_URL"


@dataclass(frozen=True)
class Root:
    """Where the room joins: the app's root (ends in "/"), and what the card must say of it."""

    url: str
    note: str | None = None  # said plainly beside the link when the room may not open it


def is_loopback(host: str) -> bool:
    """Whether ``host`` names this computer only (localhost, 127.0.0.0/8, ::1).

    >>> [is_loopback(h) for h in ("localhost", "127.0.0.2", "[::1]", "10.0.0.5", "lab.edu")]
    [True, True, True, False, False]
    """
    host = host.strip("[]").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _root(scheme: str, netloc: str, path: str) -> str:
    path = path if path.endswith("/") else path + "/"
    return f"{scheme}://{netloc}{path}"


def _host_port(netloc: str) -> tuple[str, str]:
    """The host and the ':port' (or "") of a URL's netloc, brackets of IPv6 kept."""
    netloc = netloc.rpartition("@")[2]
    if netloc.startswith("["):
        host, _, rest = netloc.partition("]")
        return host + "]", rest
    host, colon, port = netloc.partition(":")
    return host, colon + port


def _bracketed(ip: str) -> str:
    return f"[{ip}]" if ":" in ip else ip


# the notes are Markdown (the card shows them in a warning): settings and addresses as code
HOW = (f"To let the room join, set `{PUBLIC_URL}` to the address students open (e.g. "
       "`https://lab.example.edu/` behind a proxy), or run the app with "
       "`--server.address 0.0.0.0`.")


def room_root(page_url: str | None, *, public: str | None = None,
              server_address: str | None = None, listening: str | None = None,
              streamlit_port: int | None = None,
              network: Callable[[], str | None] = lambda: None) -> Root:
    """The root of the app as the room can open it, and what to say of it.

    Parameters
    ----------
    page_url : str or None
        The app's address as the lecturer opened it (``st.context.url`` without the lesson's
        own path).
    public : str, optional
        The operator's public address (``PERCEPTRON_LAB_PUBLIC_URL``).
    server_address : str, optional
        Streamlit's URL for ``browser.serverAddress``, where it is set.
    listening : str, optional
        Streamlit's ``server.address``, where it is set (None: every interface).
    streamlit_port : int, optional
        The port Streamlit itself listens on (``server.port``).
    network : callable
        This computer's address on its network (Streamlit's ``get_internal_ip``).

    Examples
    --------
    >>> room_root("http://localhost:8501/lab", network=lambda: "10.1.2.3").url
    'http://10.1.2.3:8501/lab/'
    >>> room_root("http://localhost:8501/", public="https://lab.example.edu/x").url
    'https://lab.example.edu/x/'
    >>> room_root("http://127.0.0.1:8501/", listening="127.0.0.1", streamlit_port=8501,
    ...           network=lambda: "10.1.2.3").note is not None
    True
    """
    if public:
        parts = urlsplit(public.strip())
        if parts.scheme in ("http", "https") and parts.netloc:
            return Root(_root(parts.scheme, parts.netloc, parts.path))
        # a mistyped setting is said, and the link falls back on what the server knows
        problem = (f"`{PUBLIC_URL}` is set to {md(repr(public[:80]))}, which is not an http(s) "
                   "address like `https://lab.example.edu/`.")
    else:
        problem = None
    page = urlsplit(page_url or "")
    scheme = page.scheme or "http"
    host, port = _host_port(page.netloc)
    path = page.path
    if server_address:
        found = urlsplit(server_address)
        root = Root(_root(found.scheme, found.netloc, found.path))
    elif host and not is_loopback(host):
        root = Root(_root(scheme, page.netloc, path))
    else:
        mine = _root(scheme, page.netloc or "localhost", path)
        direct = streamlit_port is not None and port == f":{streamlit_port}"
        if listening and is_loopback(listening) and direct:
            root = Root(mine, "This link opens on this computer only (the app listens on "
                              f"`{listening}`). {HOW}")
        else:
            ip = network()
            if ip and not is_loopback(ip):
                root = Root(_root(scheme, _bracketed(ip) + port, path),
                            "This is this computer's address on its network: phones on the "
                            f"same network open it. If they cannot, set `{PUBLIC_URL}`.")
            else:
                root = Root(mine, "This link opens on this computer only: it has no network "
                                  f"address the room could use. {HOW}")
    if is_loopback(_host_port(urlsplit(root.url).netloc)[0]) and root.note is None:
        root = Root(root.url, f"This link opens on this computer only. {HOW}")
    if problem:
        root = Root(root.url, f"{problem} {root.note or ''}".strip())
    return root


def hall_root() -> Root:
    """:func:`room_root` for this page, from this server's settings (Streamlit's config, the
    environment)."""
    page_url = st.context.url
    ctx = get_script_run_ctx()
    if page_url and ctx is not None:  # the app's root, not the lesson's page
        page_url = maybe_trim_page_path(page_url, ctx.pages_manager)

    server_address = None
    if config.is_manually_set("browser.serverAddress"):
        server_address = server_util.get_url(config.get_option("browser.serverAddress"))
    listening = config.get_option("server.address") or None
    return room_root(page_url, public=os.environ.get(PUBLIC_URL), server_address=server_address,
                     listening=listening, streamlit_port=config.get_option("server.port"),
                     network=net_util.get_internal_ip)
