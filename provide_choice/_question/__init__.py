"""The live question: what every surface shares about a question between its asking and its end.

It sits under the local HTTP bridge, the history, the alerts and the transports, and above the
settings file and the contract only: a transport shows a `PendingQuestion` and finishes it; the
history records it; the server creates it in a `QuestionRegistry` and waits on it. Behind the
registry, a `QuestionStore` several servers share (`_redis_store.RedisStore`) keeps them where every
instance finds them.

The parts: `_interaction` (what was asked, by whom, until when), `_pending` (`PendingQuestion`),
`_followers` (who waits for it, and who follows its changes), `_endings` (a batch ending with the
answers kept), `_registry` (`QuestionRegistry`, its recorders, `SettledQuestion`), `_store` (the
`QuestionStore` protocol and what it keeps), `_sharing` and `_writes` (one question's writes there,
in order, and what it hears back), `_redis_store` (`RedisStore`, imported only with `--redis`) and
`_redis_events` (what its instances say to each other, and whether Redis answers).
"""

from provide_choice._question._interaction import (
    AgentClient,
    Interaction,
    LiveQuestion,
    TransportError,
    effective_timeout,
)
from provide_choice._question._pending import PendingQuestion
from provide_choice._question._registry import (
    ID_BYTES,
    QuestionRecorder,
    QuestionRegistry,
    Recorders,
    SettledQuestion,
)
from provide_choice._question._store import QuestionStore, StoreUnavailable

__all__ = [
    "ID_BYTES",
    "AgentClient",
    "Interaction",
    "LiveQuestion",
    "PendingQuestion",
    "QuestionRecorder",
    "QuestionRegistry",
    "QuestionStore",
    "Recorders",
    "SettledQuestion",
    "StoreUnavailable",
    "TransportError",
    "effective_timeout",
]
