"""The built-in agents: the scripted one follows its file, the demo one asks and follows up."""

import json
from collections.abc import Sequence
from pathlib import Path

import pytest

from chat_ui import DemoAgent, Message, ScriptAgent, ScriptError, load_script
from chat_ui._agents import Agent
from present_choices import ChoicesSegment, split_message


async def reply(agent: Agent, history: Sequence[Message]) -> str:
    return "".join([chunk async for chunk in agent.reply(history)])


def user(text: str) -> Message:
    return {"role": "user", "content": text}


def assistant(text: str) -> Message:
    return {"role": "assistant", "content": text}


async def test_script_greets_then_replies_in_turn_with_the_user_message() -> None:
    agent = ScriptAgent(["Hello", "You said {{user}}!", "Then {{user}} and {{user}}"])
    assert await reply(agent, []) == "Hello"
    history = [assistant("Hello"), user("red")]
    assert await reply(agent, history) == "You said red!"
    history += [assistant("You said red!"), user("blue")]
    assert await reply(agent, history) == "Then blue and blue"


async def test_script_says_end_of_script_when_used_up() -> None:
    agent = ScriptAgent(["Hello"])
    assert await reply(agent, [assistant("Hello"), user("more?")]) == "(end of script)"


def test_load_script_reads_a_json_array_of_strings(tmp_path: Path) -> None:
    path = tmp_path / "script.json"
    path.write_text(json.dumps(["Hi", "Reply"]), encoding="utf-8")
    assert load_script(path).replies == ["Hi", "Reply"]


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (None, "not found"),
        ("{not json", "not valid JSON"),
        ('{"greeting": "hi"}', "not a non-empty array of strings"),
        ('["hi", 2]', "not a non-empty array of strings"),
        ("[]", "not a non-empty array of strings"),
        (b"\xff\xfe", "cannot read"),
    ],
)
def test_bad_script_files_say_what_is_allowed(
    tmp_path: Path, content: str | bytes | None, problem: str
) -> None:
    path = tmp_path / "script.json"
    if isinstance(content, str):
        path.write_text(content, encoding="utf-8")
    elif isinstance(content, bytes):
        path.write_bytes(content)
    with pytest.raises(ScriptError) as caught:
        load_script(path)
    message = str(caught.value)
    assert problem in message
    assert "JSON array of strings" in message
    assert "\n" not in message


def choices(text: str) -> list[ChoicesSegment]:
    return [segment for segment in split_message(text) if isinstance(segment, ChoicesSegment)]


async def test_demo_greets_with_a_question_and_context() -> None:
    (block,) = choices(await reply(DemoAgent(chunk_delay=0), []))
    assert block.prompt.question == "What shall we plan together?"
    assert block.prompt.context


async def test_demo_follow_up_depends_on_the_answer_and_the_end_uses_the_value() -> None:
    agent = DemoAgent(chunk_delay=0)
    greeting = await reply(agent, [])
    (first,) = choices(greeting)
    follow_ups = {}
    for option in first.prompt.options:
        history = [assistant(greeting), user(option.value)]
        (follow_up,) = choices(await reply(agent, history))
        follow_ups[option.value] = follow_up.prompt.question
        pick = follow_up.prompt.options[0].value
        final = await reply(agent, [*history, assistant("…"), user(pick)])
        assert pick.lower() in final
    assert len(set(follow_ups.values())) == len(first.prompt.options)


async def test_demo_asks_the_last_question_again_after_typed_text() -> None:
    agent = DemoAgent(chunk_delay=0)
    greeting = await reply(agent, [])
    answer = await reply(agent, [assistant(greeting), user("surprise me")])
    assert "surprise me" in answer
    assert choices(answer) == choices(greeting)


async def test_demo_streams_its_reply_in_chunks() -> None:
    agent = DemoAgent(chunk_delay=0, chunk_size=10)
    chunks = [chunk async for chunk in agent.reply([])]
    assert len(chunks) > 10
    assert "".join(chunks) == agent.compose([])


def test_the_demo_speaks_the_conversations_language_and_understands_every_one() -> None:
    from present_choices._translation import speaking, translation

    agent = DemoAgent(chunk_delay=0)
    with speaking(translation("zh_Hans")):
        greeting = agent.compose([])
        (block,) = [s for s in split_message(greeting) if isinstance(s, ChoicesSegment)]
        assert greeting.startswith("你好！我是**演示代理**")
        assert block.prompt.question == "我们一起计划点什么？"
        values = [option.value for option in block.prompt.options]
        assert values[0] == "我们来计划一次周末出游"
        follow_up = agent.compose([assistant(greeting), user(values[0])])
        assert follow_up.startswith("出门过周末，真好。")
        # a conversation begun in English goes on in Chinese
        assert agent.compose([user("The mountains")]).startswith("好选择：**山里**。计划如下：")
    assert agent.compose([user("我们来计划一次周末出游")]).startswith("A weekend away, lovely.")
