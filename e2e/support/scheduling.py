"""How `make e2e` hands its test files to its processes: pytest-xdist's `--dist loadfile`, with one
process kept apart for the files that wait out real time.

Those files (`REAL_TIME_FILES`) spend their minute and a half mostly asleep, waiting as a client
waits. In a process of their own, taken by no other file, the processes that work keep both cores
busy while they wait: run among the others (`-n 3`), a quarter of both cores went unused for their
first 90 s, by `vmstat`. Once they are done that process stops, so the rest of the run has as many
working processes as before (`E2E_WORKERS` counts the working ones and this one). Where that process
is gone before its files ran (it crashed), any process takes them.
"""

from __future__ import annotations

import pytest
from xdist.remote import Producer
from xdist.scheduler import LoadFileScheduling
from xdist.workermanage import WorkerController

REAL_TIME_FILES = frozenset({"e2e/web/test_long_waits.py"})
"""The test files that wait out real time (a client's 60 s limit) rather than a clock the test
moves: the e2e run starts them first, in a process of their own."""


def waits_in_real_time(path: str) -> bool:
    """Whether the test file at `path` (relative to the repository, as in a test's id) waits out
    real time."""
    return path in REAL_TIME_FILES


class RealTimeApart(LoadFileScheduling):
    """`--dist loadfile`, where the first process takes the files that wait in real time and no
    other file, then stops."""

    def __init__(self, config: pytest.Config, log: Producer | None = None) -> None:
        super().__init__(config, log)
        self.apart: WorkerController | None = None

    def schedule(self) -> None:
        if self.collection is None and len(self.nodes) > 1:
            collected = next(iter(self.registered_collections.values()))
            if any(waits_in_real_time(self._split_scope(nodeid)) for nodeid in collected):
                self.apart = self.nodes[0]
        super().schedule()

    def remove_node(self, node: WorkerController) -> str | None:
        if node is self.apart:
            self.apart = None  # what it had not run goes back to the queue, for any process
        return super().remove_node(node)

    def _takes(self, node: WorkerController, scope: str) -> bool:
        if self.apart is None:
            return True
        return (node is self.apart) == waits_in_real_time(scope)  # it those, the others the rest

    def _reschedule(self, node: WorkerController) -> None:
        if node.shutting_down:
            return
        if not any(self._takes(node, scope) for scope in self.workqueue):
            node.shutdown()  # it ends the tests it has, then stops
            return
        if self._pending_of(self.assigned_work[node]) > 2:
            return
        self._assign_work_unit(node)

    def _assign_work_unit(self, node: WorkerController) -> None:
        scope = next((scope for scope in self.workqueue if self._takes(node, scope)), None)
        if scope is None:
            node.shutdown()
            return
        self.workqueue.move_to_end(scope, last=False)  # the unit the queue hands out next
        super()._assign_work_unit(node)
