"""What each alert says about a question, in one place: the desktop's notification, and the push
alert with its reminder (the whole question, or its title alone when the person keeps the rest
private: `notify_detail: "title_only"`). They are in the person's language: their setting, else
the language of the machine the server runs on (`LC_ALL`, `LC_MESSAGES`, `LANG`)."""

from __future__ import annotations

from present_choices._translation import N_, Translation, terminal_translation
from provide_choice._alerts._push import Alert
from provide_choice._alerts._text import plain_line, plain_text
from provide_choice._contract._batch import BatchRequest
from provide_choice._contract._transport_table import TransportKind, in_a_sentence, kind_of
from provide_choice._question import PendingQuestion

DESKTOP_TITLE = N_("Question waiting")
PUSH_TITLE = N_("Question: {title}")
PROMPT_LIMIT = 300
"""Characters of the prompt a push alert carries at most."""
OPTIONS_LIMIT = 500
REMINDER = N_("Reminder: this question still waits.")
TITLE_ONLY_BODY = ""


def title_of(question: PendingQuestion) -> str:
    """The question's title (a batch's), as every alert shows it."""
    return plain_line(question.interaction.asked.title)


def _words(question: PendingQuestion) -> Translation:
    return terminal_translation(question.settings.language)


def desktop_alert(question: PendingQuestion) -> Alert:
    """ "Question waiting", with the title as its body."""
    return Alert(_words(question).gettext(DESKTOP_TITLE), title_of(question))


def push_alert(question: PendingQuestion, *, reminder: bool = False) -> Alert:
    """The push alert of a new question (or its reminder): "Question: <title>", and unless the
    person asked for the title only, the prompt, the options, the time left and where to answer."""
    _ = _words(question)
    title = _.gettext(PUSH_TITLE, title=title_of(question))
    if question.settings.notify_detail == "title_only":
        return Alert(title, TITLE_ONLY_BODY)
    lines = [_.gettext(REMINDER)] if reminder else []
    lines += [_prompt(question, _), *_options(question, _)]
    seconds = round(question.seconds_left())
    lines.append(_.ngettext("{count} second left.", "{count} seconds left.", seconds))
    lines.append(_answer_line(question, _))
    return Alert(title, "\n".join(line for line in lines if line))


def _answer_line(question: PendingQuestion, _: Translation) -> str:
    """Where to answer, as a whole sentence: "Answer in the terminal.", "Answer at <address>."."""
    kind = _kind(question.transport)
    page = page_address(question)
    if kind is not None and kind.answer_where is not None:
        return _.gettext("Answer {where}.", where=_.gettext(kind.answer_where))
    if page is not None:
        return _.gettext("Answer at {address}.", address=page)
    where = in_a_sentence(_.gettext(kind.label) if kind is not None else question.transport)
    return _.gettext("Answer in {place}.", place=where)


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


def _prompt(question: PendingQuestion, _: Translation) -> str:
    asked = question.interaction.asked
    if not isinstance(asked, BatchRequest):
        return plain_text(asked.prompt, PROMPT_LIMIT)
    parts = " / ".join(f"{item.name}: {item.request.prompt}" for item in asked.questions)
    said = _.ngettext(
        "{count} question. {prompts}",
        "{count} questions. {prompts}",
        len(asked.questions),
        prompts=parts,
    )
    return plain_text(said, PROMPT_LIMIT)


def _options(question: PendingQuestion, _: Translation) -> list[str]:
    """ "Options: PostgreSQL, SQLite"; a batch's, one line per question that has options."""
    asked = question.interaction.asked
    requests = (
        [(item.name, item.request) for item in asked.questions]
        if isinstance(asked, BatchRequest)
        else [(None, asked)]
    )
    lines = []
    for name, request in requests:
        if not request.options:
            continue
        labels = ", ".join(option.label for option in request.options)
        line = (
            _.gettext("Options: {options}", options=labels)
            if name is None
            else _.gettext("{question}: {options}", question=name, options=labels)
        )
        lines.append(plain_line(line, OPTIONS_LIMIT))
    return lines
