"""How a question ends when the person stops half-way through a batch: with what they answered."""

from __future__ import annotations

from provide_choice._contract._outcomes import Answered, Cancelled, Ending, TimedOut
from provide_choice._contract._settings import TimeoutAction
from provide_choice._question._interaction import Interaction


def keeps(interaction: Interaction, outcome: Ending) -> bool:
    """Whether `outcome` keeps the answers given so far: a batch cancelled or timed out."""
    return interaction.batch is not None and isinstance(outcome, Cancelled | TimedOut)


def final(
    interaction: Interaction, outcome: Ending, kept: dict[str, Answered], rest: TimeoutAction
) -> Ending:
    """How a question ends: when it `keeps` them, with the answers given so far, its other
    questions following `rest`, the timeout action in force then."""
    if not keeps(interaction, outcome):
        return outcome
    if isinstance(outcome, Cancelled):
        return outcome.model_copy(update={"kept": dict(kept), "rest": rest})
    return outcome.model_copy(update={"kept": dict(kept)})
