"""Sizes the code keeps (issue 27): no Python file over 450 lines and no class over 250 lines in the
packages, so that each module stays one idea a reader can hold."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("present_choices", "chat_ui", "provide_choice")
MAX_FILE_LINES = 450
MAX_CLASS_LINES = 250
SOURCES = sorted(path for package in PACKAGES for path in (ROOT / package).rglob("*.py"))


def too_long(path: Path, root: Path = ROOT) -> list[str]:
    """What in `path` is over the sizes, each said with its length and its path from `root`."""
    text = path.read_text(encoding="utf-8")
    name = path.relative_to(root)
    problems = []
    if (lines := len(text.splitlines())) > MAX_FILE_LINES:
        problems.append(f"{name}: {lines} lines (at most {MAX_FILE_LINES})")
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ClassDef):
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            if length > MAX_CLASS_LINES:
                problems.append(
                    f"{name}: class {node.name}, {length} lines (at most {MAX_CLASS_LINES})"
                )
    return problems


def test_no_file_or_class_is_too_long() -> None:
    assert len(SOURCES) > 50
    assert [problem for path in SOURCES for problem in too_long(path)] == []


def test_a_long_file_and_class_are_found(tmp_path: Path) -> None:
    body = "\n".join(f"    x{index} = {index}" for index in range(MAX_CLASS_LINES))
    source = tmp_path / "probe.py"
    source.write_text(f"class Long:\n{body}\n" + "\n" * MAX_FILE_LINES, encoding="utf-8")
    assert too_long(source, tmp_path) == [
        f"probe.py: {MAX_FILE_LINES + MAX_CLASS_LINES + 1} lines (at most 450)",
        "probe.py: class Long, 251 lines (at most 250)",
    ]
