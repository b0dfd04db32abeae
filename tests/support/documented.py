"""Every documented block, with its file and line: the README and each page of the site in docs/,
parsed as a renderer sees them (markdown-it-py, tables on), so that the test of an example follows
it to whichever page it moves, and a page added later is checked the day it is written.

The tests of the examples (tests/test_docs_*.py, tests/test_readme.py) and the e2e tests that run
one as written (nginx, the plug-in transport, the sample AG-UI agent, the conformance table) all read
the documentation through here.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from markdown_it import MarkdownIt
from markdown_it.token import Token

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
SITE = ROOT / "docs"
"""The documentation site's pages (mkdocs.yml's `docs_dir`)."""


@dataclass(frozen=True)
class Page:
    """One markdown file: its name from the repository's root (`docs/chat.md`), text and tokens."""

    name: str
    text: str
    tokens: list[Token] = field(compare=False, hash=False, repr=False)

    @property
    def lines(self) -> list[str]:
        return self.text.splitlines()


@dataclass(frozen=True)
class Block:
    """A fenced code block: the page it is on, its info string (`sh`, `json`, "" for none), its
    text and the line its fence opens on (1-based)."""

    page: str
    info: str
    text: str
    line: int

    def __str__(self) -> str:
        return f"{self.page}:{self.line} ({self.info or 'plain'})"


def read_page(path: Path) -> Page:
    text = path.read_text(encoding="utf-8")
    tokens = MarkdownIt("commonmark").enable("table").parse(text)
    return Page(path.relative_to(ROOT).as_posix(), text, tokens)


@cache
def pages() -> tuple[Page, ...]:
    """The README, then every page of the site in the order of their paths."""
    return (read_page(README), *(read_page(path) for path in sorted(SITE.rglob("*.md"))))


def page(name: str) -> Page:
    (found,) = [candidate for candidate in pages() if candidate.name == name]
    return found


def all_text() -> str:
    """Every page's text, one after another: for a fact that must be said somewhere."""
    return "\n".join(candidate.text for candidate in pages())


def blocks_of(candidate: Page) -> list[Block]:
    return [
        Block(candidate.name, token.info.strip(), token.content, token.map[0] + 1)
        for token in candidate.tokens
        if token.type == "fence" and token.map
    ]


@cache
def every_block() -> tuple[Block, ...]:
    return tuple(block for candidate in pages() for block in blocks_of(candidate))


def blocks(info: str | None = None, start: str = "") -> list[Block]:
    """The blocks of kind `info` (every kind when None) whose text starts with `start`."""
    return [
        block
        for block in every_block()
        if (info is None or block.info == info) and block.text.startswith(start)
    ]


def before(block: Block) -> list[Block]:
    """The blocks above `block` on its page, the nearest first."""
    same_page = [other for other in every_block() if other.page == block.page]
    return same_page[: same_page.index(block)][::-1]


def after(block: Block) -> list[Block]:
    """The blocks below `block` on its page, the nearest first."""
    same_page = [other for other in every_block() if other.page == block.page]
    return same_page[same_page.index(block) + 1 :]


def command_line(start: str) -> list[str]:
    """The words of the first documented shell line that starts with `start` (in the README, else
    the first page that shows one), its comment left out: for a test that runs it as written."""
    for block in blocks("sh"):
        for line in block.text.splitlines():
            if line.startswith(start):
                return shlex.split(line, comments=True)
    raise AssertionError(f"the documentation shows no command line starting with {start!r}")


def inline_code() -> Iterator[tuple[str, str]]:
    """Each piece of code in the text (`like this`), with the page it is on."""
    for candidate in pages():
        for token in candidate.tokens:
            if token.type == "inline":
                for child in token.children or ():
                    if child.type == "code_inline":
                        yield candidate.name, child.content


def spans(candidate: Page, kind: str) -> list[tuple[int, int]]:
    """The source lines (0-based, end excluded) of each `kind` ("table_open", "fence") on a page."""
    return [
        (token.map[0], token.map[1])
        for token in candidate.tokens
        if token.type == kind and token.map
    ]


def tables(candidate: Page) -> list[list[list[str]]]:
    """Each table of a page as rows of cells (the header first, the separator left out), each cell
    as its inline source, an escaped `\\|` read as `|`."""
    found: list[list[list[str]]] = []
    inside = False
    for token in candidate.tokens:
        if token.type in ("table_open", "table_close"):
            inside = token.type == "table_open"
            found += [[]] if inside else []
        elif inside and token.type == "tr_open":
            found[-1].append([])
        elif inside and token.type == "inline":
            found[-1][-1].append(token.content.replace("\\|", "|"))
    return found
