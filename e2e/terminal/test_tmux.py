"""Inside tmux, whose `allow-passthrough` is off by default, the terminal's alert would be dropped
without a trace: `provide-choice ask` in a real tmux (a server of the test's own) says so once as it
starts, with the line to add to `~/.tmux.conf`; with that line in the configuration tmux reads, it
says nothing, and neither does it with the terminal's alerts switched off."""

from __future__ import annotations

import json
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from alert_environment import environment
from prompts import DATABASE_REQUEST
from provide_choice_harness import COMMAND

TMUX = shutil.which("tmux")
pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed")
LINE = "set -g allow-passthrough on"
WARNING = (
    "provide-choice: warning: tmux drops this terminal's alerts (its allow-passthrough is off): "
    "add this line to ~/.tmux.conf, then run tmux source-file ~/.tmux.conf: " + LINE
)


class Tmux:
    """A tmux server of the test's own (its socket in the test's directory, its configuration
    `config`), running `provide-choice ask` in its one pane."""

    def __init__(self, home: Path, config: Path, **variables: str) -> None:
        assert TMUX is not None
        self.base = [TMUX, "-S", str(home / "tmux.socket"), "-f", str(config)]
        (home / "request.json").write_text(json.dumps(DATABASE_REQUEST))
        script = f'exec "{COMMAND}" ask request.json > answer.json'
        subprocess.run(
            [*self.base, "new-session", "-d", "-x", "200", "-y", "30", "-c", str(home), script],
            # The terminal around tmux is one that reads OSC 9 (iTerm2 leaves LC_TERMINAL).
            env=environment(home, LC_TERMINAL="iTerm2", **variables),
            check=True,
            timeout=10,
        )

    def screen(self) -> str:
        shown = subprocess.run(
            [*self.base, "capture-pane", "-p", "-J"], capture_output=True, text=True, timeout=10
        )
        return shown.stdout

    def until_shown(self, text: str, seconds: float = 20) -> str:
        ends = time.monotonic() + seconds
        while time.monotonic() < ends:
            screen = self.screen()
            if text in screen:
                return screen
            time.sleep(0.05)
        raise AssertionError(f"{text!r} never showed:\n{self.screen()}")

    def close(self) -> None:
        subprocess.run([*self.base, "kill-server"], capture_output=True, timeout=10)


@pytest.fixture
def tmux(tmp_path: Path) -> Iterator[list[Tmux]]:
    started: list[Tmux] = []
    yield started
    for server in started:
        server.close()


def test_with_passthrough_off_ask_says_once_which_line_lets_alerts_through(
    tmp_path: Path, tmux: list[Tmux]
) -> None:
    server = Tmux(tmp_path, Path("/dev/null"))
    tmux.append(server)
    screen = server.until_shown("Continue with these settings")
    assert screen.count(WARNING) == 1, screen
    assert screen.index(WARNING) < screen.index("Database"), "said as it starts, above the screen"


@pytest.mark.parametrize("alerts_off", [False, True], ids=["the line in .tmux.conf", "alerts off"])
def test_with_the_line_in_tmux_conf_or_the_alerts_off_it_says_nothing(
    tmp_path: Path, tmux: list[Tmux], alerts_off: bool
) -> None:
    config = tmp_path / "tmux.conf"
    config.write_text("" if alerts_off else LINE + "\n")
    if alerts_off:
        (tmp_path / "settings.json").write_text(json.dumps({"alerts": {"terminal": False}}))
    server = Tmux(tmp_path, config)
    tmux.append(server)
    screen = server.until_shown("Continue with these settings")
    assert "allow-passthrough" not in screen, screen
