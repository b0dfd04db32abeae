"""The option model shared by every surface: a question and 2 to 4 labelled options.

`provide_choice` builds its richer options on `ChoiceOption`, so what an option *is* (a label a person
reads and a value an agent receives) is defined once, here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Annotated, Any, get_args

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationError,
    field_validator,
)
from pydantic_core import ErrorDetails

MIN_OPTIONS = 2
MAX_OPTIONS = 4
QUESTION_MAX_LENGTH = 500
LABEL_MAX_LENGTH = 120
VALUE_MAX_LENGTH = 500
CONTEXT_MAX_LENGTH = 2000

Question = Annotated[
    str, StringConstraints(strip_whitespace=True, min_length=1, max_length=QUESTION_MAX_LENGTH)
]
Label = Annotated[
    str, StringConstraints(strip_whitespace=True, min_length=1, max_length=LABEL_MAX_LENGTH)
]
Value = Annotated[
    str, StringConstraints(strip_whitespace=True, min_length=1, max_length=VALUE_MAX_LENGTH)
]
Context = Annotated[str, StringConstraints(strip_whitespace=True, max_length=CONTEXT_MAX_LENGTH)]


class ChoicesError(ValueError):
    """Invalid choices input; `problems` names each field that was wrong and what is allowed."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("; ".join(problems))

    @classmethod
    def from_validation_error(
        cls, error: ValidationError, model: type[BaseModel] | None = None
    ) -> ChoicesError:
        return cls(describe_errors(error, model))


class ChoiceOption(BaseModel):
    """One answer a person can pick: `label` is what they read, `value` is what the agent receives."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    label: Label = Field(description="Short text shown on the button.")
    value: Value = Field(description="Text sent back as the user's message when this is chosen.")


class ChoicePrompt(BaseModel):
    """A question with 2 to 4 options, as carried inside a ```choices fence."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    question: Question = Field(description="The question to ask, one sentence.")
    options: list[ChoiceOption] = Field(
        description=f"{MIN_OPTIONS} to {MAX_OPTIONS} options; values must be unique.",
        min_length=MIN_OPTIONS,
        max_length=MAX_OPTIONS,
    )
    context: Context | None = Field(
        default=None, description="Optional background shown under the question."
    )

    @field_validator("options", mode="before")
    @classmethod
    def _check_count(cls, options: Any) -> Any:
        # Checked before the items so the count error reads plainly instead of pydantic's wording.
        if isinstance(options, list | tuple) and not MIN_OPTIONS <= len(options) <= MAX_OPTIONS:
            raise ValueError(f"must have {MIN_OPTIONS} to {MAX_OPTIONS} items, got {len(options)}")
        return options

    @field_validator("options")
    @classmethod
    def _check_unique_values(cls, options: list[ChoiceOption]) -> list[ChoiceOption]:
        repeated = [
            value for value, count in Counter(o.value for o in options).items() if count > 1
        ]
        if repeated:
            raise ValueError(f"values must be unique, repeated: {', '.join(map(repr, repeated))}")
        return options

    @field_validator("context")
    @classmethod
    def _blank_context_is_none(cls, context: str | None) -> str | None:
        return context or None


def describe_errors(error: ValidationError, model: type[BaseModel] | None = None) -> list[str]:
    """Turn pydantic errors into sentences that name the field and say what is allowed.

    With the `model` that was validated, an unknown field's sentence also lists the allowed ones.
    """
    return [_describe(detail, model) for detail in error.errors(include_url=False)]


QUOTE_LIMIT = 60
"""Characters of a value quoted back in an error: enough to recognise it, never the whole of a
megabyte sent by mistake."""
LIST_LIMIT = 10
"""Values of a list quoted back in an error."""


def quote(value: object) -> str:
    """`repr(value)`, cut to `QUOTE_LIMIT` characters with the full length said."""
    text = repr(value)
    if len(text) <= QUOTE_LIMIT:
        return text
    size = f"{len(value):,} characters" if isinstance(value, str | list | dict) else "cut"
    return f"{text[: QUOTE_LIMIT - 1]}… ({size})"


def quote_all(values: Iterable[object]) -> str:
    """The values quoted and comma-separated, the first `LIST_LIMIT` of them and how many more."""
    items = list(values)
    shown = ", ".join(quote(value) for value in items[:LIST_LIMIT])
    left_out = len(items) - LIST_LIMIT
    return shown + (f" and {left_out:,} more" if left_out > 0 else "")


def field_path(location: Iterable[str | int]) -> str:
    """`('options', 1, 'label')` -> `options[1].label`."""
    path = ""
    for part in location:
        path += f"[{part}]" if isinstance(part, int) else (f".{part}" if path else str(part))
    return path


def _describe(detail: ErrorDetails, model: type[BaseModel] | None) -> str:
    location = field_path(detail["loc"]) or "request"
    context = detail.get("ctx") or {}
    kind = detail["type"]
    given = detail.get("input")
    if kind == "missing":
        return f"{location} is required"
    if kind == "extra_forbidden":
        allowed = _allowed_fields(model, detail["loc"][:-1]) if model else None
        return f"{location} is not an allowed field" + (
            f"; allowed: {', '.join(allowed)}" if allowed else ""
        )
    if kind == "string_too_short":
        return f"{location} must not be empty"
    if kind == "string_too_long":
        size = len(given) if isinstance(given, str) else "more"
        return f"{location} must be at most {context['max_length']} characters, got {size}"
    if kind in ("too_short", "too_long"):
        low, high = context.get("min_length", 0), context.get("max_length")
        allowed_count = f"{low} to {high}" if high is not None else f"at least {low}"
        return f"{location} must have {allowed_count} items, got {context.get('actual_length')}"
    if kind == "string_type":
        return f"{location} must be a string, got {type_name(given)}"
    if kind == "list_type":
        return f"{location} must be a list, got {type_name(given)}"
    if kind in ("model_type", "dict_type", "model_attributes_type"):
        return f"{location} must be an object, got {type_name(given)}"
    if kind == "literal_error":
        return f"{location} must be one of {context['expected']}, got {quote(given)}"
    if kind == "greater_than_equal":
        return f"{location} must be at least {context['ge']}, got {quote(given)}"
    if kind == "less_than_equal":
        return f"{location} must be at most {context['le']}, got {quote(given)}"
    if kind in ("int_type", "int_parsing", "int_from_float"):
        return f"{location} must be a whole number, got {quote(given)}"
    if kind in ("bool_type", "bool_parsing"):
        return f"{location} must be true or false, got {quote(given)}"
    if kind in ("union_tag_invalid", "union_tag_not_found"):
        # A tagged union (`{"kind": ...}`): the problem is the tag field, not the whole object.
        location = field_path((*detail["loc"], context["discriminator"].strip("'")))
        if kind == "union_tag_not_found":
            return f"{location} is required"
        return f"{location} must be one of {context['expected_tags']}, got {quote(context['tag'])}"
    if kind == "value_error":
        return f"{location} {context.get('error', detail['msg'])}"
    return f"{location}: {detail['msg']}"


def _allowed_fields(model: type[BaseModel], location: tuple[str | int, ...]) -> list[str] | None:
    """The field names (as written in input) of the object at `location` inside `model`."""
    current: type[BaseModel] | None = model
    for part in location:
        if isinstance(part, int):
            continue  # a list index: the items are the model found for the list's field
        if current is None:
            return None
        field = next(
            (f for name, f in current.model_fields.items() if part in (name, f.alias)), None
        )
        current = _model_in(field.annotation) if field else None
    return (
        [field.alias or name for name, field in current.model_fields.items()] if current else None
    )


def _model_in(annotation: object) -> type[BaseModel] | None:
    """The model inside an annotation such as `Model`, `list[Model]` or `list[Model] | None`."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for argument in get_args(annotation):
        found = _model_in(argument)
        if found:
            return found
    return None


def type_name(value: object) -> str:
    names = {
        dict: "an object",
        list: "a list",
        str: "a string",
        bool: "a boolean",
        int: "a number",
        float: "a number",
        type(None): "null",
    }
    return names.get(type(value), type(value).__name__)
