"""What each alert says about a question, in one place: the desktop's notification, and the push
alert with its reminder (the whole question, or its title alone when the person keeps the rest
private: `notify_detail: "title_only"`)."""

from __future__ import annotations

from provide_choice._contract._batch import BatchRequest
from provide_choice._contract._transport_table import TransportKind, in_a_sentence, kind_of
from provide_choice._question import PendingQuestion
from provide_choice._transports._alerts._push import Alert
from provide_choice._transports._alerts._text import plain_line, plain_text

DESKTOP_TITLE = "Question waiting"
PUSH_TITLE = "Question: {title}"
PROMPT_LIMIT = 300
"""Characters of the prompt a push alert carries at most."""
OPTIONS_LIMIT = 500
REMINDER = "Reminder: this question still waits."
TITLE_ONLY_BODY = ""


def title_of(question: PendingQuestion) -> str:
    """The question's title (a batch's), as every alert shows it."""
    return plain_line(question.interaction.asked.title)


def desktop_alert(question: PendingQuestion) -> Alert:
    """ "Question waiting", with the title as its body."""
    return Alert(DESKTOP_TITLE, title_of(question))


def push_alert(question: PendingQuestion, *, reminder: bool = False) -> Alert:
    """The push alert of a new question (or its reminder): "Question: <title>", and unless the
    person asked for the title only, the prompt, the options, the time left and where to answer."""
    title = PUSH_TITLE.format(title=title_of(question))
    if question.settings.notify_detail == "title_only":
        return Alert(title, TITLE_ONLY_BODY)
    lines = [REMINDER] if reminder else []
    lines += [_prompt(question), *_options(question)]
    lines.append(f"{round(question.seconds_left())} seconds left.")
    lines.append(f"Answer {where_to_answer(question)}.")
    return Alert(title, "\n".join(line for line in lines if line))


def where_to_answer(question: PendingQuestion) -> str:
    """ "at http://127.0.0.1:…/choice/…" for a page, else where its transport shows it ("in the
    terminal", "in the conversation")."""
    kind = _kind(question.transport)
    if kind is not None and kind.answer_where is not None:
        return kind.answer_where
    page = page_address(question)
    if page is not None:
        return f"at {page}"
    return f"in {in_a_sentence(kind.label if kind is not None else question.transport)}"


def page_address(question: PendingQuestion) -> str | None:
    """The address of the question's page, where it is answered at one (a click on its desktop
    alert opens it)."""
    kind = _kind(question.transport)
    return question.url if kind is None or kind.answer_where is None else None


def outside_the_client(transport: str) -> bool:
    """Whether the question is shown outside the agent's MCP client (a page, a terminal), where
    a desktop alert may be what tells the person; the client's own dialog and the conversation
    are where the person already talks to the agent."""
    kind = _kind(transport)
    return kind is None or kind.needs is None


def _kind(transport: str) -> TransportKind | None:
    try:
        return kind_of(transport)
    except KeyError:  # a transport given to a server directly, never registered
        return None


def _prompt(question: PendingQuestion) -> str:
    asked = question.interaction.asked
    if not isinstance(asked, BatchRequest):
        return plain_text(asked.prompt, PROMPT_LIMIT)
    parts = [f"{item.name}: {item.request.prompt}" for item in asked.questions]
    return plain_text(f"{len(parts)} questions. " + " / ".join(parts), PROMPT_LIMIT)


def _options(question: PendingQuestion) -> list[str]:
    """ "Options: PostgreSQL, SQLite"; a batch's, one line per question that has options."""
    asked = question.interaction.asked
    items = (
        [(f"{item.name}: ", item.request) for item in asked.questions]
        if isinstance(asked, BatchRequest)
        else [("Options: ", asked)]
    )
    return [
        plain_line(prefix + ", ".join(option.label for option in request.options), OPTIONS_LIMIT)
        for prefix, request in items
        if request.options
    ]
