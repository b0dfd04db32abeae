"""`provide-choice ask` in a real terminal: all four modes, limits, notes, cancel, timeout, settings,
exit statuses and the history. Every answer is read from the command's stdout, as a shell script
would (and `answer_of` checks that the exit status agrees with it)."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import pexpect
import pyte
import pytest
from attended import attended_environment
from provide_choice_harness import (
    COMMAND,
    CTRL_C,
    DOWN,
    ENTER,
    SPACE,
    UP,
    answer_of,
    continue_with_settings,
    expect_plain,
    history_of,
    plain,
    spawn,
    spawn_ask,
)

OPTIONS = [
    {
        "id": "pg",
        "label": "PostgreSQL",
        "description": "robust, needs a server",
        "recommended": True,
    },
    {"id": "lite", "label": "SQLite", "description": "one file"},
    {"id": "duck", "label": "DuckDB"},
]


def question(mode: str, **changes: Any) -> dict[str, Any]:
    base = {
        "title": "Database",
        "prompt": "The app needs storage and none is configured.",
        "selection_mode": mode,
        "options": None if mode == "text_input" else OPTIONS,
    }
    return {key: value for key, value in (base | changes).items() if value is not None}


def test_single_choice_submits_on_enter_and_stdout_is_only_the_json(tmp_path: Path) -> None:
    child, answer_file = spawn_ask(question("single"), tmp_path)
    continue_with_settings(child)
    expect_plain(child, "Choose one")
    expect_plain(child, "PostgreSQL ★ recommended — robust, needs a server")
    expect_plain(child, "left · Ctrl-C cancels")
    child.send(DOWN)
    child.send(ENTER)
    expect_plain(child, "Selected: SQLite.")
    answer = answer_of(child, answer_file)
    assert answer["action_status"] == "selected"
    assert answer["selection"]["selected_ids"] == ["lite"]
    assert answer["selection"]["transport"] == "terminal"


def test_in_a_chinese_terminal_the_screens_are_chinese_and_stdout_is_the_same_json(
    tmp_path: Path,
) -> None:
    child, answer_file = spawn_ask(question("multi"), tmp_path, language="zh_CN.UTF-8")
    continue_with_settings(child, "使用这些设置继续")
    expect_plain(child, "请选择 1 到 3 项")
    expect_plain(child, "PostgreSQL ★ 推荐 — robust, needs a server")  # agent text as written
    for hint in ["↑↓ 移动", "空格 勾选", "Enter 提交", "1-3 勾选", "n 为选项添加备注"]:
        expect_plain(child, hint)
    expect_plain(child, "Ctrl-C 取消")
    child.send(ENTER)
    expect_plain(child, "请选择 1 到 3 项（已选 0 项）")
    child.send(SPACE + ENTER)
    answer = answer_of(child, answer_file)
    assert answer == {
        "action_status": "selected",
        "answered_by": "person",
        "selection": answer["selection"]
        | {"selected_ids": ["pg"], "summary": "Selected: PostgreSQL.", "transport": "terminal"},
    }


def test_single_choice_in_batch_mode_selects_with_space_then_submits(tmp_path: Path) -> None:
    child, answer_file = spawn_ask(question("single", single_submit_mode=False), tmp_path)
    continue_with_settings(child)
    expect_plain(child, "Choose exactly 1 option")
    child.send(SPACE)
    child.send(DOWN)
    child.send(SPACE)  # selects SQLite instead of PostgreSQL, like a radio button
    child.send(ENTER)
    assert answer_of(child, answer_file)["selection"]["selected_ids"] == ["lite"]


def test_multi_refuses_answers_outside_the_limits_even_without_cursor_position_reports(
    tmp_path: Path,
) -> None:
    request = question("multi", min_selections=2, max_selections=2)
    child, answer_file = spawn_ask(request, tmp_path)
    continue_with_settings(child)
    expect_plain(child, "Choose exactly 2 options")
    child.send(SPACE + ENTER)
    expect_plain(child, "Choose exactly 2 options (1 chosen)")
    for key in (DOWN, SPACE, DOWN, SPACE, ENTER):
        child.send(key)
    expect_plain(child, "Choose exactly 2 options (3 chosen)")
    child.send(SPACE + ENTER)  # untick DuckDB
    answer = answer_of(child, answer_file)
    assert answer["selection"]["selected_ids"] == ["pg", "lite"]


def test_multi_keeps_untouched_defaults(tmp_path: Path) -> None:
    child, answer_file = spawn_ask(question("multi", default_selection_ids=["duck"]), tmp_path)
    continue_with_settings(child)
    expect_plain(child, "Choose 1 to 3 options")
    child.send(DOWN)  # from the default (DuckDB) round to PostgreSQL
    child.send(SPACE + ENTER)
    assert answer_of(child, answer_file)["selection"]["selected_ids"] == ["pg", "duck"]


@pytest.mark.parametrize(
    ("mode", "shown"),
    [
        ("text_input", ["Your answer", "PostgreSQL 16"]),
        # hybrid with nothing chosen: the own-answer entry shows what Enter sends
        ("hybrid", ['✎ Type my own answer… (nothing chosen sends "PostgreSQL 16")']),
    ],
)
def test_a_visible_placeholder_is_accepted_on_enter(
    mode: str, shown: list[str], tmp_path: Path
) -> None:
    child, answer_file = spawn_ask(question(mode, placeholder="PostgreSQL 16"), tmp_path)
    continue_with_settings(child)
    for text in shown:
        expect_plain(child, text)
    child.send(ENTER)
    answer = answer_of(child, answer_file)
    assert answer["action_status"] == "custom_input"
    assert answer["selection"]["custom_input"] == "PostgreSQL 16"
    assert answer["selection"]["placeholder_used"] is True


def test_text_input_with_a_hidden_placeholder_needs_typed_text(tmp_path: Path) -> None:
    request = question("text_input", placeholder="PostgreSQL 16", placeholder_visible=False)
    child, answer_file = spawn_ask(request, tmp_path)
    continue_with_settings(child)
    shown = expect_plain(child, "Your answer")
    child.send(ENTER)
    shown += expect_plain(child, "Type an answer (Ctrl-C cancels)")
    child.send("MariaDB" + ENTER)
    answer = answer_of(child, answer_file)
    assert "PostgreSQL 16" not in shown + child.before
    assert answer["selection"]["custom_input"] == "MariaDB"
    assert answer["selection"]["placeholder_used"] is False


def test_regression_a_byte_that_is_not_utf8_is_replaced_and_the_answer_arrives(
    tmp_path: Path,
) -> None:
    # Typing byte 0xE9 (Latin-1 "é") printed a UnicodeEncodeError traceback and lost the answer.
    child, answer_file = spawn_ask(question("text_input"), tmp_path)
    continue_with_settings(child)
    expect_plain(child, "Your answer")
    os.write(child.child_fd, b"caf\xe9 ok")  # below pexpect's text encoding: a raw byte
    child.send(ENTER)
    answer = answer_of(child, answer_file)
    assert answer["action_status"] == "custom_input"
    assert answer["selection"]["custom_input"] == "caf\ufffd ok"
    assert "Traceback" not in child.before


def test_hybrid_accepts_an_own_answer(tmp_path: Path) -> None:
    child, answer_file = spawn_ask(question("hybrid"), tmp_path)
    continue_with_settings(child)
    expect_plain(child, "Choose up to 1 option, or type your own answer")
    for key in (DOWN, DOWN, DOWN):
        child.send(key)
    child.send(SPACE + ENTER)
    expect_plain(child, "Your own answer")
    child.send("Redis" + ENTER)
    answer = answer_of(child, answer_file)
    assert answer["action_status"] == "custom_input"
    assert answer["selection"]["custom_input"] == "Redis"
    assert answer["selection"]["selected_ids"] == []


def test_notes_on_an_option_and_on_the_whole_question(tmp_path: Path) -> None:
    child, answer_file = spawn_ask(question("multi"), tmp_path)
    continue_with_settings(child)
    expect_plain(child, "n note on option")
    child.send("n")
    expect_plain(child, "Note on PostgreSQL")
    child.send("only if ops agree" + ENTER)
    expect_plain(child, "✎ only if ops agree")
    child.send("g")
    expect_plain(child, "Overall note")
    child.send("decide by Friday" + ENTER)
    expect_plain(child, "✎ Overall note: decide by Friday")
    child.send(SPACE + ENTER)
    answer = answer_of(child, answer_file)
    assert answer["selection"]["option_annotations"] == {"pg": "only if ops agree"}
    assert answer["selection"]["global_annotation"] == "decide by Friday"


def test_ctrl_c_cancels_the_question(tmp_path: Path) -> None:
    child, answer_file = spawn_ask(question("multi", default_selection_ids=["pg"]), tmp_path)
    continue_with_settings(child)
    expect_plain(child, "Choose 1 to 3 options")
    child.send(CTRL_C)
    expect_plain(child, "Cancelled by the person; nothing selected.")
    answer = answer_of(child, answer_file)
    assert answer["action_status"] == "cancelled"
    assert answer["selection"]["selected_ids"] == []


def test_cancel_is_offered_on_the_settings_surface(tmp_path: Path) -> None:
    child, answer_file = spawn_ask(question("single"), tmp_path)
    expect_plain(child, "Cancel this question")
    child.send(DOWN + DOWN + ENTER)
    assert answer_of(child, answer_file)["action_status"] == "cancelled"


def test_the_deadline_ends_the_question_with_a_timeout(tmp_path: Path) -> None:
    request = question("single", timeout_seconds=2, default_selection_ids=["lite"])
    child, answer_file = spawn_ask(request, tmp_path)
    started = time.monotonic()
    continue_with_settings(child)
    expect_plain(child, "0:0")  # the time left is shown
    answer = answer_of(child, answer_file)
    assert 1.5 < time.monotonic() - started < 10
    assert answer["action_status"] == "timeout"
    assert answer["selection"]["selected_ids"] == ["lite"]
    assert "defaults returned, not chosen by the person: SQLite" in answer["selection"]["summary"]


def test_changed_settings_apply_at_once_and_are_saved(tmp_path: Path) -> None:
    child, answer_file = spawn_ask(question("multi"), tmp_path)
    expect_plain(child, "Change settings")
    child.send(DOWN + ENTER)
    expect_plain(child, "Offer notes on options and on the whole question: Offered")
    for key in (DOWN, DOWN, DOWN, DOWN):
        child.send(key)
    child.send(ENTER)  # the notes' values: Enter alone changes nothing
    expect_plain(child, "Offered (now)")
    child.send(DOWN + ENTER)  # notes off
    expect_plain(child, "Offer notes on options and on the whole question: Not offered")
    for _ in range(5):  # up past Done to the last entry (the list wraps around)
        child.send(UP)
    child.send(ENTER)  # open "Hidden options"
    expect_plain(child, "Options to hide")
    child.send(DOWN + SPACE + ENTER)  # hide SQLite
    expect_plain(child, "Hidden options (this question only): 1")
    child.send(DOWN + ENTER)  # Done (the list wraps around)
    continue_with_settings(child)
    shown = expect_plain(child, "Enter submit")
    shown += expect_plain(child, "left · Ctrl-C cancels")
    assert "n note on option" not in shown
    child.send(SPACE + ENTER)
    shown = expect_plain(child, "Selected: PostgreSQL.")
    assert "SQLite" not in shown.split("Choose 1 to 3 options")[-1]
    answer_of(child, answer_file)
    saved = json.loads((tmp_path / "home" / "settings.json").read_text())
    assert saved["annotations"] is False


def test_a_settings_change_is_kept_when_the_question_is_then_cancelled(tmp_path: Path) -> None:
    child, answer_file = spawn_ask(question("single"), tmp_path)
    expect_plain(child, "Change settings")
    child.send(DOWN + ENTER)
    expect_plain(child, "When time runs out: Return the question's defaults")
    for _ in range(6):
        child.send(DOWN)
    child.send(ENTER)
    expect_plain(child, "Return the question's defaults (now)")
    child.send(DOWN + ENTER)
    expect_plain(child, "When time runs out: Return nothing")
    child.send(CTRL_C)
    assert answer_of(child, answer_file)["action_status"] == "cancelled"
    saved = json.loads((tmp_path / "home" / "settings.json").read_text())
    assert saved["timeout_action"] == "return_nothing"


def test_the_history_settings_are_shown_changed_and_saved(tmp_path: Path) -> None:
    child, answer_file = spawn_ask(question("single"), tmp_path)
    expect_plain(child, "Change settings")
    child.send(DOWN + ENTER)
    expect_plain(child, "History of questions and answers: Kept")
    expect_plain(child, "Days of history kept: 30")
    for _ in range(7):
        child.send(DOWN)
    child.send(ENTER)
    expect_plain(child, "Kept (now)")
    child.send(DOWN + ENTER)
    expect_plain(child, "History of questions and answers: Not kept: nothing stays once a")
    child.send(DOWN + DOWN + DOWN + ENTER)  # past "When nobody can be asked" and "Push alerts say"
    expect_plain(child, "Days of history kept")
    child.send("\b\b0" + ENTER)  # 30 becomes 0
    expect_plain(child, "Type whole days from 1 to 3650.")
    child.send("\b7" + ENTER)
    expect_plain(child, "Days of history kept: 7")
    child.send(CTRL_C)
    assert answer_of(child, answer_file)["action_status"] == "cancelled"
    saved = json.loads((tmp_path / "home" / "settings.json").read_text())
    assert (saved["keep_history"], saved["history_days"]) == (False, 7)


def test_away_set_in_the_terminal_answers_the_next_question_at_once_with_no_terminal(
    tmp_path: Path,
) -> None:
    request = question("single", default_selection_ids=["lite"])
    child, answer_file = spawn_ask(request, tmp_path)
    expect_plain(child, "Change settings")
    child.send(DOWN + ENTER)
    expect_plain(child, "When nobody can be asked (unattended, or away): Return the question's")
    expect_plain(child, "Away until: not set")
    child.send(UP + UP + ENTER)  # from "Done", past the hidden options, up to "Away until"
    expect_plain(child, "Away until (local time; empty: not set)")
    child.send("\x15" + "tomorrow" + ENTER)  # Ctrl-U empties the offered time first
    expect_plain(child, "Type a date and time such as 2026-11-30T18:00")
    child.send("\x15" + "2099-01-02T18:00" + ENTER)
    expect_plain(child, "Away until: 2099-01-02T18:00")
    child.send(CTRL_C)
    assert answer_of(child, answer_file)["action_status"] == "cancelled"
    again = subprocess.run(
        [COMMAND, "ask", "--json", json.dumps(request)],
        env=attended_environment(tmp_path / "home"),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert again.returncode == 0, again.stderr
    response = json.loads(again.stdout)
    assert (response["action_status"], response["answered_by"]) == ("unattended", "nobody")
    assert response["selection"]["summary"] == (
        "Nobody was asked: the person is away until 2099-01-02 18:00 (local time); defaults "
        "returned, not chosen by a person: SQLite."
    )


def test_agent_text_cannot_send_escape_sequences_to_the_terminal(tmp_path: Path) -> None:
    # A title that would rename the terminal window, a prompt that would clear the screen, and a
    # label that would write to the clipboard (OSC 52): all must arrive as inert text.
    hostile = {
        "title": "Deploy\x1b]0;PWNED\x07",
        "prompt": "Go?\x1b[2J\x1b[H",
        "options": [
            {"id": "yes", "label": "Yes\x1b]52;c;cHduZWQ=\x07", "recommended": True},
            {"id": "no", "label": "No"},
        ],
    }
    child, answer_file = spawn_ask(question("single", **hostile), tmp_path)
    child.logfile_read = everything_shown = io.StringIO()
    continue_with_settings(child)
    expect_plain(child, "Choose one")
    child.send(ENTER)
    expect_plain(child, "Selected:")
    assert answer_of(child, answer_file)["selection"]["selected_ids"] == ["yes"]
    shown = everything_shown.getvalue()
    assert "PWNED" in shown  # the text itself is shown...
    for sequence in ("\x1b]0;PWNED", "\x1b[2J", "\x1b]52;"):
        assert sequence not in shown  # ...but never as a live escape sequence


def test_regression_a_huge_timeout_typed_in_the_settings_is_refused_with_the_range(
    tmp_path: Path,
) -> None:
    # 1 followed by 400 zeros was saved, and every later provide_choice call failed.
    child, answer_file = spawn_ask(question("single"), tmp_path)
    expect_plain(child, "Change settings")
    child.send(DOWN + ENTER)
    expect_plain(child, "Done")
    child.send(DOWN + ENTER)  # the timeout
    expect_plain(child, "Timeout in seconds (empty: as the question asks)")
    child.send("1" + "0" * 400 + ENTER)
    expect_plain(child, "Type whole seconds from 1 to 86400, or nothing for the question's own")
    child.send(CTRL_C)
    assert answer_of(child, answer_file)["action_status"] == "cancelled"
    assert not (tmp_path / "home" / "settings.json").exists()


def test_regression_a_cancelled_question_exits_1_where_an_answer_exits_0(tmp_path: Path) -> None:
    # Ctrl-C exited 0, like an answer: a script under `set -e` could not tell them apart.
    for key, status, exit_status in ((ENTER, "selected", 0), (CTRL_C, "cancelled", 1)):
        (tmp_path / status).mkdir()
        child, answer_file = spawn_ask(question("single"), tmp_path / status)
        continue_with_settings(child)
        expect_plain(child, "Choose one")
        child.send(key)
        assert answer_of(child, answer_file)["action_status"] == status
        assert child.exitstatus == exit_status


def test_regression_a_timed_out_question_exits_1_with_one_summary_and_no_loop_error(
    tmp_path: Path,
) -> None:
    # The question's deadline and its screen's ended the screen twice: prompt_toolkit printed
    # "Unhandled exception in event loop ... Press ENTER to continue" into stdout's JSON.
    child, answer_file = spawn_ask(question("single", timeout_seconds=1), tmp_path)
    child.logfile_read = shown = io.StringIO()  # from the start: the second may pass at once
    continue_with_settings(child)
    assert answer_of(child, answer_file)["action_status"] == "timeout"
    assert child.exitstatus == 1
    assert plain(shown.getvalue()).count("No answer before the deadline") == 1
    assert "Unhandled exception" not in shown.getvalue()


def test_a_bad_request_in_a_terminal_exits_2_and_prints_nothing_on_stdout(tmp_path: Path) -> None:
    child, answer_file = spawn_ask(question("single", options=[]), tmp_path)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2
    assert "provide-choice ask: invalid request (1 problem):" in plain(child.before)
    assert answer_file.read_text() == ""
    assert history_of(tmp_path / "home") == [], "nothing was asked"


def test_regression_ask_is_recorded_in_the_history_like_a_servers_question(
    tmp_path: Path,
) -> None:
    # `provide-choice ask` recorded nothing, although every question is said to be recorded.
    child, answer_file = spawn_ask(question("multi"), tmp_path)
    continue_with_settings(child)
    expect_plain(child, "Choose 1 to 3 options")
    child.send(SPACE + DOWN + SPACE + ENTER)
    answer = answer_of(child, answer_file)
    (row,) = history_of(tmp_path / "home")
    assert row["title"] == "Database"
    assert row["transport"] == "terminal"
    assert row["client"]["name"] == "provide-choice ask"
    assert row["client"]["version"]
    assert row["action_status"] == "selected"
    assert row["selection"] == answer["selection"]
    assert row["ended_at"] is not None


def test_an_interrupt_between_screens_cancels_records_and_exits_1(tmp_path: Path) -> None:
    # SIGINT reaches the process itself when no screen reads the keys (or from `kill -INT`): the
    # question ends as a cancel, and its history row is written before the process exits.
    child, answer_file = spawn_ask(question("single"), tmp_path)
    continue_with_settings(child)
    expect_plain(child, "Choose one")
    child.kill(signal.SIGINT)
    expect_plain(child, "Cancelled by the person; nothing selected.")
    assert answer_of(child, answer_file)["action_status"] == "cancelled"
    (row,) = history_of(tmp_path / "home")
    assert (row["action_status"], row["client"]["name"]) == ("cancelled", "provide-choice ask")


LIST_HINTS = [
    "↑↓ move",
    "space toggle",
    "Enter submit",
    "1-3 toggle",
    "n note on option",
    "g overall note",
]


@pytest.mark.parametrize("columns", [100, 80, 60, 40])
def test_regression_the_key_help_fits_the_terminal_and_wraps_between_hints(
    tmp_path: Path, columns: int
) -> None:
    # At 80 and 100 columns the terminal broke the help inside hints: "Ctrl" / "-C cancel".
    request_file = tmp_path / "request.json"
    request_file.write_text(json.dumps(question("multi")))
    child = spawn([COMMAND, "ask", str(request_file)], tmp_path / "home", dimensions=(30, columns))
    child.logfile_read = shown = io.StringIO()
    continue_with_settings(child)
    expect_plain(child, "g overall note")
    expect_plain(child, "left · Ctrl-C cancels")
    child.expect(pexpect.TIMEOUT, timeout=0.3)  # read the rest of the screen's first drawing
    screen = pyte.Screen(columns, 30)
    pyte.Stream(screen).feed(shown.getvalue())
    lines = [line.rstrip() for line in screen.display]
    child.send(CTRL_C)
    child.expect(pexpect.EOF)
    help_lines = [line for line in lines if "Enter submit" in line or "g overall note" in line]
    assert help_lines, "\n".join(lines)
    for hint in [*LIST_HINTS, "Ctrl-C cancels"]:
        assert any(hint in line for line in lines), f"{hint!r} is split:\n" + "\n".join(lines)
    joined = " · ".join(line for line in lines if any(hint in line for hint in LIST_HINTS))
    assert joined == " · ".join(LIST_HINTS), "every hint once, in order, whole lines of hints"
    if columns >= len(" · ".join(LIST_HINTS)):
        assert len(help_lines) == 1, "room for every hint on one line"


def test_regression_enter_in_the_settings_changes_nothing_by_itself_and_a_cut_value_says_so(
    tmp_path: Path,
) -> None:
    # Enter cycled a setting through its values in place: one key too many changed it unseen.
    request_file = tmp_path / "request.json"
    request_file.write_text(json.dumps(question("single")))
    child = spawn([COMMAND, "ask", str(request_file)], tmp_path / "home", dimensions=(40, 60))
    child.logfile_read = shown = io.StringIO()
    expect_plain(child, "Change settings")  # the first screen keeps its entry
    child.send(DOWN + ENTER)
    expect_plain(child, "Enter opens the highlighted setting")
    for _ in range(6):
        child.send(DOWN)
    child.send(ENTER + ENTER)  # a stray second Enter: on the current value, which it keeps
    expect_plain(child, "Enter sets the highlighted value")
    expect_plain(child, "Enter opens the highlighted setting")
    child.expect(pexpect.TIMEOUT, timeout=0.3)  # the rest of that drawing
    screen = pyte.Screen(60, 40)
    pyte.Stream(screen).feed(shown.getvalue())
    lines = [line.rstrip() for line in screen.display]
    child.send(CTRL_C)
    child.expect(pexpect.EOF)
    assert " » When time runs out: Return the question's defaults" in lines
    cut = [line for line in lines if line.endswith("…")]
    assert any(line.startswith("   When nobody can be asked (unattended, or aw") for line in cut)
    assert all(len(line) <= 60 for line in lines)
    assert not (tmp_path / "home" / "settings.json").exists(), "nothing was changed"
