"""The most disjoint zero-sum groups, the counting heart of settle-up."""

from __future__ import annotations

import random
import re
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chouette.ledger import (
    EXACT_LIMIT,
    LedgerError,
    most_zero_sum_masks,
    partition_zero_sum,
)


def _is_partition_into_zero_sum_groups(values, groups):
    members = sorted(index for group in groups for index in group)
    assert members == list(range(len(values)))
    for group in groups:
        assert group and sum(values[index] for index in group) == 0


def _exhaustive_most_groups(values):
    """Every subset's sum, then the most zero-sum prefixes over every ordering (a DP)."""
    sums = [0]
    for value in values:
        sums += [total + value for total in sums]
    most = [0] * len(sums)
    for mask in range(1, len(sums)):
        most[mask] = max(most[mask & ~(1 << i)] for i in range(len(values)) if mask >> i & 1) + (
            sums[mask] == 0
        )
    return most[-1]


@st.composite
def zero_sum_values(draw, max_size=10):
    size = draw(st.integers(1, max_size))
    high = draw(st.sampled_from([2, 4, 9, 30, 10**9]))
    values = draw(st.lists(st.integers(-high, high).filter(bool), min_size=size, max_size=size))
    if sum(values):
        values.append(-sum(values))
    return values


@settings(max_examples=400, deadline=None)
@given(zero_sum_values())
def test_exact_masks_match_the_exhaustive_count_even_with_opposites(values):
    masks = most_zero_sum_masks(values)
    assert len(masks) == _exhaustive_most_groups(values)
    groups = [tuple(i for i in range(len(values)) if mask >> i & 1) for mask in masks]
    _is_partition_into_zero_sum_groups(values, groups)


@settings(max_examples=400, deadline=None)
@given(zero_sum_values())
def test_partition_is_the_most_zero_sum_groups(values):
    groups = partition_zero_sum(values)
    assert len(groups) == _exhaustive_most_groups(values)
    _is_partition_into_zero_sum_groups(values, groups)
    assert groups == sorted(groups)


@st.composite
def values_with_opposites(draw):
    """Zero-sum values that contain exact opposites, among small values with many coincidences."""
    pairs = draw(st.lists(st.integers(1, 6), min_size=1, max_size=3))
    rest = draw(st.lists(st.integers(-6, 6).filter(bool), max_size=6))
    values = pairs + [-value for value in pairs] + rest
    if sum(values):
        values.append(-sum(values))
    return draw(st.permutations(values))


@settings(max_examples=300, deadline=None)
@given(values_with_opposites())
def test_pairing_exact_opposites_first_never_costs_a_group(values):
    # Exchange argument in the partition module's docstring; checked here against every subset.
    assert len(partition_zero_sum(values)) == _exhaustive_most_groups(values)


def test_exact_opposites_are_paired_lowest_indices_first():
    assert partition_zero_sum([5, -5, 5, -5, 3, -1, -2]) == [(0, 1), (2, 3), (4, 5, 6)]


def test_values_without_a_proper_zero_sum_subset_form_one_group():
    assert partition_zero_sum([1, 2, 4, 8, -15]) == [(0, 1, 2, 3, 4)]
    assert most_zero_sum_masks([1, 2, 4, 8, -15]) == [0b11111]


def test_exact_limit_is_twenty():
    assert EXACT_LIMIT == 20


def test_twenty_values_after_pairing_are_still_exact_beyond_twenty_players():
    rng = random.Random(4)
    pairs = [rng.randint(1, 10**6) for _ in range(10)]
    values = [1, 2, 4, 8, -15] * 4 + pairs + [-value for value in pairs]
    groups = partition_zero_sum(values)
    _is_partition_into_zero_sum_groups(values, groups)
    assert len(groups) == 10 + 4


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ([3, 0, -3], "value 1 must be a non-zero int, not 0"),
        ([3, -3.0], "value 1 must be a non-zero int, not -3.0"),
        ([True, -1], "value 0 must be a non-zero int, not True"),
        ([3, -2], "values sum to 1, not 0"),
    ],
)
def test_partition_refuses_zero_non_int_and_unbalanced_values(values, message):
    with pytest.raises(LedgerError, match=re.escape(message)) as error:
        partition_zero_sum(values)
    assert str(error.value) == message
    with pytest.raises(LedgerError, match=re.escape(message)) as error:
        most_zero_sum_masks(values)
    assert str(error.value) == message


def test_the_exact_masks_refuse_more_than_the_limit():
    values = [1] * 20 + [-21]
    with pytest.raises(LedgerError, match="takes at most 20 values") as error:
        most_zero_sum_masks(values)
    assert str(error.value) == "the exact partition takes at most 20 values, got 21"


def test_empty_values_have_no_groups():
    assert partition_zero_sum([]) == []
    assert most_zero_sum_masks([]) == []


@pytest.mark.parametrize("size", [3, 4, 5, 6, 7, 8])
def test_small_sizes_across_the_byte_aligned_split(size):
    # Below six values the family is built directly, from six on by meeting in the middle.
    for chosen in combinations(range(1, 9), size - 1):
        values = list(chosen) + [-sum(chosen)]
        assert len(most_zero_sum_masks(values)) == _exhaustive_most_groups(values)
