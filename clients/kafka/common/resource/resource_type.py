"""Port of clients/src/main/java/org/apache/kafka/common/resource/ResourceType.java (Kafka 3.7).

The kinds of resource an ACL can name, with their wire codes.
"""

from __future__ import annotations

from kafka.common.utils.coded_enum import CodedEnum

__all__ = ["ResourceType"]


class ResourceType(CodedEnum):
    """A resource type with its wire code; ANY is only meaningful in filters."""

    UNKNOWN = 0
    ANY = 1
    TOPIC = 2
    GROUP = 3
    CLUSTER = 4
    TRANSACTIONAL_ID = 5
    DELEGATION_TOKEN = 6
    USER = 7
