"""A budget for one resolution: a wall-clock deadline and caps, set by the caller around an engine call.

    with budget.limit(Budget(seconds=2.0, steps=2000)):
        ruling = api.resolve(scenario)

The engine checks it in the one place every resolution steps (`Trace.add`): past the deadline it raises
`OutOfTime` (a `StepLimit`), and the ruling ends with a step saying where and why it stopped, plus
`"stopped": {"reason", "at_step"}` (docs/scenario-format.md). Without a budget nothing changes (the CLI's
default). The caps on input (actions, cards, effects per card) are checked where a scenario is loaded.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, replace

from judge.engine.data.errors import StepLimit


class OutOfTime(StepLimit):
    """The resolution ran past its budget's deadline."""


@dataclass(frozen=True)
class Budget:
    seconds: float | None = 2.0   # wall clock for one engine call; None: no deadline
    steps: int = 2000             # steps of one resolution
    actions: int = 60             # queued actions in a scenario
    cards: int = 60               # custom cards in a scenario
    effects: int = 12             # effects (and statics) on one custom card
    started: float = field(default_factory=time.monotonic, compare=False)
    gone: Callable[[], bool] | None = field(default=None, compare=False)  # the client went away: stop

    def expired(self) -> bool:
        if self.gone is not None and self.gone():
            return True
        return self.seconds is not None and time.monotonic() - self.started > self.seconds

    def restarted(self) -> Budget:
        """The same limits, the clock starting now."""
        return replace(self, started=time.monotonic())


CURRENT: ContextVar[Budget | None] = ContextVar("judge_budget", default=None)


@contextmanager
def limit(budget: Budget) -> Iterator[Budget]:
    """Run the engine under `budget` (its clock starts on entering)."""
    running = budget.restarted()
    token = CURRENT.set(running)
    try:
        yield running
    finally:
        CURRENT.reset(token)


@contextmanager
def unlimited() -> Iterator[None]:
    """No budget inside (the project's own library; the last derivation of a ruling already stopped)."""
    token = CURRENT.set(None)
    try:
        yield
    finally:
        CURRENT.reset(token)


def grace(seconds: float, at_most: bool = False) -> None:
    """After a resolution, what follows in the same request (drawing its boards) keeps what is left
    of the budget, and at least `seconds` from now (`at_most`: exactly `seconds` from now): a request
    never runs past the deadline plus the grace."""
    running = CURRENT.get()
    if running is None or running.seconds is None:
        return
    left = running.seconds - (time.monotonic() - running.started)
    if left < seconds or at_most:
        CURRENT.set(replace(running.restarted(), seconds=seconds))


def reserve(seconds: float) -> None:
    """Keep `seconds` of the current budget for what follows the engine in the same request (drawing a
    ruling's boards): the engine's deadline comes that much earlier; the caps and the clock stay."""
    running = CURRENT.get()
    if running is None or running.seconds is None:
        return
    CURRENT.set(replace(running, seconds=max(running.seconds - seconds, running.seconds / 2)))


def check_time() -> None:
    """Called where the engine derives a board (the costliest thing it does, also while loading a
    scenario): raise OutOfTime when the current budget's deadline has passed."""
    running = CURRENT.get()
    if running is not None and running.expired():
        raise OutOfTime(f"the time budget of {running.seconds:g} s ran out")


def check(steps_taken: int) -> None:
    """Called by Trace.add before each step: raise when the current budget is spent."""
    running = CURRENT.get()
    if running is None:
        return
    if steps_taken >= running.steps:
        raise StepLimit(f"the cap of {running.steps} steps was reached")
    if running.expired():
        raise OutOfTime(f"the time budget of {running.seconds:g} s ran out after {steps_taken} steps")
