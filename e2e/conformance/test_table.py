"""The table a reader sees is the table that runs."""

from __future__ import annotations

from cases import CASES
from conformance import SURFACES, markdown_table
from documented import page

TABLE_PAGE = "docs/conformance.md"


def test_the_site_shows_the_table_as_it_runs() -> None:
    text = page(TABLE_PAGE).text
    start = text.index("<!-- conformance table")
    end = text.index("<!-- end of the conformance table -->")
    shown = text[text.index("\n", start) + 1 : end].strip()
    assert shown == markdown_table(CASES), (
        f"paste `.venv/bin/python e2e/conformance/cases.py` into {TABLE_PAGE}"
    )


def test_at_least_20_cases_across_the_four_modes_each_on_every_surface_or_saying_why() -> None:
    assert len(CASES) >= 20
    assert len({case.id for case in CASES}) == len(CASES), "case ids are unique"
    singles = [case for case in CASES if not case.questions]
    modes = {case.request["selection_mode"] for case in singles}
    assert modes == {"single", "multi", "text_input", "hybrid"}
    for surface in SURFACES:
        running = [case for case in singles if surface not in case.not_expressible]
        assert {case.request["selection_mode"] for case in running} == modes, surface


def test_batch_rows_run_on_every_surface_or_saying_why() -> None:
    batches = [case for case in CASES if case.questions]
    assert len(batches) >= 3
    for case in batches:
        assert case.not_yet == {}, case.id
        assert "web" not in case.not_expressible, case.id
        assert "app" not in case.not_expressible, case.id
    for surface in ("elicitation", "terminal", "terminal_handoff", "telegram", "slack"):
        assert any(surface not in case.not_expressible for case in batches), surface
    for surface in ("terminal", "telegram", "slack"):
        in_order = [case for case in batches if surface not in case.not_expressible]
        endings = {type(case.actions[-1]).__name__ for case in in_order}
        assert endings == {"Submit", "Cancel", "Wait"}, f"{surface}: sends, cancels, times out"
