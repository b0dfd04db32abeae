"""Assistant markdown renders as CommonMark plus tables, and agent text cannot inject markup."""

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from chat_ui import render_markdown

ALLOWED_TAGS = {
    "p", "em", "strong", "code", "pre", "a", "ul", "ol", "li", "h1", "h2", "h3", "h4", "h5", "h6",
    "blockquote", "hr", "br", "table", "thead", "tbody", "tr", "th", "td",
}  # fmt: skip


def test_tables_lists_and_code_blocks_render() -> None:
    html = render_markdown(
        "| a | b |\n|---|---|\n| 1 | 2 |\n\n- one\n- two\n\n```python\nprint('hi')\n```"
    )
    assert '<table tabindex="0">' in html  # a wide one scrolls, so a keyboard must reach it
    assert "<td>1</td>" in html
    assert "<li>one</li>" in html
    assert '<pre tabindex="0"><code class="language-python">print(\'hi\')' in html


def test_raw_html_is_shown_as_text() -> None:
    html = render_markdown("<img src=x onerror=alert(1)> and <script>alert(2)</script>")
    assert "<img" not in html
    assert "<script" not in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html


def test_script_links_are_not_links() -> None:
    assert "<a" not in render_markdown("[click](javascript:alert(1))")


def test_images_render_as_links_so_nothing_loads_by_itself() -> None:
    html = render_markdown("![tracker](https://example.com/leak?data=secret)")
    assert "<img" not in html
    assert '<a href="https://example.com/leak?data=secret">tracker</a>' in html


markdown_parts = st.sampled_from(
    ["<", ">", "img", "script", " onerror=", "![a](", "[a](", "javascript:", ")", "\n", "`", "|"]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(markdown_parts, st.text(max_size=4))).map("".join))
def test_only_markdown_tags_come_out(text: str) -> None:
    tags = {tag.lower() for tag in re.findall(r"</?([a-zA-Z][a-zA-Z0-9]*)", render_markdown(text))}
    assert tags <= ALLOWED_TAGS
