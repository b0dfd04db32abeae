"""What answering in Slack costs against answering on the page: from the person's press (a button
in Slack, Submit on the page over HTTP) to the tool call's result, through one `provide-choice
serve --no-browser`, spawned over stdio by the SDK's client.

Slack is a stand-in on 127.0.0.1 (tests/support/slack_api.py), in threads of this process: its
Web API, and the Socket Mode WebSocket the app holds open, over which a press reaches the app as
soon as it is sent; this measures that Socket Mode adds no seconds. Rounds as bench/telegram.py
runs them (whose page side this shares): once in Slack (`transport: "slack"`; the press is sent
once its message is there), once on the page, in turns that swap every round, the first round
left out. The person's `slack` alert channel is off, so the page's questions are not also posted
in Slack. Target: Slack/page at most 1.5.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx
from mcp import Client, StdioServerParameters
from telegram import QUESTION, QUESTIONS, READING_SECONDS, TARGET_RATIO, milliseconds, on_the_page

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "support"))
from slack_api import StandInSlack, slack_environment, stand_in_slack


def parameters(command: str, home: Path, api: StandInSlack) -> StdioServerParameters:
    environment = {
        name: value
        for name, value in os.environ.items()
        if name not in ("CI", "PROVIDE_CHOICE_NOTIFY", "DBUS_SESSION_BUS_ADDRESS")
    }
    return StdioServerParameters(
        command="/bin/sh",
        args=["-c", 'exec "$0" serve --no-browser 2>/dev/null', command],
        env=environment | {"AGENT_CHOICES_HOME": str(home)} | slack_environment(api),
    )


async def in_slack(client: Client, api: StandInSlack) -> float:
    """Seconds from the press of a button in Slack to the call's result."""
    posted = len(api.channel_messages())
    call = asyncio.create_task(
        client.call_tool("provide_choice", QUESTION | {"transport": "slack"})
    )
    await api.until(lambda: len(api.channel_messages()) > posted, "posted the question", 30)
    await api.connected()
    message = api.channel_messages()[-1]
    await asyncio.sleep(READING_SECONDS)
    started = time.perf_counter()
    api.person().presses(message, "SQLite")
    result = await asyncio.wait_for(call, 30)
    elapsed = time.perf_counter() - started
    assert not result.is_error, result.content
    assert result.structured_content is not None
    assert result.structured_content["selection"]["transport"] == "slack"
    return elapsed


async def main() -> int:
    command = shutil.which("provide-choice", path=str(Path(sys.executable).parent))
    if command is None:
        print("provide-choice is not installed in this environment", file=sys.stderr)
        return 1
    slack: list[float] = []
    page: list[float] = []
    with tempfile.TemporaryDirectory() as directory, stand_in_slack() as api:
        home = Path(directory)
        (home / "settings.json").write_text(json.dumps({"alerts": {"slack": False}}))
        async with Client(parameters(command, home, api)) as client, httpx.AsyncClient() as http:
            for round_number in range(QUESTIONS + 1):
                sides = [in_slack(client, api), on_the_page(client, http)]
                first, second = sides if round_number % 2 else sides[::-1]
                times = [await first, await second]
                if not round_number % 2:
                    times.reverse()
                if round_number:
                    slack.append(times[0])
                    page.append(times[1])
        assert api.unacked() == [], "every envelope is acked"
    print(f"Slack: press to the call's result     {milliseconds(slack)}")
    print(f"the page: Submit to the call's result {milliseconds(page)}")
    ratio = statistics.median(slack) / statistics.median(page)
    print(
        f"medians of {QUESTIONS} questions per side; Slack/page ratio {ratio:.3f} "
        f"(target at most {TARGET_RATIO})"
    )
    return 0 if ratio <= TARGET_RATIO else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
