"""`provide-choice history`: what was asked and answered, as a table for people or JSON lines.

Titles, prompts and answers are agent (and person) text, printed to a terminal: every control
character is shown as visible text (`^[`, `<U+009B>`) or a JSON escape, so nothing in them moves
the cursor, retitles the window or reorders the line (bidirectional controls).
"""

from __future__ import annotations

import json
import shutil
import sys
import time
import unicodedata
from collections.abc import Callable
from contextlib import closing
from datetime import datetime
from pathlib import Path
from typing import TextIO

from present_choices._controls import BIDIRECTIONAL_CONTROLS
from present_choices._locale_format import format_date_time, format_duration
from present_choices._translation import ENGLISH, N_, Translation
from provide_choice._history._records import RecordedQuestion, search
from provide_choice._history._store import (
    HistoryMissing,
    HistoryUnavailable,
    clear,
    open_history,
)

UNUSABLE = 1
SHOWN_CONTROLS = {
    **{code: f"^{chr(code ^ 0x40)}" for code in (*range(0x20), 0x7F)},
    **{code: f"<U+{code:04X}>" for code in (*range(0x80, 0xA0), *BIDIRECTIONAL_CONTROLS)},
}
"""Control characters as a terminal shows them typed (`^[` for ESC), the others by their code."""
JSON_ESCAPES = {code: f"\\u{code:04x}" for code in (*range(0x7F, 0xA0), *BIDIRECTIONAL_CONTROLS)}
"""What `json.dumps` leaves raw and a terminal may act on; escaped, the JSON means the same."""
GAP = "  "
NOTHING_RECORDED = N_("No question has been recorded yet (history: {path}).")
CLIENT_WIDTH = 24
WHERE_WIDTH = 24
NARROWEST_WHERE = 8
NARROWEST_COLUMN = 11
"""The narrowest the title and outcome get (room for a locale's longer date in 70 columns)."""
NARROWEST_CUT = 6
"""The narrowest the client, where and who-answered columns get, giving way to the others."""
ANSWERED_BY = {
    "person": N_("person"),
    "answers_file": N_("answers file"),
    "nobody": N_("nobody"),
}
"""The table's words for who answered (`answered_by`)."""


def inert(text: str) -> str:
    """`text` with every control character replaced by a visible spelling of it."""
    return text.translate(SHOWN_CONTROLS)


def show_history(
    path: Path,
    *,
    limit: int,
    text: str | None,
    as_json: bool,
    translation: Translation = ENGLISH,
    output: TextIO | None = None,
) -> int:
    """Print the history at `path`, newest first (on stdout unless `output`), the table in
    `translation` (the JSON is data: as it is in every language): the exit status."""
    output = output or sys.stdout
    _ = translation
    try:
        with closing(open_history(path, create=False)) as connection:
            questions = search(connection, limit=limit, text=text)
    except HistoryMissing:
        if not as_json:
            print(_.gettext(NOTHING_RECORDED, path=path), file=output)
        return 0
    except HistoryUnavailable as error:
        print(f"provide-choice history: {error.said(translation)}", file=sys.stderr)
        return UNUSABLE
    if as_json:
        for question in questions:
            line = json.dumps(question.as_json(), ensure_ascii=False)
            print(line.translate(JSON_ESCAPES), file=output)
    elif questions:
        width = shutil.get_terminal_size().columns if output.isatty() else None
        print("\n".join(table(questions, width, translation)), file=output)
    elif text:
        print(
            _.gettext(
                "No question holds {text} (history: {path}).", text=repr(inert(text)), path=path
            ),
            file=output,
        )
    else:
        print(_.gettext(NOTHING_RECORDED, path=path), file=output)
    return 0


def clear_history(
    path: Path, *, confirm: Callable[[str], bool] | None, translation: Translation = ENGLISH
) -> int:
    """Empty the history at `path` after `confirm(question)` says yes (None: without asking)."""
    _ = translation
    try:
        with closing(open_history(path, create=False)) as connection:
            count = connection.execute("SELECT count(*) FROM questions").fetchone()[0]
            asked = _.ngettext(
                "Delete the {count} question in {path}? [y/N] ",
                "Delete the {count} questions in {path}? [y/N] ",
                count,
                path=path,
            )
            if confirm is not None and not confirm(asked):
                print(_.gettext("Nothing deleted."))
                return 0
            deleted, still_waiting = clear(connection)
    except HistoryMissing:
        print(_.gettext("The history is empty: no question has been recorded yet."))
        return 0
    except HistoryUnavailable as error:
        print(f"provide-choice history: {error.said(translation)}", file=sys.stderr)
        return UNUSABLE
    if still_waiting:
        print(
            _.ngettext(
                "Deleted {count} question; {waiting} still waiting stay until they end.",
                "Deleted {count} questions; {waiting} still waiting stay until they end.",
                deleted,
                waiting=still_waiting,
            )
        )
    else:
        print(_.ngettext("Deleted {count} question.", "Deleted {count} questions.", deleted))
    return 0


def table(
    questions: list[RecordedQuestion], width: int | None, translation: Translation = ENGLISH
) -> list[str]:
    """The lines of the table; every cell cut to fit `width` columns (None: nothing cut), by the
    columns a terminal gives it (a Chinese character takes two)."""
    _ = translation
    header = (
        _.gettext("When"),
        _.gettext("Client"),
        _.gettext("Where"),
        _.gettext("Answered by"),
        _.gettext("Title"),
        _.gettext("Outcome"),
    )
    rows = [header] + [
        (
            format_date_time(datetime.fromtimestamp(question.asked_at), translation),
            inert(question.client_text or "-"),
            inert(_.gettext(question.transport_label)),
            inert(question.person)
            if question.person
            else _answered_by(question.answered_by, translation),
            inert(question.shown_title(translation)),
            inert(_outcome(question, translation)),
        )
        for question in questions
    ]
    longest = [max(columns(row[column]) for row in rows) for column in range(len(rows[0]))]
    when_width = longest[0]
    if width is None:
        widths = [when_width, *longest[1:5], 0]
    else:
        where_width = min(longest[2], WHERE_WIDTH, max(width // 8, NARROWEST_WHERE))
        widths = [when_width, min(longest[1], CLIENT_WIDTH), where_width, longest[3]]
        rest = width - sum(widths) - (len(widths) + 1) * len(GAP)
        for column in (1, 2, 3):  # too narrow for titles and outcomes: these give way first
            give = max(min(2 * NARROWEST_COLUMN - rest, widths[column] - NARROWEST_CUT), 0)
            widths[column] -= give
            rest += give
        rest = max(rest, 2 * NARROWEST_COLUMN)
        title_width = min(longest[4], max(rest * 2 // 5, NARROWEST_COLUMN))
        widths += [title_width, rest - title_width]
    lines = []
    for row in rows:
        cells = [_fit(cell, cell_width) for cell, cell_width in zip(row, widths, strict=True)]
        lines.append(GAP.join(cells).rstrip())
    return lines


def _answered_by(answered_by: str | None, translation: Translation) -> str:
    """Who answered, in the table's words (-: not recorded, or not answered yet)."""
    words = ANSWERED_BY.get(answered_by or "")
    return "-" if words is None else translation.gettext(words)


def _outcome(question: RecordedQuestion, translation: Translation) -> str:
    """How a question ended: the summary the agent got (as the agent got it), or where it is."""
    if question.state == "waiting":
        left = format_duration(question.deadline_at - time.time(), translation)
        return translation.gettext("waiting ({time} left)", time=left)
    if question.state == "unfinished":
        return translation.gettext("never ended: its server stopped first")
    summary = (question.selection or {}).get("summary")
    return str(summary or question.action_status or translation.gettext("ended"))


def columns(text: str) -> int:
    """The columns `text` takes in a terminal: two for a wide character (Chinese, Japanese...)."""
    return sum(2 if unicodedata.east_asian_width(character) in "WF" else 1 for character in text)


def _fit(text: str, width: int) -> str:
    """`text` padded to `width` columns, or cut with an ellipsis; width 0 leaves it whole."""
    if width == 0:
        return text
    if columns(text) > width:
        while columns(text) > width - 1:
            text = text[:-1]
        return text + "…"
    return text + " " * (width - columns(text))
