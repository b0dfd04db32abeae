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
from collections.abc import Callable
from contextlib import closing
from datetime import datetime
from pathlib import Path
from typing import TextIO

from provide_choice._history._store import (
    HistoryMissing,
    HistoryUnavailable,
    RecordedQuestion,
    clear,
    open_history,
    search,
)

UNUSABLE = 1
BIDIRECTIONAL_CONTROLS = (0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A))
SHOWN_CONTROLS = {
    **{code: f"^{chr(code ^ 0x40)}" for code in (*range(0x20), 0x7F)},
    **{code: f"<U+{code:04X}>" for code in (*range(0x80, 0xA0), *BIDIRECTIONAL_CONTROLS)},
}
"""Control characters as a terminal shows them typed (`^[` for ESC), the others by their code."""
JSON_ESCAPES = {code: f"\\u{code:04x}" for code in (*range(0x7F, 0xA0), *BIDIRECTIONAL_CONTROLS)}
"""What `json.dumps` leaves raw and a terminal may act on; escaped, the JSON means the same."""
GAP = "  "
WHEN_WIDTH = 16
CLIENT_WIDTH = 24
WHERE_WIDTH = 24
NARROWEST_WHERE = 8
NARROWEST_COLUMN = 12
NARROWEST_CUT = 6
"""The narrowest the client, where and who-answered columns get, giving way to the others."""
ANSWERED_BY = {"person": "person", "answers_file": "answers file", "nobody": "nobody"}
"""The table's words for who answered (`answered_by`)."""


def inert(text: str) -> str:
    """`text` with every control character replaced by a visible spelling of it."""
    return text.translate(SHOWN_CONTROLS)


def show_history(
    path: Path, *, limit: int, text: str | None, as_json: bool, output: TextIO | None = None
) -> int:
    """Print the history at `path`, newest first (on stdout unless `output`): the exit status."""
    output = output or sys.stdout
    try:
        with closing(open_history(path, create=False)) as connection:
            questions = search(connection, limit=limit, text=text)
    except HistoryMissing as missing:
        if not as_json:
            print(f"{str(missing)[0].upper()}{str(missing)[1:]}.", file=output)
        return 0
    except HistoryUnavailable as error:
        print(f"provide-choice history: {error}", file=sys.stderr)
        return UNUSABLE
    if as_json:
        for question in questions:
            line = json.dumps(question.as_json(), ensure_ascii=False)
            print(line.translate(JSON_ESCAPES), file=output)
    elif questions:
        width = shutil.get_terminal_size().columns if output.isatty() else None
        print("\n".join(table(questions, width)), file=output)
    else:
        nothing = "No question holds" if text else "No question has been recorded yet"
        print(f"{nothing}{f' {inert(text)!r}' if text else ''} (history: {path}).", file=output)
    return 0


def clear_history(path: Path, *, confirm: Callable[[str], bool] | None) -> int:
    """Empty the history at `path` after `confirm(question)` says yes (None: without asking)."""
    try:
        with closing(open_history(path, create=False)) as connection:
            count = connection.execute("SELECT count(*) FROM questions").fetchone()[0]
            if confirm is not None and not confirm(
                f"Delete the {count} questions in {path}? [y/N] "
            ):
                print("Nothing deleted.")
                return 0
            deleted, still_waiting = clear(connection)
    except HistoryMissing:
        print("The history is empty: no question has been recorded yet.")
        return 0
    except HistoryUnavailable as error:
        print(f"provide-choice history: {error}", file=sys.stderr)
        return UNUSABLE
    kept = f"; {still_waiting} still waiting stay until they end" if still_waiting else ""
    print(f"Deleted {deleted} question{'' if deleted == 1 else 's'}{kept}.")
    return 0


def table(questions: list[RecordedQuestion], width: int | None) -> list[str]:
    """The lines of the table; every cell cut to fit `width` columns (None: nothing cut)."""
    rows = [("When", "Client", "Where", "Answered by", "Title", "Outcome")] + [
        (
            _when(question.asked_at),
            inert(question.client_text or "-"),
            inert(question.transport_label),
            ANSWERED_BY.get(question.answered_by or "", "-"),
            inert(question.title),
            inert(_outcome(question)),
        )
        for question in questions
    ]
    longest = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    if width is None:
        widths = [WHEN_WIDTH, *longest[1:5], 0]
    else:
        where_width = min(longest[2], WHERE_WIDTH, max(width // 8, NARROWEST_WHERE))
        widths = [WHEN_WIDTH, min(longest[1], CLIENT_WIDTH), where_width, longest[3]]
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


def _outcome(question: RecordedQuestion) -> str:
    if question.state == "waiting":
        left = max(question.deadline_at - time.time(), 0)
        return f"waiting ({int(left) // 60}:{int(left) % 60:02d} left)"
    if question.state == "unfinished":
        return "never ended: its server stopped first"
    summary = (question.selection or {}).get("summary")
    return str(summary or question.action_status or "ended")


def _when(timestamp: float) -> str:
    return datetime.fromtimestamp(timestamp).strftime("%Y-%m-%d %H:%M")


def _fit(text: str, width: int) -> str:
    """`text` padded to `width`, or cut with an ellipsis; width 0 leaves it whole."""
    if width == 0:
        return text
    if len(text) > width:
        return text[: width - 1] + "…"
    return text.ljust(width)
