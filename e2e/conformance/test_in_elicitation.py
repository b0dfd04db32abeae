"""The conformance table in the client's own dialog: `provide-choice serve` over stdio, the SDK's
client with an `elicitation_callback` that fills each form as the person's actions say, on the
2025-11-25 revision (`legacy`: `elicitation/create` during the call) and on 2026-07-28
(`input_required` and a retried call). One server per revision."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import mcp_types as types
import pytest
import pytest_asyncio
from cases import CASES
from conformance import (
    Action,
    Cancel,
    Case,
    Choose,
    In,
    LeaveTextEmpty,
    NoteOn,
    OverallNote,
    Submit,
    SubmitRefused,
    Toggle,
    Type,
    Wait,
    asked_on,
    assert_conforms,
    params,
    rounds,
    write_settings,
)
from mcp import Client
from mcp.client.session import ClientRequestContext
from mcp_servers import call, connected, held

pytestmark = pytest.mark.asyncio(loop_scope="module")

ASKED_AGAIN = "Your answer did not fit"
"""How the server's second form begins when the first answer was refused."""


class Form:
    """A form as a client draws it from the schema, its fields found by what they are, as a
    person finds them by sight: the single choice (`oneOf` arms), the multiple choice (an array),
    the note (titled as one), the text."""

    def __init__(self, schema: dict[str, Any]) -> None:
        self.properties: dict[str, dict[str, Any]] = schema["properties"]

    def defaults(self) -> dict[str, Any]:
        """What the client shows filled in before the person touches anything."""
        return {
            name: spec["default"] for name, spec in self.properties.items() if "default" in spec
        }

    def choice(self, option_id: str, several: bool) -> str:
        """The choice field (the multiple one when `several`) that offers this option."""
        name = self._field("the multiple choice" if several else "the single choice")
        spec = self.properties[name]
        arms = spec["items"]["anyOf"] if several else spec["oneOf"]
        assert option_id in [arm["const"] for arm in arms], f"{option_id!r} is not offered: {spec}"
        return name

    def text(self) -> str:
        return self._field("the text")

    def note(self) -> str:
        return self._field("the note")

    def _field(self, kind: str) -> str:
        found = [name for name, spec in self.properties.items() if _kind(spec) == kind]
        assert found, f"the form has no field for {kind}: {self.properties}"
        return found[0]


class BatchQuestionForm(Form):
    """One question's fields in a batch's form: named by the question's id (a hybrid's own
    answer beside it, `<id>.own_answer`), as the documentation says."""

    def __init__(self, form: Form, question_id: str, case: Case) -> None:
        self.properties = form.properties
        self.question_id = question_id
        self.mode = case.question(question_id)["selection_mode"]

    def choice(self, option_id: str, several: bool) -> str:
        spec = self.properties[self.question_id]
        arms = spec["items"]["anyOf"] if several else spec["oneOf"]
        assert option_id in [arm["const"] for arm in arms], f"{option_id!r} is not offered: {spec}"
        return self.question_id

    def text(self) -> str:
        own = self.question_id + ".own_answer"
        name = own if self.mode == "hybrid" else self.question_id
        assert name in self.properties, f"the form has no field {name!r}: {self.properties}"
        return name


def _kind(spec: dict[str, Any]) -> str:
    if "oneOf" in spec:
        return "the single choice"
    if spec.get("type") == "array":
        return "the multiple choice"
    if "note" in spec.get("title", "").lower():
        return "the note"
    return "the text"


class FormPerson:
    """Fills each form the client is asked to show with the next round of the person's actions
    (the script cut after each Submit, SubmitRefused, Cancel and Wait); what was filled stays
    filled when the same form is shown again."""

    def __init__(self, case: Case) -> None:
        self.case = case
        self.rounds = rounds(case.actions)
        self.content: dict[str, Any] | None = None
        self.refused = False

    async def __call__(
        self, context: ClientRequestContext, params: types.ElicitRequestParams
    ) -> types.ElicitResult:
        assert isinstance(params, types.ElicitRequestFormParams), params
        assert self.rounds, f"a form was shown after the person's last action: {params.message}"
        assert params.message.startswith(ASKED_AGAIN) == self.refused, params.message
        form = Form(params.requested_schema)
        if self.content is None:
            self.content = form.defaults()
        actions = self.rounds.pop(0)
        for action in actions:
            self._fill(form, action)
        ending = actions[-1]
        self.refused = isinstance(ending, SubmitRefused)
        if isinstance(ending, Cancel):
            return types.ElicitResult(action="cancel")
        if isinstance(ending, Wait):  # past the deadline; the server stops waiting for it
            await asyncio.sleep(self.case.request["timeout_seconds"] + 1)
        return types.ElicitResult(action="accept", content=dict(self.content))

    def _fill(self, form: Form, action: Action) -> None:
        content = self.content
        assert content is not None
        match action:
            case In(question_id, inner):
                self._fill(BatchQuestionForm(form, question_id, self.case), inner)
            case Choose(option_id):
                content[form.choice(option_id, several=False)] = option_id
            case Toggle(option_id):
                field = form.choice(option_id, several=True)
                chosen = list(content.get(field, []))
                content[field] = (
                    [chosen_id for chosen_id in chosen if chosen_id != option_id]
                    if option_id in chosen
                    else [*chosen, option_id]
                )
            case Type(text):
                content[form.text()] = text
            case OverallNote(text):
                content[form.note()] = text
            case NoteOn():
                raise AssertionError("a form has no notes on single options")
            case LeaveTextEmpty() | Submit() | SubmitRefused() | Cancel() | Wait():
                pass

    def assert_done(self) -> None:
        assert self.rounds == [], "the person still had something to do when the call returned"


class Dialog:
    """The client's elicitation callback: hands each form to the current case's person."""

    def __init__(self) -> None:
        self.person: FormPerson | None = None

    async def __call__(
        self, context: ClientRequestContext, params: types.ElicitRequestParams
    ) -> types.ElicitResult:
        assert self.person is not None, "a form was shown outside a case"
        return await self.person(context, params)


@pytest_asyncio.fixture(scope="module", loop_scope="module", params=["legacy", "2026-07-28"])
async def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[tuple[Path, Client, Dialog]]:
    home = tmp_path_factory.mktemp("conformance-dialog")
    dialog = Dialog()
    connection = connected(
        "stdio", home, mode=request.param, elicitation_callback=dialog, read_timeout_seconds=60
    )
    async with held(connection) as client:
        yield home, client, dialog


@pytest.mark.parametrize("case", params(CASES, "elicitation"))
async def test_the_clients_dialog_gives_the_expected_response(
    case: Case, server: tuple[Path, Client, Dialog]
) -> None:
    home, client, dialog = server
    write_settings(home, case)
    dialog.person = person = FormPerson(case)
    try:
        response = await call(client, asked_on(case, "elicitation"))
    finally:
        dialog.person = None
    person.assert_done()
    assert_conforms(case, "elicitation", response)
