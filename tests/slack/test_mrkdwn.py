"""Agent markdown in Slack's mrkdwn and Telegram's HTML: both drawn by the one walk over markdown-it's
tokens (`present_choices._chat_markup`), each in its own app's markup."""

from provide_choice.slack._mrkdwn import slack_mrkdwn
from provide_choice.telegram._html import telegram_html

MARKDOWN = "# Plan\n\n1. **Keep** it\n   - [the *docs*](https://example.com)\n\n> quoted `code`"


def test_regression_emphasis_inside_a_links_text_leaves_no_stray_markers_in_slack() -> None:
    # The link's text went out plain, and the emphasis markers inside it went out after it.
    assert slack_mrkdwn("see [the *docs*](https://example.com) now") == (
        "see <https://example.com|the docs> now"
    )


def test_the_same_markdown_in_each_apps_markup() -> None:
    assert slack_mrkdwn(MARKDOWN) == (
        "*Plan*\n\n1. *Keep* it\n    • <https://example.com|the docs>\n\n&gt; quoted `code`"
    )
    assert telegram_html(MARKDOWN) == (
        "<b>Plan</b>\n\n1. <b>Keep</b> it\n   • "
        '<a href="https://example.com">the <i>docs</i></a>\n\n'
        "<blockquote>quoted <code>code</code></blockquote>"
    )


def test_a_link_a_phone_should_not_open_shows_its_text_and_target() -> None:
    assert slack_mrkdwn("[run](ftp://host/x)") == "run (ftp://host/x)"
    assert telegram_html("[run](ftp://host/x)") == "run (ftp://host/x)"
