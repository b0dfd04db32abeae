"""The README is the front door, read in minutes (issue 42): at most 300 lines, with the picture,
the two commands, the install lines, a quick start per part and links into the site, each of which
leads to a page and a heading that exist, on the site and on a forge alike. It says once how the
commands run from a checkout, and runs them that way.

Its code blocks and command lines are checked with every page's (test_docs_examples.py,
test_docs_requests.py).
"""

from __future__ import annotations

import re
import shlex
import unicodedata

import pytest
from documented import ROOT, Page, blocks, page

MAX_LINES = 300
PROJECT_COMMANDS = ("provide-choice", "choices-chat", "choice-terminal", "python")


def readme() -> Page:
    return page("README.md")


def test_the_readme_reads_in_minutes() -> None:
    assert len(readme().lines) <= MAX_LINES


def test_the_readme_shows_the_picture_the_two_commands_and_how_to_install() -> None:
    text = readme().text
    assert "![" in text
    assert "(docs/chat.png)" in text
    (commands,) = [block for block in blocks("sh", "make demo") if block.page == "README.md"]
    assert [line.split("#")[0].strip() for line in commands.text.splitlines()] == [
        "make demo",
        "make test",
        "make demo PORT=8081",
    ]
    assert "pip install 'agent-choices[" in text
    assert ".venv/bin/pip install -e '.[" in text


@pytest.mark.parametrize(
    "part", ["present_choices", "choices-chat", "provide_choice"], ids=lambda part: part
)
def test_the_readme_has_a_quick_start_per_part(part: str) -> None:
    headings = [line for line in readme().lines if line.startswith("## Quick start")]
    assert any(part in heading for heading in headings), headings


def test_the_readme_says_how_commands_run_from_a_checkout_and_runs_them_so() -> None:
    text = readme().text
    assert "`.venv/bin/" in text
    assert "source .venv/bin/activate" in text
    bare = []
    for block in blocks("sh"):
        if block.page != "README.md":
            continue
        for line in block.text.splitlines():
            words = shlex.split(line, comments=True)
            while words and re.fullmatch(r"[A-Z_]+=\S*", words[0]):
                words = words[1:]
            if words and words[0] in PROJECT_COMMANDS:
                bare.append(line)
    assert bare == [], "in the README, a checkout's commands run as .venv/bin/..."


# Links --------------------------------------------------------------------------------------------


def site_slug(heading: str) -> str:
    """The anchor MkDocs gives a heading (Python-Markdown's toc.slugify)."""
    text = unicodedata.normalize("NFKD", heading).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[-\s]+", "-", re.sub(r"[^\w\s-]", "", text).strip().lower())


def forge_slug(heading: str) -> str:
    """The anchor a forge (GitHub) gives a heading when it shows the markdown file itself."""
    return re.sub(r" ", "-", re.sub(r"[^\w\- ]", "", heading.strip().lower()))


def headings(target: Page) -> list[str]:
    """Each heading of a page as text (its code spans as their content)."""
    found = []
    for number, token in enumerate(target.tokens):
        if token.type == "heading_open":
            inline = target.tokens[number + 1]
            found.append("".join(child.content for child in inline.children or ()))
    return found


def readme_links() -> list[str]:
    return [
        link
        for link in re.findall(r"\]\(([^)\s]+)\)", readme().text)
        if not link.startswith(("http://", "https://"))
    ]


def test_the_readme_links_into_the_site() -> None:
    linked = {link.partition("#")[0] for link in readme_links()}
    assert "docs/index.md" in linked, "the site's home is a link away from the front door"
    assert len({link for link in linked if link.startswith("docs/")}) >= 10


@pytest.mark.parametrize("link", readme_links(), ids=str)
def test_every_link_of_the_readme_leads_to_a_file_and_a_heading(link: str) -> None:
    path, _, anchor = link.partition("#")
    assert (ROOT / path).is_file(), path
    if anchor:
        texts = headings(page(path))
        assert anchor in [site_slug(text) for text in texts], f"no heading {anchor} in {path}"
        assert anchor in [forge_slug(text) for text in texts], (
            f"{anchor}: another anchor on a forge"
        )
