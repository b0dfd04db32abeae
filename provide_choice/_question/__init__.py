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

Each name below is loaded on first use: a terminal drawing a question it reaches over the bridge
(`choice-terminal`) names `LiveQuestion` and loads neither the registry nor the store.
"""

from typing import TYPE_CHECKING

from present_choices._lazy_names import lazy_names as _lazy_names

if TYPE_CHECKING:
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

_MODULES = {
    "AgentClient": "provide_choice._question._interaction",
    "ID_BYTES": "provide_choice._question._registry",
    "Interaction": "provide_choice._question._interaction",
    "LiveQuestion": "provide_choice._question._interaction",
    "PendingQuestion": "provide_choice._question._pending",
    "QuestionRecorder": "provide_choice._question._registry",
    "QuestionRegistry": "provide_choice._question._registry",
    "QuestionStore": "provide_choice._question._store",
    "Recorders": "provide_choice._question._registry",
    "SettledQuestion": "provide_choice._question._registry",
    "StoreUnavailable": "provide_choice._question._store",
    "TransportError": "provide_choice._question._interaction",
    "effective_timeout": "provide_choice._question._interaction",
}
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
__getattr__, __dir__ = _lazy_names(__name__, _MODULES, __all__)
