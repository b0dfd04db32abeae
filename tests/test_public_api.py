"""What a user may import is listed once, in each package's `__all__`: every listed name exists and
is public, and every public name a package offers is listed (nothing missing, nothing private)."""

import importlib
import typing
from types import ModuleType

import pytest

PACKAGES = ["present_choices", "chat_ui", "provide_choice", "provide_choice.transports"]
NOT_OFFERED = {"annotations", *vars(typing)}
"""Names a package `__init__` binds for itself: `from __future__ import annotations`, typing."""


@pytest.mark.parametrize("package", PACKAGES)
def test_every_listed_name_exists_and_is_public(package: str) -> None:
    module = importlib.import_module(package)
    assert module.__all__, f"{package} has no public names"
    assert sorted(module.__all__) == sorted(set(module.__all__))
    needs_an_extra = []
    for name in module.__all__:
        assert not name.startswith("_"), f"{package}.{name} is private but listed"
        try:
            listed = hasattr(module, name)  # lazy ones load
        except ModuleNotFoundError as missing:  # a lazy name whose optional extra is not installed
            needs_an_extra.append(f"{package}.{name} (needs {missing.name})")
            continue
        assert listed, f"{package}.{name} is listed but missing"
    if needs_an_extra:
        pytest.skip(f"an optional extra is not installed: {', '.join(needs_an_extra)} not loaded")


@pytest.mark.parametrize("package", PACKAGES)
def test_every_public_name_a_package_offers_is_listed(package: str) -> None:
    module = importlib.import_module(package)
    offered = {
        name
        for name, value in vars(module).items()
        if not name.startswith("_")
        and not isinstance(value, ModuleType)
        and name not in NOT_OFFERED
    }
    assert offered - set(module.__all__) == set()
