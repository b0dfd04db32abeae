"""Which transports are installed: the entry points under `provide_choice.transports` on the path,
found as `importlib.metadata` finds them, each once, parsing only the distributions that name the
group (`_plug_ins.installed_entry_points`)."""

from __future__ import annotations

import sys
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path

import pytest

from provide_choice._transports._plug_ins import ENTRY_POINT_GROUP, installed_entry_points


def install(folder: Path, name: str, entry_points_text: str) -> None:
    """A distribution `name` 1.0 in `folder`, as pip installs one (its metadata, no code)."""
    info = folder / f"{name}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(entry_points_text)


def test_the_installed_transports_are_the_entry_points_importlib_finds() -> None:
    found = installed_entry_points()
    assert found == list(dict.fromkeys(entry_points(group=ENTRY_POINT_GROUP)))
    assert {entry.name for entry in found} >= {"telegram", "slack"}


def test_a_distribution_on_the_path_twice_gives_its_transports_once_and_others_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    group = f"[{ENTRY_POINT_GROUP}]\npigeon = pigeon_transport:PigeonTransport\n"
    install(tmp_path / "first", "pigeon-transport", group)
    install(tmp_path / "second", "pigeon-transport", group)
    # Names the group in a value only, and another group: nothing of it is a transport.
    install(
        tmp_path / "first",
        "tools",
        f"[console_scripts]\ntool = {ENTRY_POINT_GROUP}_tool:main\n[other.group]\nx = y:z\n",
    )
    monkeypatch.setattr(sys, "path", [str(tmp_path / "first"), str(tmp_path / "second")])
    assert installed_entry_points() == [
        EntryPoint("pigeon", "pigeon_transport:PigeonTransport", ENTRY_POINT_GROUP)
    ]
