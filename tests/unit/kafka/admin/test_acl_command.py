"""Tests of kafka.admin.acl_command, after Kafka 2.8's AclCommandTest: the ACLs --producer, --consumer and
--idempotent stand for, the command-line checks, and add/list/remove through an admin client (a fake here)."""

from __future__ import annotations

import io
from typing import Any

from kafka.admin.acl_command import AclCommandOptions, get_resource_filter_to_acls, run_command
from kafka.common.acl.acl_binding import AclBinding
from kafka.common.acl.acl_binding_filter import AclBindingFilter
from kafka.common.acl.acl_operation import AclOperation
from kafka.common.kafka_future import KafkaFutureImpl
from kafka.common.resource.pattern_type import PatternType
from kafka.common.resource.resource_type import ResourceType
from tests.unit.kafka.security.authorizer.acl_fakes import fake_authorizer


def _ops(args: list[str]) -> dict[tuple[ResourceType, str | None, PatternType], set[AclOperation]]:
    opts = AclCommandOptions(args)
    opts.check_args()
    return {
        (f.resource_type, f.name, f.pattern_type): {a.operation for a in acls}
        for f, acls in get_resource_filter_to_acls(opts).items()
    }


def test_producer_consumer_and_idempotent_acls() -> None:
    """--producer: Write, Describe, Create on topics and Write, Describe on transactional ids (IdempotentWrite on the
    cluster with --idempotent); --consumer: Read, Describe on topics and Read on the group."""
    base = ["--bootstrap-server", "b:9092", "--add", "--allow-principal", "User:alice"]
    produced = _ops([*base, "--producer", "--topic", "t", "--transactional-id", "tx", "--idempotent"])
    assert produced == {
        (ResourceType.TOPIC, "t", PatternType.LITERAL): {
            AclOperation.WRITE,
            AclOperation.DESCRIBE,
            AclOperation.CREATE,
        },
        (ResourceType.TRANSACTIONAL_ID, "tx", PatternType.LITERAL): {AclOperation.WRITE, AclOperation.DESCRIBE},
        (ResourceType.CLUSTER, "kafka-cluster", PatternType.LITERAL): {AclOperation.IDEMPOTENT_WRITE},
    }
    consumed = _ops([*base, "--consumer", "--topic", "t", "--group", "g", "--resource-pattern-type", "prefixed"])
    assert consumed == {
        (ResourceType.TOPIC, "t", PatternType.PREFIXED): {AclOperation.READ, AclOperation.DESCRIBE},
        (ResourceType.GROUP, "g", PatternType.PREFIXED): {AclOperation.READ},
    }


def test_command_line_checks() -> None:
    """Kafka's refusals: no action, --producer without --topic, an operation the resource type does not support."""
    err = io.StringIO()
    assert run_command(["--bootstrap-server", "b:9092", "--topic", "t"], io.StringIO(), err) == 1
    assert "Command must include exactly one action: --list, --add, --remove." in err.getvalue()
    err = io.StringIO()
    assert run_command(["--bootstrap-server", "b:9092", "--add", "--producer"], io.StringIO(), err) == 1
    assert "With --producer you must specify a --topic" in err.getvalue()
    err = io.StringIO()
    args = [
        "--bootstrap-server",
        "b:9092",
        "--add",
        "--allow-principal",
        "User:a",
        "--operation",
        "Write",
        "--group",
        "g",
    ]
    assert run_command(args, io.StringIO(), err) == 1
    assert "ResourceType GROUP only supports operations ALL,READ,DELETE,DESCRIBE" in err.getvalue()


class _FakeAdmin:
    """The ACL calls of an admin client, on an AclAuthorizer."""

    def __init__(self) -> None:
        self.authorizer = fake_authorizer()

    @staticmethod
    def _done(value: Any) -> Any:
        f: KafkaFutureImpl[Any] = KafkaFutureImpl()
        f.complete(value)
        return type("R", (), {"all": lambda self: f, "values": lambda self: f})()

    def create_acls(self, bindings: list[AclBinding]) -> Any:
        for future in self.authorizer.create_acls(None, bindings):
            assert future.result().exception is None
        return self._done(None)

    def delete_acls(self, filters: list[Any]) -> Any:
        self.authorizer.delete_acls(None, filters)
        return self._done(None)

    def describe_acls(self, acl_filter: Any) -> Any:
        return self._done(self.authorizer.acls(acl_filter))

    def close(self) -> None:
        pass


def test_add_list_remove_output() -> None:
    """--add prints what it adds and the resource's ACLs after; --remove --force takes them away."""
    admin = _FakeAdmin()
    out = io.StringIO()
    args = ["--bootstrap-server", "b:9092", "--add", "--allow-principal", "User:alice", "--operation", "Read"]
    assert run_command([*args, "--topic", "t"], out, io.StringIO(), admin_factory=lambda props: admin) == 0
    assert out.getvalue() == (
        "Adding ACLs for resource `ResourcePattern(resourceType=TOPIC, name=t, patternType=LITERAL)`: \n"
        " \t(principal=User:alice, host=*, operation=READ, permissionType=ALLOW) \n\n"
        "Current ACLs for resource `ResourcePattern(resourceType=TOPIC, name=t, patternType=LITERAL)`: \n"
        " \t(principal=User:alice, host=*, operation=READ, permissionType=ALLOW) \n\n"
    )
    out = io.StringIO()
    remove = ["--bootstrap-server", "b:9092", "--remove", "--force", "--topic", "t"]
    assert run_command(remove, out, io.StringIO(), admin_factory=lambda props: admin) == 0
    assert out.getvalue() == ""
    assert admin.authorizer.acls(AclBindingFilter.ANY) == []
