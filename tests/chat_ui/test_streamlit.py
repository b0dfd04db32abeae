"""`chat_ui.streamlit` driven by Streamlit's own `AppTest`, without a browser: the demo's buttons,
a click that sends the value, the marks of an answered and an outdated block, markup kept literal,
and the example's one line for a bad variable."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("streamlit", reason="needs the streamlit extra: pip install -e '.[streamlit]'")

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
DEMO = """
from chat_ui._agents import DemoAgent
from chat_ui.streamlit import chat

chat(DemoAgent(chunk_delay=0))
"""
FIRST_LABELS = ["A weekend trip", "Tonight's dinner", "A side project"]


def started(script: str) -> AppTest:
    app = AppTest.from_string(script, default_timeout=30)
    app.run()
    assert not app.exception, app.exception
    return app


def labels(app: AppTest) -> list[str]:
    return [button.label for button in app.button]


def shown(app: AppTest) -> list[str]:
    return [markdown.value for markdown in app.markdown]


def test_the_greeting_asks_with_one_button_per_option_in_order() -> None:
    app = started(DEMO)
    assert "**What shall we plan together?**" in shown(app)
    assert labels(app) == FIRST_LABELS
    assert [message.name for message in app.chat_message] == ["assistant"]


def test_a_click_sends_the_value_and_the_block_shows_the_pick() -> None:
    app = started(DEMO)
    app.button[1].click().run()
    assert not app.exception
    assert [message.name for message in app.chat_message] == ["assistant", "user", "assistant"]
    assert "Let's plan tonight's dinner" in shown(app)
    assert "✓ Tonight's dinner" in shown(app)
    assert labels(app) == ["Pasta", "Curry", "Salad"], "the answered block has no button left"


def test_a_typed_message_outdates_the_waiting_block() -> None:
    app = started(DEMO)
    app.chat_input[0].set_value("Something else").run()
    assert not app.exception
    assert "Something else" in shown(app)
    assert "Answered by typing" in shown(app)
    assert labels(app) == FIRST_LABELS, "the demo asks again; only the new block has buttons"


def test_markup_in_a_question_and_its_labels_stays_text(tmp_path: Path) -> None:
    fence = {
        "question": "Pick <img src=x onerror=alert(1)>",
        "options": [
            {"label": "<b>bold</b> :smile:", "value": "one"},
            {"label": "$x$ **y**", "value": "two"},
        ],
    }
    script = tmp_path / "script.json"
    broken = '```choices\n{"question": "Half"}\n```'
    script.write_text(json.dumps([f"```choices\n{json.dumps(fence)}\n```", broken]))
    app = started(
        "from chat_ui._agents import load_script\nfrom chat_ui.streamlit import chat\n"
        f"chat(load_script({str(script)!r}))\n"
    )
    assert r"**Pick \<img src=x onerror=alert(1)\>**" in shown(app)
    assert labels(app) == [r"\<b\>bold\</b\> \:smile\:", r"\$x\$ \*\*y\*\*"]
    app.button[0].click().run()
    assert broken in [value.strip() for value in shown(app)], "a malformed block is its code"
    assert labels(app) == []


def test_the_example_shows_a_bad_variable_as_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CHOICES_CHAT_AGENT", "gpt")
    app = AppTest.from_file(str(ROOT / "examples" / "streamlit_chat.py"), default_timeout=30)
    app.run()
    assert not app.exception
    assert [error.value for error in app.error] == [
        "CHOICES_CHAT_AGENT must be demo, script, llm or ag-ui, got 'gpt'"
    ]
    assert labels(app) == []
