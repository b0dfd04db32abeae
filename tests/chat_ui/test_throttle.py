"""`Throttle`: however often a render is asked for, it runs at most once per interval, and the last
ask is never dropped."""

import asyncio
import time

from waiting import until

from chat_ui._session._throttle import Throttle


async def test_a_burst_runs_once_at_once_and_once_more_after_the_interval() -> None:
    seen: list[int] = []
    state = 0
    throttle = Throttle(lambda: seen.append(state), interval=0.05)
    for state in range(1, 101):  # noqa: B007 (the action reads it)
        throttle.request()
    assert seen == [1], "the first ask runs at once"
    await until(lambda: len(seen) == 2, "one more run, after the interval")
    assert seen == [1, 100], "one more run, after the interval, sees the last state"
    await asyncio.sleep(0.1)  # a quiet interval (twice the throttle's) after that run
    throttle.request()
    assert seen == [1, 100, 100], "an ask after a quiet interval runs at once"


async def test_cancel_drops_the_scheduled_run() -> None:
    seen: list[str] = []
    throttle = Throttle(lambda: seen.append("run"), interval=0.05)
    throttle.request()
    throttle.request()
    throttle.cancel()
    await asyncio.sleep(0.1)
    assert seen == ["run"]


async def test_a_slow_action_waits_longer_so_it_never_takes_most_of_the_time() -> None:
    runs: list[float] = []

    def slow() -> None:
        runs.append(time.monotonic())
        time.sleep(0.03)

    throttle = Throttle(slow, interval=0.01, load_factor=4)
    throttle.request()
    throttle.request()
    await asyncio.sleep(0.3)
    assert len(runs) == 2
    assert runs[1] - runs[0] >= 0.15 - 0.005, "five times the 30 ms the run took"
