"""LogDirsCommand (kafka-log-dirs.sh --describe) against a fake admin client: the brokers asked, Kafka's two
header lines and its JSON layout, the topic filter, and the usage errors."""

from __future__ import annotations

import json

from kafka.admin import log_dirs_command as ldc
from kafka.clients.admin.log_dir_description import LogDirDescription
from kafka.clients.admin.replica_info import ReplicaInfo
from kafka.common.errors import KafkaStorageException
from kafka.common.topic_partition import TopicPartition
from tests.unit.kafka.admin.admin_tool_fakes import BOOTSTRAP, FakeAdmin, run_tool


def log_dirs_admin() -> FakeAdmin:
    admin = FakeAdmin()
    admin.log_dirs[0] = {
        "/data/kafka-0": LogDirDescription(
            None,
            {TopicPartition("foo", 0): ReplicaInfo(120, 0, False), TopicPartition("bar", 0): ReplicaInfo(7, 0, False)},
        )
    }
    admin.log_dirs[1] = {
        "/data/kafka-1": LogDirDescription(None, {TopicPartition("foo", 0): ReplicaInfo(120, 3, False)}),
        "/data/bad": LogDirDescription(KafkaStorageException("disk"), {}),
    }
    return admin


def test_describe_all_brokers() -> None:
    """Without --broker-list every live broker is asked; the JSON is Kafka's (compact, its key names)."""
    admin = log_dirs_admin()
    status, out, err = run_tool(ldc.run_command, ["--describe", *BOOTSTRAP], admin)
    assert (status, err) == (0, "")
    lines = out.splitlines()
    assert lines[:2] == [
        "Querying brokers for log directories information",
        "Received log directory information from brokers 0,1,2",
    ]
    assert ("describe_log_dirs", [0, 1, 2]) in admin.calls
    assert lines[2].startswith('{"version":1,"brokers":[{"broker":0,"logDirs":[{"logDir":"/data/kafka-0","error":null')
    doc = json.loads(lines[2])
    assert [b["broker"] for b in doc["brokers"]] == [0, 1, 2]
    broker1 = {d["logDir"]: d for d in doc["brokers"][1]["logDirs"]}
    assert broker1["/data/bad"] == {
        "logDir": "/data/bad",
        "error": "org.apache.kafka.common.errors.KafkaStorageException",
        "partitions": [],
    }
    assert broker1["/data/kafka-1"]["partitions"] == [
        {"partition": "foo-0", "size": 120, "offsetLag": 3, "isFuture": False}
    ]
    assert doc["brokers"][2] == {"broker": 2, "logDirs": []}
    assert admin.closed


def test_describe_some_brokers_and_topics() -> None:
    """--broker-list asks only those brokers; --topic-list keeps only those topics' partitions."""
    admin = log_dirs_admin()
    status, out, _ = run_tool(
        ldc.run_command, ["--describe", *BOOTSTRAP, "--broker-list", "0", "--topic-list", "bar"], admin
    )
    assert status == 0
    assert out.splitlines()[1] == "Received log directory information from brokers 0"
    assert json.loads(out.splitlines()[2]) == {
        "version": 1,
        "brokers": [
            {
                "broker": 0,
                "logDirs": [
                    {
                        "logDir": "/data/kafka-0",
                        "error": None,
                        "partitions": [{"partition": "bar-0", "size": 7, "offsetLag": 0, "isFuture": False}],
                    }
                ],
            }
        ],
    }


def test_missing_describe_and_bad_broker() -> None:
    """Without --describe Kafka prints its usage error; an unknown broker fails the call (status 1)."""
    status, _, err = run_tool(ldc.run_command, BOOTSTRAP, log_dirs_admin())
    assert status == 1
    assert err.startswith('Missing required argument "[describe]"')
    status, _, err = run_tool(ldc.run_command, ["--describe", *BOOTSTRAP, "--broker-list", "9"], log_dirs_admin())
    assert status == 1
    assert 'Exception in thread "main" ' in err and "TimeoutException" in err
