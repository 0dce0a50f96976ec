"""Tests of kafka.common.utils.state_enum through the two enums built on it."""

from __future__ import annotations

import pytest

from kafka.clients.admin.transaction_state import TransactionState
from kafka.common.consumer_group_state import ConsumerGroupState
from kafka.common.utils.state_enum import StateEnum


@pytest.mark.parametrize(
    ("enum_class", "name", "member"),
    [
        (ConsumerGroupState, "CompletingRebalance", ConsumerGroupState.COMPLETING_REBALANCE),
        (ConsumerGroupState, "Unknown", ConsumerGroupState.UNKNOWN),
        (ConsumerGroupState, "Assigning", ConsumerGroupState.UNKNOWN),
        (ConsumerGroupState, "stable", ConsumerGroupState.UNKNOWN),
        (TransactionState, "PrepareEpochFence", TransactionState.PREPARE_EPOCH_FENCE),
        (TransactionState, "CompleteCommit", TransactionState.COMPLETE_COMMIT),
        (TransactionState, "Dead", TransactionState.UNKNOWN),
        (TransactionState, "", TransactionState.UNKNOWN),
    ],
)
def test_parse_is_exact_and_unknown_names_are_unknown(
    enum_class: type[StateEnum], name: str, member: StateEnum
) -> None:
    """A wire name parses to its state (case matters, as Java's equals); any other name to UNKNOWN."""
    assert enum_class.parse(name) is member


def test_str_is_the_wire_name() -> None:
    """str() of a state is its name on the wire, as Java's toString."""
    assert str(ConsumerGroupState.PREPARING_REBALANCE) == "PreparingRebalance"
    assert str(TransactionState.ONGOING) == "Ongoing"
    assert f"{TransactionState.UNKNOWN}" == "Unknown"
