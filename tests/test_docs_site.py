"""The documentation site holds together: every page is in the navigation, nothing it shows loads
from the internet, its tables are tables, the API reference names every public name from where it
is defined, the floors it shows are import-linter's contracts, and the layout names folders that
exist. (`make lint` builds it with `mkdocs build --strict`, which fails on a broken link.)
"""

from __future__ import annotations

import ast
import importlib
import re
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from documented import ROOT, SITE, blocks, page, pages, spans, tables

yaml = pytest.importorskip(
    "yaml", reason="needs the docs extra: .venv/bin/pip install -e '.[docs]'"
)

API_PAGES = {
    "present_choices": "docs/api/present_choices.md",
    "chat_ui": "docs/api/chat_ui.md",
    "chat_ui.gradio": "docs/api/chat_ui_gradio.md",
    "chat_ui.streamlit": "docs/api/chat_ui_streamlit.md",
    "provide_choice.transports": "docs/api/transports.md",
}


def mkdocs_config() -> dict[str, Any]:
    config: dict[str, Any] = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    return config


def nav_files(entries: list[Any]) -> Iterator[str]:
    for entry in entries:
        for value in entry.values() if isinstance(entry, dict) else [entry]:
            yield from nav_files(value) if isinstance(value, list) else [value]


def test_every_page_is_in_the_navigation_once() -> None:
    listed = list(nav_files(mkdocs_config()["nav"]))
    assert len(listed) == len(set(listed))
    assert sorted(listed) == sorted(
        path.relative_to(SITE).as_posix() for path in SITE.rglob("*.md")
    )


def test_the_site_loads_nothing_from_the_internet() -> None:
    config = mkdocs_config()
    assert config["theme"]["font"] is False, "Material loads Google Fonts unless the font is off"
    plugins = [
        next(iter(plugin)) if isinstance(plugin, dict) else plugin for plugin in config["plugins"]
    ]
    assert "social" not in plugins, "the social cards plugin downloads fonts and images"
    assert "repo_url" not in config, "the repository widget asks the forge for its stars"
    for extra in ("extra_css", "extra_javascript"):
        assert not any("//" in str(item) for item in config.get(extra, ())), extra


# Tables -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", [candidate.name for candidate in pages()])
def test_regression_every_table_row_is_inside_a_table(name: str) -> None:
    # The contract table's session_id row sat after a paragraph and rendered as literal pipes.
    candidate = page(name)
    inside = {line for start, end in spans(candidate, "table_open") for line in range(start, end)}
    fenced = {line for start, end in spans(candidate, "fence") for line in range(start, end)}
    stray = [
        f"{name}:{number + 1}: {line}"
        for number, line in enumerate(candidate.lines)
        if line.startswith("|") and number not in inside and number not in fenced
    ]
    assert stray == []


@pytest.mark.parametrize("name", [candidate.name for candidate in pages()])
def test_every_table_row_has_as_many_cells_as_its_header(name: str) -> None:
    candidate = page(name)
    for start, end in spans(candidate, "table_open"):
        lines = candidate.lines[start:end]
        header = cells(lines[0])
        assert [line for line in lines if cells(line) != header] == [], f"{name}:{start + 1}"


def cells(line: str) -> int:
    return len(re.split(r"(?<!\\)\|", line.strip().strip("|")))


def test_the_contract_table_names_every_argument_of_the_tool() -> None:
    from provide_choice import tool_input_schema

    (arguments,) = [
        table for candidate in pages() for table in tables(candidate) if table[0][0] == "argument"
    ]
    names = {name for row in arguments[1:] for name in re.findall(r"`(\w+)`", row[0])}
    assert names == set(tool_input_schema()["properties"])


# The API reference --------------------------------------------------------------------------------


def documented_names(name: str) -> list[tuple[str, str]]:
    """Each `::: path` of an API page, with the heading it is shown under."""
    return re.findall(r"^::: (\S+)\n    options:\n      heading: (\S+)\n", page(name).text, re.M)


def defines(module_name: str, name: str) -> bool:
    """Whether `name` is assigned at the top of `module_name`'s source (a constant, a type alias)."""
    module = importlib.import_module(module_name)
    tree = ast.parse(Path(module.__file__ or "").read_text(encoding="utf-8"))
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
        if any(isinstance(target, ast.Name) and target.id == name for target in targets):
            return True
    return False


@pytest.mark.parametrize("package", API_PAGES)
def test_the_api_reference_documents_every_public_name_from_where_it_is_defined(
    package: str,
) -> None:
    try:
        public = importlib.import_module(package)
    except ModuleNotFoundError as missing:  # an adapter whose framework's extra is not installed
        pytest.skip(f"{package} needs {missing.name}")
    shown = documented_names(API_PAGES[package])
    assert [heading for _, heading in shown] == [f"{package}.{name}" for name in public.__all__]
    for path, heading in shown:
        module_name, _, name = path.rpartition(".")
        try:
            value = getattr(public, name)
        except ModuleNotFoundError as missing:  # a lazy name whose extra is not installed
            pytest.skip(f"{heading} needs {missing.name}")
        assert getattr(importlib.import_module(module_name), name) is value, path
        defined_in = getattr(value, "__module__", None)
        if isinstance(value, type) or (callable(value) and defined_in != "types"):
            assert defined_in == module_name, f"{heading} is defined in {defined_in}"
        else:
            assert defines(module_name, name), f"{heading} is not assigned in {module_name}"


# Development --------------------------------------------------------------------------------------


def test_the_floors_shown_are_the_import_linter_contracts() -> None:
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    development = tables(page("docs/development.md"))
    floors = [
        [row[0].replace("`", "") for row in table[1:]]
        for table in development
        if table[0][0] == "floor"
    ]
    (named,) = [table for table in development if table[0][0] == "contract"]
    for contract in contracts["contracts"]:
        assert contract["name"] in [row[0] for row in named[1:]], contract["name"]
        if contract["type"] == "layers":
            assert contract["layers"] in floors, contract["name"]
    assert len(named) - 1 == len(contracts["contracts"])


def test_every_folder_in_the_layout_exists() -> None:
    (block,) = blocks("", "present_choices/")
    parent = ROOT
    for line in block.text.splitlines():
        indent = len(line) - len(line.lstrip())
        if indent not in (0, 2):  # a description running on
            continue
        names = re.split(r"\s{2,}", line.strip(), maxsplit=1)[0]
        for name in names.rstrip(",").split(", "):
            assert name.endswith("/"), line
            assert ((ROOT if indent == 0 else parent) / name).is_dir(), name
            if indent == 0:
                parent = ROOT / name
