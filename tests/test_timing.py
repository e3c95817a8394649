"""Timing helpers: what they measure and in which order they run things."""

import time

from bpe.book.timing import best_seconds, median_seconds, paired_ratio, seconds


def test_seconds_measures_the_call():
    assert 0.004 <= seconds(lambda: time.sleep(0.005)) < 1
    assert best_seconds(lambda: time.sleep(0.002), repeats=3) >= 0.002
    assert median_seconds(lambda: time.sleep(0.002), repeats=3) >= 0.002


def test_paired_ratio_alternates_and_compares():
    order = []
    ratio, a, b = paired_ratio(
        lambda: (order.append("a"), time.sleep(0.02)),
        lambda: (order.append("b"), time.sleep(0.005)),
        pairs=4,
    )
    assert order == ["a", "b", "b", "a", "a", "b", "b", "a"]
    assert ratio > 2 and a > b >= 0.005
