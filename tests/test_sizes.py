"""Sizes the code keeps (issues 27 and 37): no Python file over 400 lines, no class over 220 lines
and no function over 80 lines in the packages, so that each module stays one idea a reader can
hold; what grows past them is split where its seams are, not squeezed.

Each package is checked on its own (`pytest tests/test_sizes.py -k provide_choice`)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("present_choices", "chat_ui", "provide_choice")
MAX_FILE_LINES = 400
MAX_CLASS_LINES = 220
MAX_FUNCTION_LINES = 80
SOURCES = {package: sorted((ROOT / package).rglob("*.py")) for package in PACKAGES}


def too_long(path: Path, root: Path = ROOT) -> list[str]:
    """What in `path` is over the sizes, each said with its length and its path from `root`."""
    text = path.read_text(encoding="utf-8")
    name = path.relative_to(root)
    problems = []
    if (lines := len(text.splitlines())) > MAX_FILE_LINES:
        problems.append(f"{name}: {lines} lines (at most {MAX_FILE_LINES})")
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ClassDef):
            kind, limit = "class", MAX_CLASS_LINES
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            kind, limit = "function", MAX_FUNCTION_LINES
        else:
            continue
        length = (node.end_lineno or node.lineno) - node.lineno + 1
        if length > limit:
            problems.append(f"{name}: {kind} {node.name}, {length} lines (at most {limit})")
    return problems


def test_every_package_is_measured() -> None:
    assert all(SOURCES.values())
    assert sum(len(sources) for sources in SOURCES.values()) > 50


@pytest.mark.parametrize("package", PACKAGES)
def test_no_file_class_or_function_is_too_long(package: str) -> None:
    assert [problem for path in SOURCES[package] for problem in too_long(path)] == []


def test_a_long_file_and_class_are_found(tmp_path: Path) -> None:
    body = "\n".join(f"    x{index} = {index}" for index in range(MAX_CLASS_LINES))
    source = tmp_path / "probe.py"
    source.write_text(f"class Long:\n{body}\n" + "\n" * MAX_FILE_LINES, encoding="utf-8")
    assert too_long(source, tmp_path) == [
        f"probe.py: {MAX_FILE_LINES + MAX_CLASS_LINES + 1} lines (at most 400)",
        "probe.py: class Long, 221 lines (at most 220)",
    ]


def test_a_long_function_is_found_at_any_depth(tmp_path: Path) -> None:
    body = "\n".join(f"            x{index} = {index}" for index in range(MAX_FUNCTION_LINES))
    source = tmp_path / "probe.py"
    source.write_text(
        f"class Short:\n    def outer(self):\n        async def inner():\n{body}\n",
        encoding="utf-8",
    )
    assert too_long(source, tmp_path) == [
        "probe.py: function outer, 82 lines (at most 80)",
        "probe.py: function inner, 81 lines (at most 80)",
    ]
