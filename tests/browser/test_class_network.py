"""A student's page that loses the network for 10 s follows the class again when it is back,
with no reload: it says it is offline meanwhile, then shows the class's step of now."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from urllib.parse import urlsplit

import pytest

from classroom.follower import Lecturer
from testkit.chromium import free_port
from testkit.class_journey import PHONE, open_page, wait_strip
from testkit.classroom import run
from testkit.stepper import ready, wait_status

pytestmark = pytest.mark.browser

VIEW = "data=lecture-notes-example-4-points"


class Network:
    """A TCP relay between the student's browser and the server that can go down: every
    connection through it (Streamlit's WebSocket, the class's event stream) is cut, and new
    ones refused, until it is up again; as a Wi-Fi network that drops and comes back."""

    def __init__(self, upstream: str):
        parts = urlsplit(upstream)
        self.target = (parts.hostname, parts.port)
        self.port = free_port()
        self.down = False
        self.writers: set[asyncio.StreamWriter] = set()
        self.loop = asyncio.new_event_loop()
        ready = threading.Event()
        self.thread = threading.Thread(target=self._serve, args=(ready,), daemon=True)
        self.thread.start()
        ready.wait(10)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _serve(self, ready: threading.Event) -> None:
        asyncio.set_event_loop(self.loop)
        server = self.loop.run_until_complete(
            asyncio.start_server(self._relay, "127.0.0.1", self.port))
        ready.set()
        self.loop.run_forever()
        server.close()

    async def _relay(self, reader, writer) -> None:
        if self.down:
            writer.close()
            return
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.close()
            return
        self.writers |= {writer, up_writer}

        async def pipe(source, sink) -> None:
            with contextlib.suppress(Exception):
                while data := await source.read(65536):
                    sink.write(data)
                    await sink.drain()
            sink.close()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))
        self.writers -= {writer, up_writer}

    def _cut(self) -> None:
        self.down = True
        for writer in list(self.writers):
            writer.transport.abort()

    def cut(self) -> None:
        self.loop.call_soon_threadsafe(self._cut)

    def restore(self) -> None:
        self.loop.call_soon_threadsafe(setattr, self, "down", False)

    def close(self) -> None:
        self.cut()
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


def test_ten_seconds_without_the_network_and_the_page_follows_again(browser, server_url):
    lecturer = Lecturer(server_url)
    run(lecturer.start(VIEW, 1))
    network = Network(server_url)
    errors: list[str] = []
    context, phone = open_page(browser, f"{network.url}/?class={lecturer.code}", PHONE, errors)
    try:
        wait_strip(phone, "Following the class")
        ready(phone)
        wait_status(phone, "Step 1 / ")
        loaded = phone.evaluate("() => performance.timeOrigin")

        # the Wi-Fi drops: the browser knows at once (its stream may not, for minutes)...
        context.set_offline(True)
        wait_strip(phone, "reconnecting")
        network.cut()  # ...and every connection of the page dies
        for step in (2, 3, 4):  # the class moves on meanwhile
            status, _ = run(lecturer.act("step", step=step))
            assert status == 200
        phone.wait_for_timeout(10_000)
        assert phone.locator(".pl-status").first.inner_text().startswith("Step 1 / ")

        network.restore()
        context.set_offline(False)
        wait_status(phone, "Step 4 / ")  # the class's step of now, by itself
        wait_strip(phone, "^(?!.*reconnecting).*Following the class")
        status, _ = run(lecturer.act("step", step=5))  # and it follows on
        assert status == 200
        wait_status(phone, "Step 5 / ")
        assert phone.evaluate("() => performance.timeOrigin") == loaded  # never reloaded
        assert not [e for e in errors if "WebSocket" not in e], errors
    finally:
        context.close()
        network.close()
