"""Tests of GetOffsetShell without a broker: topic-partition filters (after Kafka 3.0's GetOffsetShellParsingTest)
and whole runs over a fake consumer: the lines printed for latest, earliest and by-time offsets, partitions without a
leader, and Kafka's error messages."""

from __future__ import annotations

import io
from collections.abc import Collection, Mapping
from typing import Any

import pytest

from kafka.clients.consumer.offset_and_timestamp import OffsetAndTimestamp
from kafka.common.node import Node
from kafka.common.partition_info import PartitionInfo
from kafka.common.topic_partition import TopicPartition
from kafka.tools import get_offset_shell as gos

LEADER = Node(0, "localhost", 9092)


def partition_info(topic: str, partition: int, leader: Node | None = LEADER) -> PartitionInfo:
    return PartitionInfo(topic, partition, leader, [], [])


def accepts(spec: str, exclude_internal: bool, topic: str, partition: int) -> bool:
    return gos.create_topic_partition_filter_with_pattern_list(spec, exclude_internal)(partition_info(topic, partition))


@pytest.mark.parametrize("exclude_internal", [True, False])
def test_topic_partition_filter_for_topic_name(exclude_internal: bool) -> None:
    """A plain name matches that topic only, whole."""
    assert accepts("test", exclude_internal, "test", 0)
    assert accepts("test", exclude_internal, "test", 1)
    assert not accepts("test", exclude_internal, "test1", 0)
    assert not accepts("test", exclude_internal, "__consumer_offsets", 0)


@pytest.mark.parametrize("exclude_internal", [True, False])
def test_topic_partition_filter_for_internal_topic_name(exclude_internal: bool) -> None:
    """An internal topic matches unless internal topics are excluded."""
    assert accepts("__consumer_offsets", exclude_internal, "__consumer_offsets", 0) is not exclude_internal
    assert accepts("__consumer_offsets", exclude_internal, "__consumer_offsets", 1) is not exclude_internal
    assert not accepts("__consumer_offsets", exclude_internal, "test1", 0)


@pytest.mark.parametrize("exclude_internal", [True, False])
def test_topic_partition_filter_for_topic_name_list_and_regex(exclude_internal: bool) -> None:
    """A list of names matches any of them; a regular expression matches whole names."""
    spec = "test,test1,__consumer_offsets"
    assert accepts(spec, exclude_internal, "test", 0)
    assert accepts(spec, exclude_internal, "test1", 1)
    assert not accepts(spec, exclude_internal, "test2", 0)
    assert accepts(spec, exclude_internal, "__consumer_offsets", 0) is not exclude_internal
    assert accepts("test.*", exclude_internal, "test2", 0)
    assert not accepts("test.*", exclude_internal, "__consumer_offsets", 0)


@pytest.mark.parametrize("exclude_internal", [True, False])
def test_partition_specs(exclude_internal: bool) -> None:
    """`:N`, `:a-b` (upper exclusive), `:a-` and `:-b` select partitions of any topic."""
    assert accepts(":0", exclude_internal, "test1", 0)
    assert not accepts(":0", exclude_internal, "test2", 1)
    assert accepts(":0", exclude_internal, "__consumer_offsets", 0) is not exclude_internal
    assert [p for p in range(6) if accepts(":1-3", exclude_internal, "test", p)] == [1, 2]
    assert [p for p in range(6) if accepts(":3-", exclude_internal, "test", p)] == [3, 4, 5]
    assert [p for p in range(6) if accepts(":-3", exclude_internal, "test", p)] == [0, 1, 2]


@pytest.mark.parametrize("exclude_internal", [True, False])
def test_topic_partition_filter_complex(exclude_internal: bool) -> None:
    """Several rules: any rule accepting a partition selects it."""
    spec = "test.*:0,__consumer_offsets:1-2,.*:3"
    assert accepts(spec, exclude_internal, "test", 0)
    assert accepts(spec, exclude_internal, "test", 3)
    assert not accepts(spec, exclude_internal, "test", 1)
    assert accepts(spec, exclude_internal, "custom", 3)
    assert not accepts(spec, exclude_internal, "custom", 0)
    assert accepts(spec, exclude_internal, "__consumer_offsets", 1) is not exclude_internal
    assert accepts(spec, exclude_internal, "__consumer_offsets", 3) is not exclude_internal
    assert not accepts(spec, exclude_internal, "__consumer_offsets", 0)


@pytest.mark.parametrize("spec", [":a", ":a-b", ":a-", ":-b"])
def test_invalid_partition_specs(spec: str) -> None:
    """A partition spec that is not numbers is refused."""
    with pytest.raises(gos.IllegalArgumentException, match=f"Invalid rule specification: {spec}"):
        gos.create_topic_partition_filter_with_pattern_list(spec, False)


def test_partition_set() -> None:
    """--partitions is a comma-separated list of ids; anything else gets Kafka's message."""
    assert gos.create_partition_set("0,2,2") == {0, 2}
    assert gos.create_partition_set(None) == set()
    with pytest.raises(gos.IllegalArgumentException) as e:
        gos.create_partition_set("0,x")
    assert str(e.value) == "--partitions expects a comma separated list of numeric partition ids, but received: 0,x"


# -- whole runs ---------------------------------------------------------------------------------------------------


class FakeConsumer:
    """Answers with fixed topics, offsets and record timestamps."""

    def __init__(self) -> None:
        self.topics = {
            "topic1": [partition_info("topic1", p) for p in range(3)],
            "topic2": [partition_info("topic2", 0), partition_info("topic2", 1, leader=None)],
            "__consumer_offsets": [partition_info("__consumer_offsets", 0)],
        }
        self.end = {TopicPartition(t, p.partition): 10 * (p.partition + 1) for t, ps in self.topics.items() for p in ps}
        self.closed = False
        self.props: dict[str, str] = {}

    def list_topics(self) -> dict[str, list[PartitionInfo]]:
        return self.topics

    def beginning_offsets(self, partitions: Collection[TopicPartition]) -> dict[TopicPartition, int]:
        return {tp: 1 for tp in partitions}

    def end_offsets(self, partitions: Collection[TopicPartition]) -> dict[TopicPartition, int]:
        return {tp: self.end[tp] for tp in partitions}

    def offsets_for_times(self, timestamps: Mapping[TopicPartition, int]) -> dict[TopicPartition, Any]:
        # Record i of each partition has timestamp 1000 + i.
        return {
            tp: OffsetAndTimestamp(ts - 1000, ts) if ts - 1000 < self.end[tp] else None for tp, ts in timestamps.items()
        }

    def close(self) -> None:
        self.closed = True


def run(args: list[str], consumer: FakeConsumer | None = None) -> tuple[int, str, str]:
    consumer = consumer or FakeConsumer()
    out, err = io.StringIO(), io.StringIO()

    def factory(props: Mapping[str, str]) -> FakeConsumer:
        assert consumer is not None
        consumer.props = dict(props)
        return consumer

    status = gos.run_command(args, out, err, factory)
    return status, out.getvalue(), err.getvalue()


def test_latest_offsets_of_all_topics_sorted() -> None:
    """Without a topic every partition with a leader is printed, sorted, as topic:partition:offset."""
    status, out, err = run(["--bootstrap-server", "h:1"])
    assert status == 0
    assert out == "__consumer_offsets:0:10\ntopic1:0:10\ntopic1:1:20\ntopic1:2:30\ntopic2:0:10\n"
    assert err == "Error: topic-partition topic2:1 does not have a leader. Skip getting offsets\n"


def test_earliest_offsets_and_partitions() -> None:
    """--time -2 gives the earliest offsets; --partitions and --exclude-internal-topics narrow the list."""
    status, out, _ = run(["--bootstrap-server", "h:1", "--topic", "topic.*", "--partitions", "0,2", "--time", "-2"])
    assert status == 0
    assert out == "topic1:0:1\ntopic1:2:1\ntopic2:0:1\n"
    status, out, _ = run(["--bootstrap-server", "h:1", "--exclude-internal-topics", "--topic-partitions", ":0"])
    assert out == "topic1:0:10\ntopic2:0:10\n"


def test_offsets_by_timestamp() -> None:
    """A timestamp gives the first offset at or after it, or an empty offset when there is none."""
    status, out, _ = run(["--broker-list", "h:1", "--topic", "topic1", "--time", "1015"])
    assert status == 0
    assert out == "topic1:0:\ntopic1:1:15\ntopic1:2:15\n"


def test_client_settings(tmp_path: Any) -> None:
    """The consumer gets the command config, the servers and client.id GetOffsetShell."""
    conf = tmp_path / "client.properties"
    conf.write_text("request.timeout.ms=1234\nclient.id=other\n")
    consumer = FakeConsumer()
    status, _, _ = run(["--bootstrap-server", "h:1", "--topic", "topic1", "--command-config", str(conf)], consumer)
    assert status == 0
    assert consumer.props == {"request.timeout.ms": "1234", "client.id": "GetOffsetShell", "bootstrap.servers": "h:1"}
    assert consumer.closed


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--bootstrap-server", "h:1", "--topic", "nope"],
            "Could not match any topic-partitions with the specified filters",
        ),
        (
            ["--bootstrap-server", "h:1", "--topic-partitions", "t:0", "--topic", "t"],
            "--topic-partitions cannot be used with --topic or --partitions",
        ),
        (["--topic", "t"], "Missing required option(s) [bootstrap-server]"),
        (["--bootstrap-server", "h:1", "--time", "yesterday"], "Cannot parse argument 'yesterday' of option time"),
        (["--bootstrap-server", "h:1", "--bogus"], "bogus is not a recognized option"),
    ],
)
def test_errors(args: list[str], message: str) -> None:
    """A user mistake prints `Error occurred: <message>` on stderr and ends with status 1."""
    status, out, err = run(args)
    assert status == 1
    assert out == ""
    assert err == f"Error occurred: {message}\n"


def test_no_arguments_and_bad_address() -> None:
    """No arguments print the usage text and help; an address without a port is refused with Kafka's message."""
    status, _, err = run([])
    assert status == 1
    assert err.startswith(gos.USAGE_TEXT + "\n")
    status, _, err = run(["--bootstrap-server", "localhost"])
    assert status == 1
    assert err.startswith("Please provide valid host:port like host1:9091,host2:9092\n")
    assert "--topic-partitions <String:" in err


def test_deprecated_options_are_ignored() -> None:
    """2.8's --offsets and --max-wait-ms are accepted and change nothing."""
    plain = run(["--bootstrap-server", "h:1", "--topic", "topic1"])
    assert run(["--bootstrap-server", "h:1", "--topic", "topic1", "--offsets", "3", "--max-wait-ms", "10"]) == plain
