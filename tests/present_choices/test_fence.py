"""The ```choices fence codec: render, split, and never raise."""

import json

from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it.token import Token

from present_choices import (
    ChoicePrompt,
    ChoicesSegment,
    IncompleteSegment,
    MalformedSegment,
    MarkdownSegment,
    markdown_parser,
    render_fence,
    render_markdown,
    split_message,
)
from present_choices._fence import fence_is_closed

PROMPT = ChoicePrompt.model_validate(
    {
        "question": "Deploy now?",
        "options": [{"label": "Yes", "value": "deploy"}, {"label": "No", "value": "wait"}],
        "context": "Tests passed.",
    }
)


def test_render_then_split_round_trips() -> None:
    fence = render_fence(PROMPT)
    assert fence.startswith("```choices\n")
    assert fence.endswith("\n```")
    assert split_message(fence) == [ChoicesSegment(PROMPT, fence)]


def test_segments_keep_their_order() -> None:
    fence = render_fence(PROMPT)
    segments = split_message(f"Before.\n\n{fence}\n\nBetween.\n\n{fence}\nAfter.")
    assert [s.kind for s in segments] == ["markdown", "choices", "markdown", "choices", "markdown"]
    assert segments[0] == MarkdownSegment("Before.\n")
    assert segments[-1] == MarkdownSegment("After.")


def test_plain_markdown_is_one_segment() -> None:
    text = "# Title\n\n- a\n- b\n\n```python\nprint(1)\n```"
    assert split_message(text) == [MarkdownSegment(text)]


def test_empty_message_has_no_segments() -> None:
    assert split_message("") == []
    assert split_message("  \n ") == []


def test_windows_newlines_are_accepted() -> None:
    fence = render_fence(PROMPT)
    (segment,) = split_message(fence.replace("\n", "\r\n"))
    assert isinstance(segment, ChoicesSegment)


def test_tilde_fences_and_uppercase_tag_count() -> None:
    body = json.dumps(PROMPT.model_dump())
    (segment,) = split_message(f"~~~Choices\n{body}\n~~~")
    assert isinstance(segment, ChoicesSegment)


def malformed(body: str) -> None:
    raw = f"```choices\n{body}\n```"
    assert split_message(raw) == [MalformedSegment(raw)]


def test_invalid_json_is_malformed() -> None:
    malformed('{"question": "Q", "options": [')


def test_missing_fields_are_malformed() -> None:
    malformed('{"question": "Q"}')


def test_wrong_option_count_is_malformed() -> None:
    malformed(json.dumps({"question": "Q", "options": [{"label": "a", "value": "a"}]}))


def test_wrong_types_are_malformed() -> None:
    malformed(json.dumps({"question": "Q", "options": [{"label": 1, "value": 2}] * 2}))
    malformed("[1, 2, 3]")
    malformed('"just a string"')
    malformed("")


def test_deeply_nested_json_is_malformed() -> None:
    malformed("[" * 100_000)


def test_unclosed_fence_at_the_end_is_incomplete() -> None:
    segments = split_message('Pick one:\n\n```choices\n{"question": "Deploy')
    assert segments == [
        MarkdownSegment("Pick one:\n"),
        IncompleteSegment('```choices\n{"question": "Deploy'),
    ]


def test_half_written_closing_fence_is_incomplete() -> None:
    text = render_fence(PROMPT)[:-1]
    (segment,) = split_message(text)
    assert isinstance(segment, IncompleteSegment)


def test_fence_opened_on_the_last_line_is_incomplete() -> None:
    assert split_message("```choices") == [IncompleteSegment("```choices")]


def test_choices_fence_inside_a_list_stays_markdown() -> None:
    text = "- item\n\n  ```choices\n  {}\n  ```"
    assert split_message(text) == [MarkdownSegment(text)]


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_no_string_input_raises(text: str) -> None:
    split_message(text)


fence_parts = st.sampled_from(
    ["```choices\n", "```", "~~~choices\n", "\n", "{", "}", '"question"', ":", "[", "]", "`", "\r"]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(fence_parts, st.text(max_size=5))).map("".join))
def test_no_fence_like_input_raises(text: str) -> None:
    segments = split_message(text)
    for segment in segments:
        assert segment.kind in ("markdown", "choices", "malformed", "incomplete")


def test_regression_a_block_right_after_a_line_of_html_is_buttons_not_json() -> None:
    """The splitter had a markdown-it set-up of its own, with raw HTML on: it took the fence for part
    of an HTML block, while the renderer (HTML off) showed the fence as a code block of JSON."""
    fence = render_fence(PROMPT)
    segments = split_message(f"<div>\n{fence}")
    assert segments == [MarkdownSegment("<div>"), ChoicesSegment(PROMPT, fence)]
    assert render_markdown("<div>") == "<p>&lt;div&gt;</p>\n"


def fence_token(text: str) -> tuple[Token, list[str]]:
    (token,) = [token for token in markdown_parser().parse(text) if token.type == "fence"]
    return token, text.split("\n")


def test_a_fence_is_closed_by_a_run_of_its_marker_at_least_as_long_as_its_opening() -> None:
    for text in ["```\nx\n```", "```\nx\n`````", "~~~~\nx\n  ~~~~  ", "```\n```"]:
        assert fence_is_closed(*fence_token(text)), text
    for text in ["```\nx", "````\nx\n```", "```", "~~~\nx\n```", "```\nx\n``"]:
        assert not fence_is_closed(*fence_token(text)), text
