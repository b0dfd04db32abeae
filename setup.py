"""The build compiles the message catalogs (the .po files under present_choices/locales) into the
.mo files gettext reads, and writes beside them what the pages need of each language's CLDR data
(`present_choices/_locale_facts.py`), so a wheel ships them and neither is ever committed. An
editable install writes them in place, beside the .po files, where the checkout imports them from."""

import importlib.util
from pathlib import Path
from types import ModuleType

from setuptools import setup
from setuptools.command.build_py import build_py

CATALOGS = Path("present_choices") / "locales"


class BuildWithCatalogs(build_py):
    """`build_py`, then every catalog compiled where the build puts the package."""

    def run(self) -> None:
        super().run()
        # Babel is a build requirement (pyproject.toml), not needed to read this file.
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        built = CATALOGS if self.editable_mode else Path(self.build_lib) / CATALOGS
        for source in sorted(CATALOGS.glob("*/LC_MESSAGES/*.po")):
            compiled = built / source.relative_to(CATALOGS).with_suffix(".mo")
            compiled.parent.mkdir(parents=True, exist_ok=True)
            with source.open("rb") as po_file:
                catalog = read_po(po_file, locale=source.parent.parent.name)
            with compiled.open("wb") as mo_file:
                write_mo(mo_file, catalog)
        facts = _module(Path("present_choices") / "_locale_facts.py")
        facts.write_facts(built / facts.FACTS_FILE, facts.catalog_locales(CATALOGS))


def _module(path: Path) -> ModuleType:
    """The module at `path`, loaded by itself (the package it is in needs what the build lacks)."""
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


setup(cmdclass={"build_py": BuildWithCatalogs})
