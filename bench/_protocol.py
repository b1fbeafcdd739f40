"""A minimal Streamlit client: the WebSocket protocol a browser tab speaks, from asyncio.

The browser opens ``/_stcore/stream`` with the subprotocol ``streamlit`` and
an Origin header, then sends ``BackMsg(rerun_script=ClientState(...))``
protobufs and receives ``ForwardMsg``\\ s until ``script_finished``. A button
click is a rerun whose ``ClientState.widget_states`` holds
``WidgetState(id=<button id>, trigger_value=True)``; the server keeps every
other widget's last value when it is left out (``SessionState._compact_state``
moves them to its old state), so one trigger is a complete Step. Widget ids
come from the ``Button`` elements in the first run's deltas. ``Session.replay``
sends a message recorded from a real browser instead (bench/load.py records
the stepper's sync of k that way). ``Session.upload`` gives a file uploader a
file as the browser does: it asks for an upload URL (``file_urls_request``),
PUTs the file there, then reruns with the uploader's ``FileUploaderState``.
"""

from __future__ import annotations

import asyncio
import json
import time
import urllib.request
import uuid
from dataclasses import dataclass, field

from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.Common_pb2 import FileURLs, UploadedFileInfo
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState
from websockets.asyncio.client import ClientConnection, connect
from websockets.typing import Origin, Subprotocol

FINISHED = ForwardMsg.ScriptFinishedStatus
SUCCESS = (FINISHED.FINISHED_SUCCESSFULLY, FINISHED.FINISHED_FRAGMENT_RUN_SUCCESSFULLY)


@dataclass
class Run:
    """What one rerun brought back."""

    seconds: float
    status: int
    received: int  # bytes
    messages: int
    buttons: dict[str, str] = field(default_factory=dict)  # widget key suffix -> id
    fragments: dict[str, str] = field(default_factory=dict)  # widget id -> its fragment
    metrics: dict[str, str] = field(default_factory=dict)  # label -> value
    exceptions: list[str] = field(default_factory=list)
    alerts: list[str] = field(default_factory=list)  # st.error, st.warning... bodies
    captions: list[str] = field(default_factory=list)
    uploaders: dict[str, str] = field(default_factory=dict)  # label -> widget id
    components: dict[str, str] = field(default_factory=dict)  # id -> its JSON data (v2)


class Session:
    """One browser tab's WebSocket session with the app."""

    def __init__(self, ws: ClientConnection, url: str, query: str):
        self.ws, self.url, self.query = ws, url, query
        self.page_hash = ""
        self.cached: set[str] = set()
        self.id = ""  # the server's session id, from its new_session message

    @classmethod
    async def open(cls, base: str, query: str = "", cookie: str | None = None,
                   timeout: float = 30) -> Session:
        """Connect to ``base`` (http://host:port) as a browser tab would."""
        headers = {"Cookie": cookie} if cookie else {}
        ws = await connect(base.replace("http", "ws", 1) + "/_stcore/stream",
                           subprotocols=[Subprotocol("streamlit")], origin=Origin(base),
                           additional_headers=headers, max_size=None, proxy=None,
                           open_timeout=timeout, ping_interval=None)
        return cls(ws, base + "/", query)

    def _request(self, triggers: tuple[str, ...] = (), fragment: str = "",
                 states: tuple[WidgetState, ...] = ()) -> bytes:
        message = BackMsg()
        state = message.rerun_script
        state.query_string = self.query
        state.page_script_hash = self.page_hash
        state.fragment_id = fragment
        state.context_info.timezone = "UTC"
        state.context_info.locale = "en-US"
        state.context_info.url = self.url
        state.widget_states.SetInParent()
        for widget_id in triggers:
            state.widget_states.widgets.add(id=widget_id, trigger_value=True)
        state.widget_states.widgets.extend(states)
        state.cached_message_hashes.extend(sorted(self.cached))
        return message.SerializeToString()

    def _replay(self, recorded: BackMsg, changes: dict[str, str]) -> bytes:
        """A message a browser recorded, with this session's query, cache and widget values.

        ``changes`` maps a widget id to the JSON value it takes (e.g. a stepper's
        position); every other widget state is sent as recorded.
        """
        message = BackMsg()
        message.CopyFrom(recorded)
        state = message.rerun_script
        state.query_string = self.query
        state.page_script_hash = self.page_hash or state.page_script_hash
        state.context_info.url = self.url
        for widget in state.widget_states.widgets:
            if widget.id in changes:
                widget.json_value = changes[widget.id]
        del state.cached_message_hashes[:]
        state.cached_message_hashes.extend(sorted(self.cached))
        return message.SerializeToString()

    async def replay(self, recorded: BackMsg, changes: dict[str, str], *,
                     timeout: float = 60) -> Run:
        """Send what a browser sent (see ``_replay``); wait for script_finished."""
        started = time.perf_counter()
        await self.ws.send(self._replay(recorded, changes))
        return await asyncio.wait_for(self._until_finished(started), timeout)

    async def trigger(self, component_id: str, event: str, value, *,
                      timeout: float = 60) -> Run:
        """A component's one-shot event (``setTriggerValue(event, value)`` in its script), as
        the browser sends it: the component's trigger widget with the event in a JSON list."""
        state = WidgetState(id=f"$$STREAMLIT_INTERNAL_KEY_{component_id}__events",
                            json_trigger_value=json.dumps([{"event": event, "value": value}]))
        started = time.perf_counter()
        await self.ws.send(self._request(states=(state,)))
        return await asyncio.wait_for(self._until_finished(started), timeout)

    async def rerun(self, *triggers: str, fragment: str = "", timeout: float = 60) -> Run:
        """Send a rerun (pressing the buttons whose ids are given); wait for script_finished.

        A button drawn inside an ``st.fragment`` reruns that fragment alone: pass
        its id (``Run.fragments[button id]``), as the browser does.
        """
        started = time.perf_counter()
        await self.ws.send(self._request(triggers, fragment))
        return await asyncio.wait_for(self._until_finished(started), timeout)

    async def _until_finished(self, started: float) -> Run:
        run = Run(0.0, -1, 0, 0)
        message = ForwardMsg()
        while True:
            payload = await self.ws.recv()
            run.received += len(payload)
            run.messages += 1
            message.ParseFromString(payload)
            kind = message.WhichOneof("type")
            if message.metadata.cacheable and message.hash:
                self.cached.add(message.hash)
            if kind == "delta":
                self._read_delta(message.delta, run)
            elif kind == "new_session":
                self.page_hash = message.new_session.page_script_hash or self.page_hash
                self.id = message.new_session.initialize.session_id or self.id
            elif kind == "navigation":
                self.page_hash = message.navigation.page_script_hash or self.page_hash
            elif kind == "page_info_changed":
                self.query = message.page_info_changed.query_string
            elif kind == "script_finished":
                run.seconds = time.perf_counter() - started
                run.status = message.script_finished
                return run

    @staticmethod
    def _read_delta(delta, run: Run) -> None:
        if delta.WhichOneof("type") != "new_element":
            return
        element = delta.new_element
        kind = element.WhichOneof("type")
        if kind == "button":
            run.buttons[element.button.id.rsplit("-", 1)[-1]] = element.button.id
            if delta.fragment_id:
                run.fragments[element.button.id] = delta.fragment_id
        elif kind == "metric":
            run.metrics[element.metric.label] = element.metric.body
        elif kind == "exception":
            run.exceptions.append(element.exception.message)
        elif kind == "alert":
            run.alerts.append(element.alert.body)
        elif kind == "markdown" and element.markdown.element_type == element.markdown.CAPTION:
            run.captions.append(element.markdown.body)
        elif kind == "file_uploader":
            run.uploaders[element.file_uploader.label] = element.file_uploader.id
        elif kind == "bidi_component":
            run.components[element.bidi_component.id] = element.bidi_component.json

    async def upload(self, widget_id: str, name: str, content: bytes, *,
                     timeout: float = 120) -> Run:
        """Give the file uploader ``widget_id`` a file, as a browser tab does; wait for its rerun.

        ``Run.seconds`` counts from the request for an upload URL to ``script_finished``.
        """
        started = time.perf_counter()
        request = BackMsg()
        request.file_urls_request.request_id = uuid.uuid4().hex
        request.file_urls_request.session_id = self.id
        request.file_urls_request.file_names.append(name)
        await self.ws.send(request.SerializeToString())
        message = ForwardMsg()
        while True:
            message.ParseFromString(await asyncio.wait_for(self.ws.recv(), timeout))
            if (message.WhichOneof("type") == "file_urls_response"
                    and message.file_urls_response.response_id
                    == request.file_urls_request.request_id):
                break
        urls = message.file_urls_response.file_urls[0]
        await asyncio.to_thread(self._put, urls.upload_url, name, content)
        file = UploadedFileInfo(name=name, size=len(content), file_id=urls.file_id,
                                file_urls=FileURLs(file_id=urls.file_id,
                                                   upload_url=urls.upload_url,
                                                   delete_url=urls.delete_url))
        state = WidgetState(id=widget_id)
        state.file_uploader_state_value.uploaded_file_info.append(file)
        await self.ws.send(self._request(states=(state,)))
        return await asyncio.wait_for(self._until_finished(started), timeout)

    def _put(self, path: str, name: str, content: bytes) -> None:
        """PUT a file to the server as a multipart form, with a double-submit XSRF token."""
        from streamlit.web.server.starlette.starlette_app_utils import (
            generate_xsrf_token_string,
        )

        boundary = uuid.uuid4().hex
        body = (f'--{boundary}\r\nContent-Disposition: form-data; name="file"; '
                f'filename="{name}"\r\nContent-Type: text/csv\r\n\r\n').encode()
        body += content + f"\r\n--{boundary}--\r\n".encode()
        token = generate_xsrf_token_string()
        base = self.url.rstrip("/")
        put = urllib.request.Request(
            base + path, data=body, method="PUT",
            headers={"Content-Type": f"multipart/form-data; boundary={boundary}",
                     "X-Xsrftoken": token, "Cookie": f"_streamlit_xsrf={token}",
                     "Origin": base})
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        with opener.open(put, timeout=60) as response:
            if response.status != 204:
                raise RuntimeError(f"upload answered {response.status}")

    async def close(self) -> None:
        await self.ws.close()
