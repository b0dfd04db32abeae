"""Shared pieces of the chat's browser tests: a real `choices-chat` server, the window size, what a
person does on the page, and the documentation's screenshots of it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from accessibility import serious_violations
from playwright.async_api import Locator, Page, expect
from ports import ATTEMPTS, ExitedEarly, free_port, lost_port
from screenshots import screenshot_path

VIEWPORT = {"width": 1200, "height": 900}


@contextmanager
def chat_server(arguments: list[str], workdir: Path) -> Iterator[str]:
    """Run `choices-chat ... --port <free> --no-show` and yield its URL once it serves pages.

    It runs in `workdir` with its own storage there, and without `PYTEST_CURRENT_TEST`, which
    would make NiceGUI believe it runs inside pytest.
    """
    with chat_process(arguments, workdir) as chat:
        yield chat.url


@dataclass
class ChatProcess:
    """A running `choices-chat`: the address it serves, and the process (to kill it, say)."""

    url: str
    process: subprocess.Popen[bytes]


@contextmanager
def chat_process(
    arguments: list[str], workdir: Path, environment: dict[str, str] | None = None
) -> Iterator[ChatProcess]:
    """`chat_server`, with variables of its own in `environment`, yielding the process too; it is
    stopped at the end unless it already ended."""
    variables = {key: value for key, value in os.environ.items() if key != "PYTEST_CURRENT_TEST"}
    variables["NICEGUI_STORAGE_PATH"] = str(workdir / "storage")
    variables |= environment or {}
    command = shutil.which("choices-chat", path=str(Path(sys.executable).parent))
    assert command is not None, "choices-chat is not installed next to this Python"
    log_path = workdir / "server.log"
    for attempt in range(1, ATTEMPTS + 1):
        port = free_port()
        with log_path.open("w") as log:
            server = subprocess.Popen(
                [command, *arguments, "--port", str(port), "--no-show"],
                cwd=workdir,
                env=variables,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        url = f"http://127.0.0.1:{port}/"
        try:
            _wait_until_serving(url, server, log_path)
        except ExitedEarly:
            if attempt < ATTEMPTS and lost_port(log_path.read_text()):
                continue  # another test process took the port first: another one
            raise
        except BaseException:
            _stop(server)
            raise
        break
    try:
        yield ChatProcess(url, server)
    finally:
        _stop(server)


def _stop(server: subprocess.Popen[bytes]) -> None:
    server.terminate()
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


def _wait_until_serving(url: str, server: subprocess.Popen[bytes], log_path: Path) -> None:
    """Poll a path that is no page (any HTTP answer will do), so no conversation is started; once
    the chat has said it took the port, so that the answer is not another process's on it."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise ExitedEarly(f"choices-chat exited early:\n{log_path.read_text()}")
        if "the chat is at" not in log_path.read_text():
            time.sleep(0.1)
            continue
        try:
            urllib.request.urlopen(f"{url}ready-probe", timeout=2).close()
            return
        except urllib.error.HTTPError:
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"choices-chat did not serve {url} within 30 s:\n{log_path.read_text()}")


def log(page: Page) -> Locator:
    """The conversation (`role="log"`)."""
    return page.get_by_role("log")


def option(page: Page, question: str, label: str) -> Locator:
    """The button of the option `label` in the block asking `question`."""
    group = page.get_by_role("group", name=question)
    return group.get_by_role("button", name=label, exact=True)


async def send(page: Page, text: str) -> None:
    """Type `text` into the composer and press Enter."""
    await page.get_by_role("textbox", name="Message").fill(text)
    await page.keyboard.press("Enter")


async def send_when_ready(page: Page, text: str) -> None:
    """`send`, once the chat takes a message: the reply before it has ended (its text can show a
    moment before the Send button is enabled again, and Enter does nothing until then)."""
    await expect(page.get_by_role("button", name="Send")).to_be_enabled()
    await send(page, text)


async def requests_done(page: Page) -> None:
    """Wait for Quasar's request progress bar (top edge) to be done fading out: while a request is
    in flight (NiceGUI fetching a stylesheet for an element it shows the first time) it is an
    unnamed `progressbar`, which axe-core reports, and a line in a screenshot."""
    await expect(page.locator(".q-loading-bar")).to_have_css("opacity", "0")


async def accessible(page: Page) -> bool:
    """Whether axe-core finds nothing serious on the page, once no request is in flight."""
    await requests_done(page)
    return await serious_violations(page) == []


async def chat_screenshot(page: Page, name: str) -> None:
    """The chat as it stands, for the documentation (see `screenshot_path`): no focus ring in the composer,
    the fonts loaded, and no request in flight."""
    await page.get_by_role("textbox", name="Message").blur()
    await page.evaluate("document.fonts.ready")
    await requests_done(page)
    await page.screenshot(path=screenshot_path(name))
