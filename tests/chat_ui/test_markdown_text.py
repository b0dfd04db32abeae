"""Agent text for renderers that read markdown themselves (Gradio, Streamlit): literal text stays
exactly itself, and agent markdown keeps its markdown but shows its HTML, math and images as written.
CommonMark's own renderer (markdown-it, with HTML on, as Gradio's and Streamlit's read it) is the
judge."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from chat_ui._frameworks._markdown_text import markdown_literal, plain_markdown

RENDERER = MarkdownIt("commonmark", {"html": True}).enable("table").enable("strikethrough")
ONE_LINE = (
    st.text(st.characters(exclude_categories=["Cc", "Cs", "Zl", "Zp", "Co", "Cn"]), min_size=1)
    .map(str.strip)
    .filter(bool)
)


def escaped(text: str) -> str:
    """`text` as markdown-it writes text in HTML."""
    for character, entity in (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ('"', "&quot;")):
        text = text.replace(character, entity)
    return text


@settings(max_examples=500, deadline=None)
@given(ONE_LINE)
def test_literal_text_renders_as_exactly_itself(text: str) -> None:
    assert RENDERER.render(markdown_literal(text)) == f"<p>{escaped(text)}</p>\n"


def test_markup_in_a_question_or_label_is_text() -> None:
    shown = RENDERER.render(
        markdown_literal("<img src=x onerror=alert(1)> **b** [l](u) # 1. - $x$")
    )
    assert shown == "<p>&lt;img src=x onerror=alert(1)&gt; **b** [l](u) # 1. - $x$</p>\n"


def test_only_what_would_change_the_text_is_escaped() -> None:
    # Gradio reads a message's markdown source as its accessible name: no backslash to be heard.
    assert markdown_literal("What shall we plan together?") == "What shall we plan together?"
    assert markdown_literal("Tonight's dinner, at 7:30 (or later).") == (
        "Tonight's dinner, at 7:30 (or later)."
    )


def test_shortcodes_are_escaped_for_streamlit() -> None:
    assert markdown_literal("at 10:30 :smile:", shortcodes=True) == r"at 10\:30 \:smile\:"


def test_agent_markdown_keeps_its_markdown_and_shows_html_as_text() -> None:
    shown = RENDERER.render(plain_markdown("**Hi** <img src=x onerror=alert(1)> <b>b</b>"))
    assert shown == (
        "<p><strong>Hi</strong> &lt;img src=x onerror=alert(1)&gt; &lt;b&gt;b&lt;/b&gt;</p>\n"
    )


def test_an_html_block_math_and_an_image_are_shown_as_written() -> None:
    markdown = '<div onclick="x()">\n\nIt costs $5 or $$10$$ ![tracker](https://t.example/p.png)'
    shown = RENDERER.render(plain_markdown(markdown))
    assert "<div" not in shown
    assert "<img" not in shown
    assert r"\$" not in shown
    assert "$5 or $$10$$ !" in shown


def test_code_is_left_as_written() -> None:
    markdown = "Run `a <b> $x` then:\n\n```html\n<b>$x</b>\n```\n\n    <i>indented</i>"
    assert plain_markdown(markdown) == markdown


def test_a_backslash_already_before_a_character_is_kept() -> None:
    assert plain_markdown(r"a \<b> c") == r"a \<b> c"


def test_shortcodes_in_agent_markdown_but_not_links() -> None:
    assert plain_markdown("see https://example.com :smile:", shortcodes=True) == (
        r"see https://example.com \:smile\:"
    )
