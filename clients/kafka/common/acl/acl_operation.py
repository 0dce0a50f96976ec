"""Port of clients/src/main/java/org/apache/kafka/common/acl/AclOperation.java (Kafka 3.7).

The operations an ACL can allow or deny; the admin client reads them out of the authorized-operations bit
fields of Metadata, DescribeCluster and DescribeGroups responses. An ACL allowing READ, WRITE, DELETE or ALTER
also allows DESCRIBE, and one allowing ALTER_CONFIGS also allows DESCRIBE_CONFIGS (the authorizer applies this).
"""

from __future__ import annotations

from kafka.common.utils.coded_enum import CodedEnum

__all__ = ["AclOperation"]


class AclOperation(CodedEnum):
    """An operation with its wire code."""

    UNKNOWN = 0
    ANY = 1
    ALL = 2
    READ = 3
    WRITE = 4
    CREATE = 5
    DELETE = 6
    ALTER = 7
    DESCRIBE = 8
    CLUSTER_ACTION = 9
    DESCRIBE_CONFIGS = 10
    ALTER_CONFIGS = 11
    IDEMPOTENT_WRITE = 12
    CREATE_TOKENS = 13
    DESCRIBE_TOKENS = 14
