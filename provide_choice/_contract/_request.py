"""The `provide_choice` request: what an agent may ask, and every reason a request is refused.

Validation is complete before anything is shown: the agent gets one error listing every problem (each
naming the field and what is allowed), not a fix-one-retry-one loop. Field checks come from the
pydantic model (worded by `present_choices.describe_errors`); rules that relate fields to each other
(limits against options, defaults against limits, ...) are checked on every field that is itself valid,
so a wrong type in one field does not hide a broken rule elsewhere.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from contextlib import suppress
from typing import Annotated, Any, Literal, NamedTuple

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationError,
    create_model,
    model_validator,
)
from pydantic.fields import FieldInfo

from present_choices import ChoiceOption, ChoicesError, describe_errors
from present_choices._schema import Label, Value, quote, quote_all
from provide_choice._contract._transport_table import RequestedTransport

SelectionMode = Literal["single", "multi", "text_input", "hybrid"]

MODES_WITH_PLACEHOLDER: tuple[SelectionMode, ...] = ("text_input", "hybrid")
MINIMUM_OPTIONS: dict[SelectionMode, int] = {"single": 2, "multi": 2, "hybrid": 1, "text_input": 0}
DEFAULT_TIMEOUT_SECONDS = 300
LONE_SURROGATE = re.compile("[\ud800-\udfff]")
"""What a str may hold but no text is: undecodable bytes kept by a terminal, `\\ud800` in JSON."""

Title = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]
PromptText = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=4000)]
Description = Annotated[str, StringConstraints(strip_whitespace=True, max_length=500)]
Placeholder = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=500)]
PREVIEW_LIMIT = 4000
Preview = Annotated[str, StringConstraints(min_length=1, max_length=PREVIEW_LIMIT)]
"""Markdown kept as written (a diff's leading spaces matter)."""


class ProvideChoiceOption(ChoiceOption):
    """A `present_choices` option whose value is called `id` and comes back in `selected_ids`."""

    label: Label = Field(description="What the person reads: a few words.")
    value: Value = Field(
        alias="id", description="Stable identifier of the option, returned in selected_ids."
    )
    description: Description | None = Field(
        default=None, description="One line shown under the label: consequences, trade-offs."
    )
    recommended: bool = Field(
        default=False, description="Marks the option you recommend; at least one must be true."
    )
    preview: Preview | None = Field(
        default=None,
        description=(
            "Markdown shown beside the list while this option is focused or chosen: what it "
            "means (a diff, a config snippet, a table); at most 4000 characters."
        ),
        # An option without a preview reads as it did before previews existed (history, hand-off).
        exclude_if=lambda preview: preview is None,
    )

    @property
    def id(self) -> str:
        return self.value


class SelectionLimits(NamedTuple):
    """How many options a submitted answer may hold, after the mode's defaults are applied."""

    minimum: int
    maximum: int


class ProvideChoiceRequest(BaseModel):
    """One question for a person, as the agent sends it in the `provide_choice` tool arguments."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    title: Title = Field(description="Short heading of the question.")
    prompt: PromptText = Field(
        description="The task context and the reason a choice is needed, in a few sentences."
    )
    selection_mode: SelectionMode = Field(
        description=(
            "single: pick one; multi: pick several; text_input: type an answer (no options); "
            "hybrid: pick from options or type an own answer."
        )
    )
    options: list[ProvideChoiceOption] | None = Field(
        default=None,
        description=(
            "The choices: at least 2 for single and multi, at least 1 for hybrid, none for "
            "text_input. Ids unique; at least one option has recommended: true."
        ),
    )
    placeholder: Placeholder | None = Field(
        default=None,
        description="text_input and hybrid only: a suggested answer; submitting an empty field uses it.",
    )
    placeholder_visible: bool = Field(
        default=True,
        description="Show the placeholder in the text field (the person may override).",
    )
    default_selection_ids: list[str] = Field(
        default_factory=list,
        description="Option ids selected at the start (at most 1 for single), within the limits.",
    )
    min_selections: int | None = Field(
        default=None,
        ge=0,
        description="Fewest options an answer may hold. Default: 1 (single, multi), 0 (hybrid).",
    )
    max_selections: int | None = Field(
        default=None,
        ge=0,
        description="Most options an answer may hold. Default: 1 (single, hybrid), all (multi).",
    )
    single_submit_mode: bool = Field(
        default=True,
        description="single: submit as soon as an option is chosen (true) or choose then confirm (false).",
    )
    allow_annotations: bool = Field(
        default=True, description="Let the person add a note to any option and an overall note."
    )
    allow_cancel: bool = Field(
        default=True, description="Accepted and ignored: the person can always cancel."
    )
    timeout_seconds: int = Field(
        default=DEFAULT_TIMEOUT_SECONDS,
        ge=1,
        description="Seconds to wait for an answer before returning action_status 'timeout'.",
    )
    transport: RequestedTransport | None = Field(
        default=None,
        description=(
            "Where to ask: terminal (the server's own, or one you open: see "
            "pending_terminal_launch), web (a local page in the browser), elicitation (the MCP "
            "client's own dialog; the page where the client has none), or omit to let the server "
            "choose."
        ),
    )

    @model_validator(mode="after")
    def _check_rules(self) -> ProvideChoiceRequest:
        # Direct construction must be as strict as `parse_request`, which reports these itself.
        problems = rule_problems(dict(self), invalid_fields=frozenset())
        if problems:
            raise ValueError("; ".join(problems))
        return self

    @property
    def option_ids(self) -> list[str]:
        return [option.id for option in self.options or ()]

    @property
    def limits(self) -> SelectionLimits:
        return selection_limits(
            self.selection_mode, len(self.options or ()), self.min_selections, self.max_selections
        )

    def labels(self, ids: Iterable[str]) -> list[str]:
        """Labels of the given option ids, in the order the options were given."""
        wanted = set(ids)
        return [option.label for option in self.options or () if option.id in wanted]


REQUEST_FIELDS = tuple(ProvideChoiceRequest.model_fields)


def selection_limits(
    mode: SelectionMode, option_count: int, minimum: int | None, maximum: int | None
) -> SelectionLimits:
    """The limits a request states, with the mode's defaults for the ones it leaves out."""
    default_minimum, default_maximum = {
        "single": (1, 1),
        "multi": (1, option_count),
        "hybrid": (0, 1),
        "text_input": (0, 0),
    }[mode]
    return SelectionLimits(
        default_minimum if minimum is None else minimum,
        default_maximum if maximum is None else maximum,
    )


def limits_for(request: ProvideChoiceRequest, own_answer: bool) -> SelectionLimits:
    """How many options an answer may select, with or without an own answer: in hybrid mode an own
    answer (typed, or the placeholder) stands in for picking, so only the maximum applies then."""
    if own_answer and request.selection_mode == "hybrid":
        return SelectionLimits(0, request.limits.maximum)
    return request.limits


def parse_request(data: object) -> ProvideChoiceRequest:
    """Validate raw arguments, raising `ChoicesError` that lists every problem found."""
    if isinstance(data, Mapping):
        data = _decode_json_lists(data)
    try:
        return ProvideChoiceRequest.model_validate(data)
    except ValidationError as error:
        raise ChoicesError(_all_problems(data, error)) from None


def _decode_json_lists(data: Mapping[str, Any]) -> dict[str, Any]:
    """Some MCP clients send list arguments as JSON text; accept that, as the SDK does for tools."""
    decoded = dict(data)
    for key in ("options", "default_selection_ids"):
        value = decoded.get(key)
        if isinstance(value, str) and value.lstrip().startswith("["):
            # Undecodable text stays as it is, so validation reports it as "must be a list".
            with suppress(ValueError):
                decoded[key] = json.loads(value)
    return decoded


def _all_problems(data: object, error: ValidationError) -> list[str]:
    sentences = describe(error)
    if not isinstance(data, Mapping):
        return sentences
    details = error.errors(include_url=False)
    # A location-less error is the model's rule check, which only runs when every field is
    # valid; the rules are re-run below on the valid fields in every case, so it is left out here.
    problems = [
        sentence for detail, sentence in zip(details, sentences, strict=True) if detail["loc"]
    ]
    invalid = frozenset(str(detail["loc"][0]) for detail in details if detail["loc"])
    return problems + rule_problems(_valid_fields(data, invalid), invalid)


def _valid_fields(data: Mapping[str, Any], invalid: frozenset[str]) -> dict[str, Any]:
    """The fields that passed their own checks, validated (absent ones None), for the rules."""
    valid = {
        key: value for key, value in data.items() if key in REQUEST_FIELDS and key not in invalid
    }
    return dict(_PartialRequest.model_validate(valid))


def _optional(field: FieldInfo) -> Any:
    """The field's type and constraints, made optional so any subset of fields validates."""
    annotation: Any = field.annotation
    if field.metadata:
        annotation = Annotated[(annotation, *field.metadata)]
    return annotation | None


_PartialRequest: type[BaseModel] = create_model(
    "_PartialRequest",
    **{  # type: ignore[call-overload]
        name: (_optional(field), None) for name, field in ProvideChoiceRequest.model_fields.items()
    },
)


def rule_problems(fields: Mapping[str, Any], invalid_fields: frozenset[str]) -> list[str]:
    """Problems between fields. `fields` holds validated values (None when absent or invalid);
    rules that need a field listed in `invalid_fields` are skipped, its own problem was reported."""
    mode: SelectionMode | None = fields.get("selection_mode")
    options: list[ProvideChoiceOption] = fields.get("options") or []
    problems = [] if "options" in invalid_fields else _option_problems(mode, options)
    if (
        mode is not None
        and fields.get("placeholder") is not None
        and mode not in MODES_WITH_PLACEHOLDER
    ):
        problems.append(f"placeholder is only allowed for text_input and hybrid, not {mode}")
    if mode is None or "options" in invalid_fields:
        return problems + _inverted_limits(fields)
    limits: SelectionLimits | None = None
    if not {"min_selections", "max_selections"} & invalid_fields:
        minimum, maximum = fields.get("min_selections"), fields.get("max_selections")
        limit_problems = _limit_problems(mode, len(options), minimum, maximum)
        problems += limit_problems
        if not limit_problems:
            limits = selection_limits(mode, len(options), minimum, maximum)
    if "default_selection_ids" not in invalid_fields:
        defaults: list[str] = fields.get("default_selection_ids") or []
        problems += _default_problems(mode, options, defaults, limits)
    return problems


def _option_problems(mode: SelectionMode | None, options: list[ProvideChoiceOption]) -> list[str]:
    problems = []
    if mode == "text_input" and options:
        problems.append(
            "options is not allowed for text_input (the person types the answer); "
            "remove options or use selection_mode hybrid"
        )
    elif mode is not None and len(options) < MINIMUM_OPTIONS[mode]:
        needed = MINIMUM_OPTIONS[mode]
        items = "item" if needed == 1 else "items"
        problems.append(
            f"options must have at least {needed} {items} for {mode}, got {len(options)}"
        )
    repeated = _repeated(option.id for option in options)
    if repeated:
        problems.append(f"options ids must be unique, repeated: {quote_all(repeated)}")
    if options and mode != "text_input" and not any(option.recommended for option in options):
        problems.append("options must mark at least one option with recommended: true")
    return problems


def _inverted_limits(fields: Mapping[str, Any]) -> list[str]:
    """The one limit rule that holds whatever the mode and options are."""
    minimum, maximum = fields.get("min_selections"), fields.get("max_selections")
    if minimum is None or maximum is None or minimum <= maximum:
        return []
    return [f"min_selections ({minimum}) must not be greater than max_selections ({maximum})"]


def _limit_problems(
    mode: SelectionMode, option_count: int, given_minimum: int | None, given_maximum: int | None
) -> list[str]:
    given = (("min_selections", given_minimum), ("max_selections", given_maximum))
    if mode == "text_input":
        return [
            f"{name} must be 0 or left out for text_input (it has no options), got {value}"
            for name, value in given
            if value
        ]
    if mode == "single":
        ceiling, allowed = 1, "1 for single"
    else:
        ceiling, allowed = option_count, f"the number of options ({option_count})"
    problems = [
        f"{name} must be at most {allowed}, got {value}"
        for name, value in given
        if value is not None and value > ceiling
    ]
    if given_maximum == 0:
        problems.append(f"max_selections must be at least 1 for {mode}, got 0")
    minimum, maximum = selection_limits(mode, option_count, given_minimum, given_maximum)
    if not problems and minimum > maximum:
        implied = "" if given_maximum is not None else f", the default for {mode}"
        problems.append(
            f"min_selections ({minimum}) must not be greater than max_selections ({maximum}{implied})"
        )
    return problems


def _default_problems(
    mode: SelectionMode,
    options: list[ProvideChoiceOption],
    defaults: list[str],
    limits: SelectionLimits | None,
) -> list[str]:
    if not defaults:
        return []
    if mode == "text_input":
        return ["default_selection_ids is not allowed for text_input (it has no options)"]
    ids = [option.id for option in options]
    problems = [
        f"default_selection_ids[{index}] {quote(default)} is not an option id; allowed: "
        f"{quote_all(ids)}"
        for index, default in enumerate(defaults)
        if default not in ids
    ]
    repeated = _repeated(defaults)
    if repeated:
        problems.append(
            f"default_selection_ids must not repeat an id, repeated: {quote_all(repeated)}"
        )
    if mode == "single" and len(defaults) > 1:
        problems.append(
            f"default_selection_ids may hold at most 1 id for single, got {len(defaults)}"
        )
    elif limits is not None and not limits.minimum <= len(defaults) <= limits.maximum:
        problems.append(
            f"default_selection_ids must hold {id_count(limits.minimum, limits.maximum)} to fit "
            "min_selections and "
            f"max_selections, got {len(defaults)}"
        )
    return problems


def describe(error: ValidationError) -> list[str]:
    """`present_choices.describe_errors` for this request: unknown fields list the allowed ones."""
    return describe_errors(error, ProvideChoiceRequest)


def _repeated(values: Iterable[str]) -> list[str]:
    return [value for value, count in Counter(values).items() if count > 1]


def id_count(minimum: int, maximum: int) -> str:
    """How many ids a list must hold, in words: "1 id", "2 ids", "1 to 3 ids"."""
    if minimum == maximum:
        return f"{minimum} id" + ("" if minimum == 1 else "s")
    return f"{minimum} to {maximum} ids"
