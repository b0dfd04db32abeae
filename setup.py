"""The build compiles the message catalogs (the .po files under present_choices/locales) into the
.mo files gettext reads, so a wheel ships them and no .mo is ever committed. An editable install
compiles them in place, beside their .po files, where the checkout imports them from."""

from pathlib import Path

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

        for source in sorted(CATALOGS.glob("*/LC_MESSAGES/*.po")):
            compiled = source.with_suffix(".mo")
            if not self.editable_mode:
                compiled = Path(self.build_lib) / compiled
            compiled.parent.mkdir(parents=True, exist_ok=True)
            with source.open("rb") as po_file:
                catalog = read_po(po_file, locale=source.parent.parent.name)
            with compiled.open("wb") as mo_file:
                write_mo(mo_file, catalog)


setup(cmdclass={"build_py": BuildWithCatalogs})
