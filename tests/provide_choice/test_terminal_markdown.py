"""The prompt's markdown as terminal text: styles instead of raw asterisks, and agent text inert."""

from __future__ import annotations

from provide_choice._transports._terminal_view._markdown import markdown_text


def plain(text: str) -> str:
    return "".join(part for _style, part in markdown_text(text))


def styled(text: str) -> list[tuple[str, str]]:
    return [(style, part) for style, part in markdown_text(text) if part.strip()]


def test_regression_bold_italics_and_code_are_styles_not_raw_asterisks() -> None:
    # The terminal printed `**raw**` asterisks where the page showed bold text.
    assert styled("Run **all** the *slow* tests with `make test`.") == [
        ("", "Run "),
        ("bold", "all"),
        ("", " the "),
        ("italic", "slow"),
        ("", " tests with "),
        ("class:markdown.code", "make test"),
        ("", "."),
    ]


def test_lists_keep_their_markers_and_nesting() -> None:
    assert plain("- one\n- two\n  - inner\n\n3. three\n4. four") == (
        "• one\n• two\n  • inner\n\n3. three\n4. four"
    )


def test_headings_quotes_code_blocks_and_links() -> None:
    text = "# Plan\n\n> keep it small\n\n```sh\nmake test\n```\n\n[docs](https://x.y) <https://a.b>"
    assert plain(text) == (
        "Plan\n\n│ keep it small\n\n  make test\n\ndocs (https://x.y) https://a.b"
    )
    assert styled(text)[0] == ("bold underline", "Plan")


def test_raw_html_and_escape_sequences_stay_text() -> None:
    text = "<b>not bold</b> \x1b[31mred"
    assert plain(text) == text  # prompt_toolkit then draws the escape character as ^[
    assert all(style == "" for style, _part in styled(text))
