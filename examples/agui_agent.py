"""A sample AG-UI agent to put the chat in front of, with no model key: pydantic-ai's own AG-UI adapter
over a scripted model.

    .venv/bin/python examples/agui_agent.py --port 8000
    .venv/bin/choices-chat --agent ag-ui --url http://127.0.0.1:8000/agent

It greets you and asks what to deploy with `present_choices` (the frontend tool the chat declares:
you get buttons), answers your pick, and asks your approval before it calls its `deploy` tool
(declared `requires_approval=True`: you get Approve and Deny). The script is a `FunctionModel` that
reads the conversation it is given, as a real model would, so a reload or a restart of the chat
goes on where you were. Swap `FunctionModel(...)` for a real model (`"openai:gpt-4o-mini"`) and the
rest stays as it is.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import AsyncIterator
from pathlib import Path

# This checkout's packages, for a Python that lacks them: it is then told how to get them.
sys.path.append(str(Path(__file__).resolve().parents[1]))
from present_choices._extras import needs_extra

with needs_extra("examples/agui_agent.py", "ag-ui"):
    import uvicorn
    from pydantic_ai import Agent, DeferredToolRequests, Tool
    from pydantic_ai.messages import ModelMessage, ModelRequest, ToolReturnPart, UserPromptPart
    from pydantic_ai.models.function import AgentInfo, DeltaToolCall, DeltaToolCalls, FunctionModel
    from pydantic_ai.ui.ag_ui import AGUIAdapter
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.routing import Route

SERVICES = {"api": "API", "web": "Web front end", "worker": "Background worker"}
ASK = {
    "question": "Which service shall I deploy to staging?",
    "context": "I deploy one service at a time; you approve the deploy itself before it happens.",
    "options": [{"label": label, "value": name} for name, label in SERVICES.items()],
}


def deploy(service: str) -> str:
    """Deploy `service` to staging."""
    return f"{SERVICES.get(service, service)} is live on staging (build 1.4.2)"


async def script(
    messages: list[ModelMessage], info: AgentInfo
) -> AsyncIterator[str | DeltaToolCalls]:
    """What the model says to the conversation so far: its last request decides."""
    request = messages[-1]
    assert isinstance(request, ModelRequest)
    returned = {part.tool_name: part for part in request.parts if isinstance(part, ToolReturnPart)}
    said = [part.content for part in request.parts if isinstance(part, UserPromptPart)]
    if "deploy" in returned:  # the person decided on the deploy: it ran, or was denied
        outcome = returned["deploy"]
        if outcome.outcome == "success":
            yield f"Done: {outcome.content}."
        else:
            yield f"I did not deploy: {outcome.content}"
        return
    pick = said[-1] if said else ""
    if "present_choices" in returned and pick in SERVICES:
        yield f"{SERVICES[pick]} it is. The build is ready; I need your go-ahead."
        arguments = f'{{"service": "{pick}"}}'
        yield {0: DeltaToolCall(name="deploy", json_args=arguments, tool_call_id=f"deploy_{pick}")}
        return
    yield "Hi! I'm a scripted sample agent: I ask with buttons, and ask before I deploy."
    if "present_choices" in [tool.name for tool in info.function_tools]:  # the chat declares it
        call = DeltaToolCall(name="present_choices", json_args=json.dumps(ASK), tool_call_id="ask")
        yield {0: call}


agent = Agent(
    FunctionModel(stream_function=script),
    tools=[Tool(deploy, requires_approval=True)],
    output_type=[str, DeferredToolRequests],  # a call that needs approval ends the run
)


async def run(request: Request) -> Response:
    """One AG-UI run: `RunAgentInput` in, server-sent events out."""
    return await AGUIAdapter.dispatch_request(request, agent=agent)


app = Starlette(routes=[Route("/agent", run, methods=["POST"])])


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description="A sample AG-UI agent, scripted: no model key.")
    parser.add_argument("--host", default="127.0.0.1", help="default: 127.0.0.1")
    parser.add_argument("--port", type=int, default=8000, help="default: 8000")
    return parser


def main() -> None:
    args = parser().parse_args()
    print(f"agui_agent: serving http://{args.host}:{args.port}/agent", file=sys.stderr, flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
