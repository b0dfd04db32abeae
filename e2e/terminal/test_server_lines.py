"""What the server says while a question is drawn never garbles it: `provide-choice ask` in a real
pseudo-terminal, with a push address that refuses, shows the warning in a status line under the
screen's own lines (the title, prompt, options, key help and countdown stay whole), writes it in
full on stderr once the screen is gone, naming the address with its password as `***`, and the
history notes the same address in `alert_failed`."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pexpect
import pyte
from alert_environment import environment
from provide_choice_harness import COMMAND, ENTER, expect_plain, history_of, plain
from webhook import refused_address

COLUMNS, ROWS = 100, 24
REQUEST = {
    "title": "Go on?",
    "prompt": "The migration is ready to run.",
    "selection_mode": "single",
    "options": [
        {"id": "yes", "label": "Yes, run it", "recommended": True},
        {"id": "no", "label": "Not now"},
    ],
}
WARNING = "provide-choice: warning: the push alert for 'Go on?' was not delivered: "


def test_a_push_not_delivered_shows_in_a_status_line_and_in_full_once_the_screen_is_gone(
    tmp_path: Path,
) -> None:
    refused = refused_address()
    address = refused.replace("json://", "json://agent:s3cret-token@")
    shown = refused.replace("json://", "json://agent:***@")
    (tmp_path / "request.json").write_text(json.dumps(REQUEST))
    child = pexpect.spawn(
        "/bin/sh",
        ["-c", 'exec "$0" ask "$1" > "$2"', COMMAND, "request.json", "answer.json"],
        cwd=str(tmp_path),
        env=environment(tmp_path, PROVIDE_CHOICE_NOTIFY=address),
        encoding="utf-8",
        dimensions=(ROWS, COLUMNS),
        timeout=20,
    )
    child.logfile_read = drawn = io.StringIO()
    expect_plain(child, "Continue with these settings")
    expect_plain(child, "provide-choice: warning: the push alert for")
    child.expect(pexpect.TIMEOUT, timeout=0.3)  # the rest of that drawing
    screen = pyte.Screen(COLUMNS, ROWS)
    pyte.Stream(screen).feed(drawn.getvalue())
    lines = [line.rstrip() for line in screen.display if line.strip()]

    assert lines[:2] == ["Go on?", "The migration is ready to run."], "\n".join(lines)
    assert [line for line in lines if "warning" in line] == [lines[-1]], "\n".join(lines)
    assert lines[-1] == (WARNING + shown)[: COLUMNS - 1] + "…"
    assert re.fullmatch(r"⏱ \d+:\d\d left · Ctrl-C cancels", lines[-2]), "\n".join(lines)
    entries = [
        line for line in lines if line.strip(" »").startswith(("Continue", "Change", "Cancel"))
    ]
    assert len(entries) == 3, "\n".join(lines)

    child.send(ENTER)
    expect_plain(child, "Yes, run it")
    child.send(ENTER)
    child.expect(pexpect.EOF)
    child.close()
    after = plain(drawn.getvalue()).split("Selected: Yes, run it")[-1]
    assert f"{WARNING}{shown} did not take it" in after.splitlines()
    assert "s3cret-token" not in drawn.getvalue()
    assert child.exitstatus == 0
    assert json.loads((tmp_path / "answer.json").read_text())["selection"]["selected_ids"] == [
        "yes"
    ]
    (entry,) = history_of(tmp_path)
    assert entry["alert_failed"] == f"push alert: {shown} did not take it"
