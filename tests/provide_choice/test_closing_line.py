"""The line a terminal leaves as a question ends is the person's, in their language; in English it
reads as the agent's summary does (which stays English whatever the person's language)."""

from __future__ import annotations

import pytest

from present_choices._translation import ENGLISH, translation
from provide_choice import Answered, Cancelled, TimedOut, parse_request
from provide_choice._contract._outcomes import Ending
from provide_choice._contract._response import summarize
from provide_choice._contract._transport_table import in_a_sentence
from provide_choice._transports._app._questions import AskedElsewhere
from provide_choice._transports._terminal_view._closing import closing_line

REQUEST = parse_request(
    {
        "title": "Database",
        "prompt": "Which one?",
        "selection_mode": "single",
        "options": [
            {"id": "pg", "label": "PostgreSQL", "recommended": True},
            {"id": "lite", "label": "SQLite"},
        ],
        "default_selection_ids": ["lite"],
    }
)
CHINESE = translation("zh_Hans")


@pytest.mark.parametrize(
    "ending",
    [
        Answered(selected_ids=["pg"]),
        Cancelled(),
        Cancelled(by="agent"),
        TimedOut(action="return_nothing"),
    ],
)
def test_in_english_the_line_reads_as_the_agents_summary(ending: Ending) -> None:
    assert closing_line(REQUEST, ending, ENGLISH) == summarize(REQUEST, ending)


@pytest.mark.parametrize(
    ("ending", "line"),
    [
        (Answered(selected_ids=["pg"]), "已选择：PostgreSQL。"),
        (Cancelled(), "你取消了；未选择任何项。"),
        (
            TimedOut(action="return_defaults"),
            "截止时间前没有回答；已返回默认项（并非你所选）：SQLite。",
        ),
    ],
)
def test_in_chinese_the_line_is_chinese(ending: Ending, line: str) -> None:
    assert closing_line(REQUEST, ending, CHINESE) == line


def test_regression_mcp_keeps_its_capitals_inside_a_sentence() -> None:
    # The dialog's label read "mCP 客户端" in Chinese: its first letter was made small.
    assert in_a_sentence("MCP 客户端自带的对话框") == "MCP 客户端自带的对话框"
    assert in_a_sentence("The MCP client's own dialog") == "the MCP client's own dialog"
    said = AskedElsewhere("The MCP client's own dialog", None).said(CHINESE)
    assert "MCP 客户端" in said
    assert "mCP" not in said
