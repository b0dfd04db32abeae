"""A package's public names, each loaded from its module on first use (PEP 562).

A package's `__init__` lists where each of its names lives and takes its module `__getattr__` and
`__dir__` from `lazy_names`: importing the package then loads nothing but that list, and a program
pays only for the names it uses. Used by every package of the project (`present_choices`,
`provide_choice`, `provide_choice.transports`, `chat_ui`); the standard library only.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterable, Mapping
from typing import Any


def lazy_names(
    package: str, modules: Mapping[str, str], public: Iterable[str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The `__getattr__` and `__dir__` of `package`, whose names are found in `modules` (name to the
    module defining it): a name is imported when first asked for, and kept in the package for the
    next use; a name not listed is an AttributeError, as for any module."""
    namespace = sys.modules[package].__dict__
    listed = frozenset(public)

    def __getattr__(name: str) -> Any:
        module = modules.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted({*namespace, *listed})

    return __getattr__, __dir__
