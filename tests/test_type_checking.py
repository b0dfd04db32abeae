"""mypy skips the packages no line of ours uses (pyproject.toml, `follow_imports = "skip"`): they cost
two thirds of a cold `make types` and check nothing of ours. A package our code imports must be
read, or what it gives our code would silently be `Any`: this keeps the list honest."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("present_choices", "chat_ui", "provide_choice")


def skipped_by_mypy() -> set[str]:
    settings = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    overrides = settings["tool"]["mypy"]["overrides"]
    skipping = [override for override in overrides if override.get("follow_imports") == "skip"]
    return {name.partition(".")[0] for override in skipping for name in override["module"]}


def imported_by_our_code() -> set[str]:
    """The top-level packages every module of ours imports, wherever the import stands."""
    imported: set[str] = set()
    for path in (path for package in PACKAGES for path in (ROOT / package).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                imported |= {alias.name.partition(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                imported.add(node.module.partition(".")[0])
    return imported


def test_mypy_skips_no_package_our_code_imports() -> None:
    skipped = skipped_by_mypy()
    assert skipped, "the list this test keeps is in pyproject.toml"
    assert skipped & imported_by_our_code() == set()
