"""`RecommendedTransport`: a stand-in person who always takes the agent's recommendation, for
people testing their agents (as httpx ships `MockTransport`).

It answers at once, through the same meaning and checks as a person's answer on any surface: the
recommended options (a single choice takes the first; a minimum is met with the next options in
order, a maximum cuts the list), the suggested answer (placeholder) where the question takes text,
nothing else. A batch gets that answer for every question. A question with no such answer (text
without a suggested answer, and no `text_answer` set) is cancelled, saying why.
"""

from __future__ import annotations

from present_choices import ChoicesError
from present_choices._translation import N_
from provide_choice._contract._batch_meaning import BatchSubmission, batch_answer_from
from provide_choice._contract._meaning import Submission, answer_from
from provide_choice._contract._outcomes import Cancelled, Ending
from provide_choice._contract._presentation import shown_placeholder
from provide_choice._contract._request import MODES_WITH_PLACEHOLDER, ProvideChoiceRequest
from provide_choice._contract._settings import InteractionSettings
from provide_choice._contract._transport_table import TransportKind
from provide_choice._question import PendingQuestion
from provide_choice._transports._base import Caller, TransportSetup

NO_ANSWER = "RecommendedTransport has no answer to recommend"


class RecommendedTransport:
    """Answers every question with what the agent recommended. Register it and name it
    (`"transport": "recommended"`), or prefer it in the settings; `text_answer` is what it types
    where a question takes text and suggests nothing (None: it cancels such a question)."""

    kind = TransportKind(
        "recommended",
        N_("A stand-in that takes the recommended options"),
        preference=N_("A stand-in that takes the recommended options (for testing agents)"),
        inbox=N_("Answered by a stand-in for the person"),
        batches=True,
    )
    cancelled_with_the_call = True
    bounded_wait = True
    text_answer: str | None = None

    @classmethod
    def build(cls, setup: TransportSetup) -> RecommendedTransport:
        return cls()

    async def show(self, question: PendingQuestion, caller: Caller) -> None:
        question.finish(self.ending(question))

    def ending(self, question: PendingQuestion) -> Ending:
        """The recommended answer to the question (or batch) as asked, with its settings."""
        settings = question.settings
        batch = question.interaction.batch
        try:
            if batch is None:
                request = question.interaction.request
                return answer_from(self._submission(request, settings), request, settings)
            answers = {
                item.id: self._submission(item.request, settings) for item in batch.questions
            }
            return batch_answer_from(BatchSubmission(answers=answers), batch, settings)
        except ChoicesError as error:
            return Cancelled(detail=f"{NO_ANSWER} ({'; '.join(error.problems)})")

    def _submission(
        self, request: ProvideChoiceRequest, settings: InteractionSettings
    ) -> Submission:
        """What the stand-in does: choose the recommended options, leave the suggested answer."""
        options = request.options or []
        chosen = [option.id for option in options if option.recommended]
        if request.selection_mode == "single":
            chosen = chosen[:1]
        minimum, maximum = request.limits
        for option in options:
            if len(chosen) >= minimum:
                break
            if option.id not in chosen:
                chosen.append(option.id)
        chosen = [option.id for option in options if option.id in chosen][:maximum]
        suggested = shown_placeholder(request, settings)
        takes_text = request.selection_mode in MODES_WITH_PLACEHOLDER
        return Submission(
            selected_ids=chosen,
            custom_input=self.text_answer if takes_text and suggested is None else None,
            placeholder_shown=takes_text and suggested is not None,
        )
