"""What a user may import is listed once, in each package's `__all__`, and it all exists."""

import importlib

import pytest


@pytest.mark.parametrize("package", ["present_choices", "chat_ui", "provide_choice"])
def test_every_public_name_exists(package: str) -> None:
    module = importlib.import_module(package)
    assert module.__all__, f"{package} has no public names"
    assert sorted(module.__all__) == sorted(set(module.__all__))
    for name in module.__all__:
        assert hasattr(module, name), f"{package}.{name} is listed but missing"
