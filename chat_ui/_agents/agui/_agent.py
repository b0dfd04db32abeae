"""`AGUIAgent`: any agent that speaks AG-UI behind the chat (LangGraph, CrewAI, Google ADK, Microsoft
Agent Framework, the Claude Agent SDK, pydantic-ai, ...).

Each turn is one AG-UI run: an HTTP POST of `RunAgentInput` (the conversation, `present_choices` as a
frontend tool, the conversation's thread id), answered by server-sent events that `RunReader` turns
into the reply as they arrive. The wire types come from `ag-ui-protocol`, an optional extra
(`agent-choices[ag-ui]`), so `chat_ui` imports this module lazily; HTTP is httpx, which the chat
already needs.

Whatever goes wrong on the way (a refused or dropped connection, an HTTP error, an answer that is not
an event stream, a malformed event, a `RUN_ERROR`) ends the reply with a notice from the app saying
what happened, and what the agent had already said stays in the conversation.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator, Mapping, Sequence

import httpx

from chat_ui._agents.agui._events import MalformedEvent, RunReader, parse_event
from chat_ui._agents.agui._messages import run_input
from chat_ui._model._conversation import Message
from chat_ui._model._reply import Notice, ReplyChunk, ThreadStarted
from present_choices._addresses import without_password
from present_choices._translation import spoken

EVENT_STREAM = "text/event-stream"
TIMEOUT = 300.0  # seconds the agent may stay silent (it may be calling its own tools meanwhile)
CONNECT_TIMEOUT = 10.0
QUOTED_LENGTH = 200  # characters of an error page quoted in the notice


class AGUIAgent:
    """An `Agent` that runs the AG-UI agent served at `url` (an `http://` or `https://` address), with
    `headers` added to every request (for example `{"Authorization": "Bearer ..."}`).

    `timeout` is how many seconds the agent may go without sending anything before the chat gives up
    on the reply. The greeting is the app's: the agent is not run until the person says something.
    """

    def __init__(
        self, url: str, *, headers: Mapping[str, str] | None = None, timeout: float = TIMEOUT
    ) -> None:
        parsed = httpx.URL(url)
        if parsed.scheme not in ("http", "https") or not parsed.host:
            raise ValueError(
                f"the AG-UI agent's address must start with http:// or https:// and name a host, "
                f"got {url!r}"
            )
        self.url = url
        self.shown_url = without_password(url)
        """The address as the person reads it (greeting, errors): without credentials."""
        self.headers = dict(headers or {})
        self.timeout = timeout

    @property
    def greeting(self) -> str:
        return spoken().gettext(
            "Hello! You are chatting with the AG-UI agent at {url}. Ask it anything: when it has a "
            "few clear options for you, it can show them as buttons.",
            url=self.shown_url,
        )

    async def reply(self, history: Sequence[Message]) -> AsyncIterator[ReplyChunk]:
        thread_id = next((m["thread_id"] for m in history if "thread_id" in m), None)
        if thread_id is None:
            thread_id = str(uuid.uuid4())
            yield ThreadStarted(thread_id)
        if not any(message["role"] == "user" for message in history):
            yield self.greeting
            return
        body = run_input(history, thread_id, run_id=str(uuid.uuid4()))
        async for chunk in self._run(body.model_dump_json(by_alias=True)):
            yield chunk

    async def _run(self, body: str) -> AsyncIterator[ReplyChunk]:
        headers = {**self.headers, "Content-Type": "application/json", "Accept": EVENT_STREAM}
        timeout = httpx.Timeout(self.timeout, connect=min(CONNECT_TIMEOUT, self.timeout))
        reader = RunReader()
        _, url = spoken(), self.shown_url
        try:
            async with (
                httpx.AsyncClient(timeout=timeout) as client,
                client.stream("POST", self.url, content=body, headers=headers) as response,
            ):
                refused = await self._refusal(response)
                if refused is not None:
                    yield refused
                    return
                async for data in server_sent_data(response.aiter_lines()):
                    event = parse_event(data)
                    if event is not None:
                        for chunk in reader.read(event):
                            yield chunk
                    if reader.ended:
                        return
        except MalformedEvent as error:
            yield Notice(
                _.gettext(
                    "The agent's reply stopped: it sent {error}. Send your message again to retry.",
                    error=error,
                )
            )
            return
        except httpx.ConnectError as error:
            yield Notice(
                _.gettext(
                    "The agent could not reply: cannot connect to the AG-UI agent at {url} "
                    "({reason}). Is it running? Send your message again to retry.",
                    url=url,
                    reason=_reason(error),
                )
            )
            return
        except httpx.TimeoutException:
            yield Notice(
                _.gettext(
                    "The agent could not reply: the AG-UI agent at {url} sent nothing for "
                    "{seconds} seconds. Send your message again to retry.",
                    url=url,
                    seconds=f"{self.timeout:g}",
                )
            )
            return
        except httpx.HTTPError as error:
            yield Notice(
                _.gettext(
                    "The agent's reply was cut off: the connection to {url} was lost ({reason}). "
                    "Send your message again to retry.",
                    url=url,
                    reason=_reason(error),
                )
            )
            return
        yield Notice(
            _.gettext(
                "The agent's reply was cut off: its stream ended before the run finished (no "
                "RUN_FINISHED event). Send your message again to retry."
            )
        )

    async def _refusal(self, response: httpx.Response) -> Notice | None:
        """The notice for an answer that is not a stream of events; None for one that is."""
        media_type = response.headers.get("content-type", "").split(";")[0].strip().lower()
        if response.is_success and media_type == EVENT_STREAM:
            return None
        _, url = spoken(), self.shown_url
        status = f"HTTP {response.status_code}"
        if not response.is_success:
            excerpt = await _excerpt(response)
            if excerpt:
                return Notice(
                    _.gettext(
                        "The agent could not reply: the AG-UI agent at {url} answered {status}: "
                        "{excerpt}. Send your message again to retry.",
                        url=url,
                        status=status,
                        excerpt=excerpt,
                    )
                )
            return Notice(
                _.gettext(
                    "The agent could not reply: the AG-UI agent at {url} answered {status}. "
                    "Send your message again to retry.",
                    url=url,
                    status=status,
                )
            )
        sent = media_type or _.gettext("no content type")
        return Notice(
            _.gettext(
                "The agent could not reply: {url} answered with {sent} ({status}) instead of an "
                "event stream ({expected}). Is it the address of an AG-UI agent?",
                url=url,
                sent=sent,
                status=status,
                expected=EVENT_STREAM,
            )
        )


async def server_sent_data(lines: AsyncIterator[str]) -> AsyncIterator[str]:
    """The `data` of each server-sent event (its `data:` lines joined by newlines).

    Comments and the other fields (`event:`, `id:`, `retry:`) carry nothing AG-UI needs; an event cut
    off by the end of the stream, without its blank line, is dropped, as the SSE standard says.
    """
    data: list[str] = []
    async for line in lines:
        if not line:
            if data:
                yield "\n".join(data)
            data = []
            continue
        name, _, value = line.partition(":")
        if name == "data":
            data.append(value.removeprefix(" "))


async def _excerpt(response: httpx.Response) -> str:
    """The start of an error answer's body on one line, for the notice (as text, never as HTML)."""
    body = b""
    async for piece in response.aiter_bytes():
        body += piece
        if len(body) > QUOTED_LENGTH * 4:  # enough for the quote, whatever the encoding
            break
    text = " ".join(body.decode("utf-8", errors="replace").split())
    return text if len(text) <= QUOTED_LENGTH else text[:QUOTED_LENGTH] + "…"


def _reason(error: httpx.HTTPError) -> str:
    """The innermost cause's words: httpx's own are often wrapped around an OS error."""
    cause: BaseException = error
    while cause.__cause__ is not None or cause.__context__ is not None:
        cause = cause.__cause__ or cause.__context__  # type: ignore[assignment]
    if isinstance(cause, OSError) and cause.errno:
        return os.strerror(cause.errno).lower()
    return str(cause) or str(error) or type(error).__name__
