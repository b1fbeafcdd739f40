"""The class protocol from Python: a follower's event stream and plain JSON requests.

Raw asyncio streams, HTTP/1.1 (chunked responses too), nothing to install: the
benchmark opens hundreds of these from one process, and the tests use them
against a real server. A follower keeps its cookie and the last event id as a
browser's EventSource does, so ``reconnect()`` resumes where it was.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from classroom import codes


@dataclass
class Event:
    kind: str  # "state" or "tally" (a "beat" only moves ``Follower.heard``)
    data: dict[str, Any]
    id: int | None
    received: float  # time.perf_counter() when its last byte was read


def _split(base: str) -> tuple[str, int]:
    url = urlsplit(base)
    return url.hostname or "127.0.0.1", url.port or 80


async def _read_head(reader: asyncio.StreamReader) -> tuple[int, dict[str, str], list[str]]:
    status_line = await reader.readline()
    if not status_line:
        raise ConnectionError("the server closed the connection")
    status = int(status_line.split()[1])
    headers: dict[str, str] = {}
    cookies: list[str] = []
    while True:
        line = (await reader.readline()).decode("latin-1").rstrip("\r\n")
        if not line:
            return status, headers, cookies
        name, _, value = line.partition(":")
        if name.lower() == "set-cookie":
            cookies.append(value.strip())
        headers[name.lower()] = value.strip()


def _local(source: str | None) -> dict[str, Any]:
    return {"local_addr": (source, 0)} if source else {}


async def request(base: str, method: str, path: str, body: Any = None, *,
                  headers: dict[str, str] | None = None, raw: bytes | None = None,
                  timeout: float = 10, source: str | None = None) -> tuple[int, Any]:
    """One request on its own connection (from the local address ``source`` if given: a
    loopback address such as 127.0.0.2 is another client); the status and the JSON answer."""
    host, port = _split(base)
    reader, writer = await asyncio.wait_for(
        asyncio.open_connection(host, port, **_local(source)), timeout)
    try:
        payload = raw if raw is not None else (b"" if body is None else json.dumps(body).encode())
        head = [f"{method} {path} HTTP/1.1", f"Host: {host}:{port}", "Connection: close",
                f"Content-Length: {len(payload)}"]
        if payload and not any(k.lower() == "content-type" for k in headers or {}):
            head.append("Content-Type: application/json")
        head += [f"{k}: {v}" for k, v in (headers or {}).items()]
        writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + payload)
        await writer.drain()
        status, response_headers, _ = await asyncio.wait_for(_read_head(reader), timeout)
        data = await asyncio.wait_for(_read_body(reader, response_headers), timeout)
        try:
            return status, json.loads(data) if data else None
        except ValueError:  # a proxy's own error page
            return status, data.decode("latin-1")
    finally:
        writer.close()
        with contextlib.suppress(Exception):
            await writer.wait_closed()


async def _exchange(base: str, method: str, path: str, body: Any, timeout: float,
                    source: str | None) -> tuple[int, bytes, list[str]]:
    """One JSON request on its own connection: the status, the body and the Set-Cookies."""
    host, port = _split(base)
    reader, writer = await asyncio.wait_for(
        asyncio.open_connection(host, port, **_local(source)), timeout)
    try:
        payload = json.dumps(body).encode()
        head = [f"{method} {path} HTTP/1.1", f"Host: {host}:{port}", "Connection: close",
                f"Content-Length: {len(payload)}", "Content-Type: application/json"]
        writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + payload)
        await writer.drain()
        status, headers, cookies = await asyncio.wait_for(_read_head(reader), timeout)
        data = await asyncio.wait_for(_read_body(reader, headers), timeout)
        return status, data, cookies
    finally:
        writer.close()
        with contextlib.suppress(Exception):
            await writer.wait_closed()


async def _read_body(reader: asyncio.StreamReader, headers: dict[str, str]) -> bytes:
    if headers.get("transfer-encoding", "").lower() == "chunked":
        out = bytearray()
        while True:
            size = int((await reader.readline()).split(b";")[0], 16)
            if size == 0:
                await reader.readline()
                return bytes(out)
            out += await reader.readexactly(size)
            await reader.readline()
    if "content-length" in headers:
        return await reader.readexactly(int(headers["content-length"]))
    return await reader.read()


@dataclass
class Follower:
    """One page's event stream on a class."""

    base: str
    code: str
    mode: str = "follow"
    tally: bool | str = False  # the lecturer's tally ticket (Lecturer.tally); True: "1" (refused)
    ticket: str | None = None  # a join ticket (Lecturer.ticket, or GET /class/CODE's)
    proof: tuple[str, int] | None = None  # a proof of work made already (codes.solve_work)
    identify_first: bool = True  # False: open the stream without earning an identity first
    cookie: str | None = None  # "plab_voter=..." once the server set it
    last_id: int | None = None
    status: int = 0
    source: str | None = None  # the local address to connect from (another client's)
    error: bytes = b""  # the body of a refused connection
    heard: float = 0.0  # time.perf_counter() when the last block of the stream was read
    events: asyncio.Queue = field(default_factory=asyncio.Queue)
    _writer: asyncio.StreamWriter | None = None
    _task: asyncio.Task | None = None
    closed: asyncio.Event = field(default_factory=asyncio.Event)

    async def identify(self, timeout: float = 10) -> int:
        """Earn an identity as a page does (stream.js): the proof of work the server asks for
        (``proof`` if one was made already, else made here), sent for the voter cookie; the
        status of that POST (204)."""
        if self.proof is None:
            status, reply = await request(self.base, "GET", "/class/voter", timeout=timeout,
                                          source=self.source)
            if status != 401:
                return status
            work = reply["work"]
            self.proof = codes.solve_work(work["bits"], work["iterations"])
        stamp, nonce = self.proof
        status, _, cookies = await _exchange(self.base, "POST", "/class/voter",
                                             {"stamp": stamp, "nonce": nonce}, timeout,
                                             self.source)
        for cookie in cookies:
            if cookie.startswith("plab_voter="):
                self.cookie = cookie.split(";")[0]
        return status

    async def connect(self, timeout: float = 10) -> int:
        """Open the stream (with the cookie and Last-Event-ID it has; a page without a cookie
        earns one first, unless ``identify`` is False); the HTTP status."""
        if self.cookie is None and not self.tally and self.identify_first:
            status = await self.identify(timeout)
            if status != 204:
                self.status = status
                return status
        host, port = _split(self.base)
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection(host, port, **_local(self.source)), timeout)
        query = f"mode={self.mode}"
        if self.tally:
            query += f"&tally={'1' if self.tally is True else self.tally}"
        if self.ticket:
            query += f"&ticket={self.ticket}"
        head = [f"GET /class/{self.code}/events?{query} HTTP/1.1", f"Host: {host}:{port}",
                "Accept: text/event-stream"]
        if self.cookie:
            head.append(f"Cookie: {self.cookie}")
        if self.last_id is not None:
            head.append(f"Last-Event-ID: {self.last_id}")
        writer.write(("\r\n".join(head) + "\r\n\r\n").encode())
        await writer.drain()
        self.status, headers, cookies = await asyncio.wait_for(_read_head(reader), timeout)
        for cookie in cookies:
            if cookie.startswith("plab_voter="):
                self.cookie = cookie.split(";")[0]
        self.closed.clear()
        if self.status != 200:
            self.error = await _read_body(reader, headers)
            writer.close()
            self.closed.set()
            return self.status
        self._writer = writer
        self._task = asyncio.get_running_loop().create_task(self._read(reader, headers))
        return self.status

    async def _read(self, reader: asyncio.StreamReader, headers: dict[str, str]) -> None:
        chunked = headers.get("transfer-encoding", "").lower() == "chunked"
        buffer = b""
        try:
            while True:
                if chunked:
                    size = int((await reader.readline()).split(b";")[0], 16)
                    if size == 0:
                        break
                    data = await reader.readexactly(size + 2)
                    buffer += data[:-2]
                else:
                    data = await reader.read(65536)
                    if not data:
                        break
                    buffer += data
                now = time.perf_counter()
                while b"\n\n" in buffer:
                    block, buffer = buffer.split(b"\n\n", 1)
                    self._parse(block.decode(), now)
        except (ConnectionError, asyncio.IncompleteReadError, ValueError):
            pass
        finally:
            self.closed.set()

    def _parse(self, block: str, now: float) -> None:
        kind, data, event_id = "message", [], None
        for line in block.split("\n"):
            if not line or line.startswith(":"):
                continue
            name, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if name == "event":
                kind = value
            elif name == "data":
                data.append(value)
            elif name == "id":
                event_id = int(value)
        if event_id is not None:
            self.last_id = event_id
        self.heard = now
        if data and kind != "beat":
            self.events.put_nowait(Event(kind, json.loads("\n".join(data)), event_id, now))

    async def next(self, kind: str | None = None, timeout: float = 10) -> Event:
        """The next event (of ``kind``), skipping others."""
        deadline = time.monotonic() + timeout
        while True:
            event = await asyncio.wait_for(self.events.get(), deadline - time.monotonic())
            if kind is None or event.kind == kind:
                return event

    def drain(self) -> list[Event]:
        out = []
        while not self.events.empty():
            out.append(self.events.get_nowait())
        return out

    async def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
            with contextlib.suppress(Exception):
                await self._writer.wait_closed()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        self._writer = self._task = None

    async def reconnect(self, timeout: float = 10) -> int:
        await self.close()
        return await self.connect(timeout)

    async def answer(self, question: int, choice: str) -> tuple[int, Any]:
        headers = {"Cookie": self.cookie} if self.cookie else {}
        return await request(self.base, "POST", f"/class/{self.code}/answer",
                             {"question": question, "choice": choice}, headers=headers,
                             source=self.source)


class Lecturer:
    """The lecturer's side: start a class, then act on it with the key."""

    def __init__(self, base: str, code: str = "", key: str = ""):
        self.base, self.code, self.key = base, code, key
        self.ticket = self.tally = ""  # its join ticket and its tally ticket, once started

    async def start(self, view: str = "", step: int = 0) -> dict[str, Any]:
        status, data = await request(self.base, "POST", "/class", {"view": view, "step": step})
        if status != 201:
            raise RuntimeError(f"starting a class: {status} {data}")
        self.code, self.key = data["code"], data["key"]
        self.ticket, self.tally = data.get("ticket", ""), data.get("tally", "")
        return data

    async def act(self, action: str, **fields: Any) -> tuple[int, Any]:
        return await request(self.base, "POST", f"/class/{self.code}/lecturer",
                             {"action": action, **fields}, headers={"X-Class-Key": self.key})
