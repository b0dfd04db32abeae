"""The live question: what every surface shares about a question between its asking and its end.

It sits under the local HTTP parts, the history and the transports, and above the contract only:
a transport shows a `PendingQuestion` and finishes it; the history records it; the server creates
it in a `QuestionRegistry` and waits on it.
"""

from provide_choice._question._interaction import (
    AgentClient,
    Interaction,
    LiveQuestion,
    TransportError,
    effective_timeout,
)
from provide_choice._question._pending import (
    ID_BYTES,
    PendingQuestion,
    QuestionRecorder,
    QuestionRegistry,
    Recorders,
    SettledQuestion,
)

__all__ = [
    "ID_BYTES",
    "AgentClient",
    "Interaction",
    "LiveQuestion",
    "PendingQuestion",
    "QuestionRecorder",
    "QuestionRegistry",
    "Recorders",
    "SettledQuestion",
    "TransportError",
    "effective_timeout",
]
