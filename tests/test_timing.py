"""Timing helpers: what they measure and in which order they run things.

A fake clock stands in for time.perf_counter, so the tests check the logic and
never depend on how busy the machine is.
"""

import pytest

from bpe.measure import timing
from bpe.measure.timing import best_seconds, median_seconds, paired_ratio, seconds


@pytest.fixture
def clock(monkeypatch):
    """A clock that only moves when a run says how long it took: clock.spend(s)."""

    class Clock:
        now = 0.0

        def spend(self, s):
            self.now += s

    fake = Clock()
    monkeypatch.setattr(timing.time, "perf_counter", lambda: fake.now)
    return fake


def test_seconds_measures_the_call(clock):
    assert seconds(lambda: clock.spend(0.25)) == 0.25
    durations = iter([0.5, 0.125, 0.25])
    assert best_seconds(lambda: clock.spend(next(durations)), repeats=3) == 0.125
    durations = iter([0.5, 0.125, 0.25])
    assert median_seconds(lambda: clock.spend(next(durations)), repeats=3) == 0.25


def test_paired_ratio_alternates_and_compares(clock):
    order = []
    ratio, a, b = paired_ratio(
        lambda: (order.append("a"), clock.spend(4.0)),
        lambda: (order.append("b"), clock.spend(1.0)),
        pairs=4,
    )
    assert order == ["a", "b", "b", "a", "a", "b", "b", "a"]
    assert (ratio, a, b) == (4.0, 4.0, 1.0)
