"""The documented Gradio and Streamlit examples on a script agent (`CHOICES_CHAT_AGENT=script`), in a
real Chromium: agent markup in a question and in labels stays text, and a malformed block shows as
the code it is, never as buttons."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from framework_apps import GRADIO_COMMAND, OPTION_BUTTONS, STREAMLIT_COMMAND, example_server
from playwright.async_api import Page, expect

from present_choices import ChoicePrompt, render_fence

pytestmark = pytest.mark.asyncio(loop_scope="module")

MARKUP = "<img src=x onerror=alert(1)>"
LABELS = [f"{MARKUP} go", "**not bold** :smile: $x$"]
BROKEN = '```choices\n{"question": "Half a block", "options": [{"label": "Only one"}]}\n```'
SCRIPT = [
    "Hello.\n\n"
    + render_fence(
        ChoicePrompt.model_validate(
            {
                "question": f"Pick {MARKUP}",
                "context": "<b>context</b>",
                "options": [
                    {"label": label, "value": f"value {n}"} for n, label in enumerate(LABELS)
                ],
            }
        )
    ),
    f"Noted {{{{user}}}}.\n\n{BROKEN}",
]


@pytest.fixture(scope="module")
def app_url(framework: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    workdir = tmp_path_factory.mktemp(framework)
    script = workdir / "script.json"
    script.write_text(json.dumps(SCRIPT), encoding="utf-8")
    command = GRADIO_COMMAND if framework == "gradio" else STREAMLIT_COMMAND
    environment = {"CHOICES_CHAT_AGENT": "script", "CHOICES_CHAT_SCRIPT": str(script)}
    with example_server(command, workdir, environment) as url:
        yield url


async def test_markup_stays_text_and_a_malformed_block_shows_as_code(
    page: Page, framework: str
) -> None:
    await expect(page.get_by_text(f"Pick {MARKUP}", exact=True)).to_be_visible()
    await expect(page.get_by_text("<b>context</b>", exact=True)).to_be_visible()
    await expect(page.locator(OPTION_BUTTONS[framework])).to_have_text(LABELS)
    await expect(page.locator("img[src=x]")).to_have_count(0)

    await page.get_by_role("button", name=LABELS[0], exact=True).click()
    await expect(page.get_by_text("Noted value 0.")).to_be_visible()
    await expect(page.locator("code").filter(has_text='"question": "Half a block"')).to_be_visible()
    await expect(page.get_by_role("button", name="Only one")).to_have_count(0)
    await expect(page.get_by_text(f"✓ {LABELS[0]}", exact=True)).to_be_visible()
