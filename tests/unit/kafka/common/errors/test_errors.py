"""The exceptions that carry data besides their message (Java's fields on those exception classes)."""

from __future__ import annotations

import pytest

from kafka.common.errors import (
    GroupAuthorizationException,
    InvalidTopicException,
    RecordDeserializationException,
    RecordTooLargeException,
    ThrottlingQuotaExceededException,
    TopicAuthorizationException,
)
from kafka.common.protocol.errors import Errors
from kafka.common.topic_partition import TopicPartition


def test_topic_authorization_exception_for_topics_names_and_carries_them() -> None:
    """for_topics puts the sorted topics in the message and keeps them as unauthorized_topics."""
    e = TopicAuthorizationException.for_topics(["b", "a"])
    assert str(e) == "Not authorized to access topics: [a, b]"
    assert e.unauthorized_topics == {"a", "b"}


def test_invalid_topic_exception_for_topics_names_and_carries_them() -> None:
    """for_topics puts the sorted topics in the message and keeps them as invalid_topics."""
    e = InvalidTopicException.for_topics({"x!", "y?"})
    assert str(e) == "Invalid topics: [x!, y?]"
    assert e.invalid_topics == {"x!", "y?"}


def test_group_authorization_exception_for_group_id() -> None:
    """for_group_id names the group in the message and keeps it as group_id."""
    e = GroupAuthorizationException.for_group_id("g1")
    assert str(e) == "Not authorized to access group: g1"
    assert e.group_id == "g1"


def test_throttling_quota_exceeded_exception_keeps_its_throttle_time() -> None:
    """The throttle time is a keyword argument; the message stays the only positional one."""
    e = ThrottlingQuotaExceededException("slow down", throttle_time_ms=250)
    assert e.args == ("slow down",)
    assert e.throttle_time_ms == 250


def test_record_too_large_exception_keeps_its_partitions() -> None:
    """The partitions with a too large record map to the offsets of those records."""
    tp = TopicPartition("t", 0)
    e = RecordTooLargeException("too large", record_too_large_partitions={tp: 7})
    assert e.record_too_large_partitions == {tp: 7}


def test_record_deserialization_exception_keeps_partition_offset_and_cause() -> None:
    """Java's RecordDeserializationException(partition, offset, message, cause)."""
    tp = TopicPartition("t", 3)
    cause = ValueError("bad bytes")
    e = RecordDeserializationException(tp, 42, "cannot deserialize", cause)
    assert (e.topic_partition, e.offset, str(e), e.__cause__) == (tp, 42, "cannot deserialize", cause)


@pytest.mark.parametrize(
    ("error", "attribute", "empty"),
    [
        (Errors.TOPIC_AUTHORIZATION_FAILED, "unauthorized_topics", set()),
        (Errors.INVALID_TOPIC_EXCEPTION, "invalid_topics", set()),
        (Errors.GROUP_AUTHORIZATION_FAILED, "group_id", None),
        (Errors.THROTTLING_QUOTA_EXCEEDED, "throttle_time_ms", 0),
        (Errors.MESSAGE_TOO_LARGE, "record_too_large_partitions", {}),
    ],
)
def test_exception_from_error_code_has_empty_data(error: Errors, attribute: str, empty: object) -> None:
    """An exception built from an error code alone has its data attribute, empty, and the given message."""
    e = error.exception("from the broker")
    assert e is not None
    assert e.args == ("from the broker",)
    assert getattr(e, attribute) == empty
