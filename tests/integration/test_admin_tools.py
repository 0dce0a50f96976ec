"""Kafka's admin tools run as a user runs them: bin/kafka-topics.sh, kafka-configs.sh, kafka-delete-records.sh,
kafka-leader-election.sh and kafka-broker-api-versions.sh against a two-broker cluster of ours (started with
bin/kafka-server-start.sh), each change checked independently with confluent-kafka's AdminClient, producer and
consumer; then the errors users see (Kafka's messages, non-zero status, no Python traceback); and the topic tools
against Tansu, another Kafka-protocol broker."""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import confluent_kafka as ck
import pytest
from confluent_kafka import TopicCollection
from confluent_kafka.admin import AdminClient, ConfigResource, ConfigSource, NewTopic, ResourceType

from kafka.common.protocol.api_keys import ApiKeys
from tests.integration.broker import BrokerProcess
from tests.utils import wait_until_true

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
BIN = ROOT / "bin"


@dataclass
class Cluster:
    brokers: list[BrokerProcess]
    _admin: Any = None

    @property
    def bootstrap(self) -> str:
        return self.brokers[0].bootstrap

    def admin(self) -> Any:
        """confluent-kafka's AdminClient (kept: its futures fail if it is collected first)."""
        if self._admin is None:
            self._admin = AdminClient({"bootstrap.servers": self.bootstrap})
        return self._admin


@pytest.fixture(scope="module")
def cluster(zookeeper, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:  # type: ignore[no-untyped-def]
    """Two brokers of ours; leaders stay where elections put them (no automatic rebalance)."""
    work = Path(tmp_path_factory.mktemp("admintools"))
    brokers = []
    for broker_id in (0, 1):
        (work / str(broker_id)).mkdir()
        broker = BrokerProcess(
            work / str(broker_id),
            zookeeper.connect_string + "/admintools-" + work.name,
            broker_id=broker_id,
            overrides={
                "auto.leader.rebalance.enable": "false",
                "default.replication.factor": "1",
                # a broker that leads partitions alone stops at once; the controller sees its node go
                "controlled.shutdown.enable": "false",
            },
        )
        broker.start()
        brokers.append(broker)
    yield Cluster(brokers)
    for broker in brokers:
        assert broker.stop() == 0, broker.console_tail()


@dataclass
class Run:
    status: int
    out: str
    err: str


def tool(script: str, *args: str, timeout: float = 90) -> Run:
    """Runs bin/`script` with `args`."""
    done = subprocess.run([str(BIN / script), *args], capture_output=True, text=True, timeout=timeout)
    assert "Traceback" not in done.stderr, done.stderr
    return Run(done.returncode, done.stdout, done.stderr)


def topics(cluster: Cluster, *args: str) -> Run:
    return tool("kafka-topics.sh", "--bootstrap-server", cluster.bootstrap, *args)


def configs(cluster: Cluster, *args: str) -> Run:
    return tool("kafka-configs.sh", "--bootstrap-server", cluster.bootstrap, *args)


def describe(cluster: Cluster, topic: str) -> Any:
    """librdkafka's description of `topic` (partitions with leader, replicas, ISR; topic id)."""
    admin = cluster.admin()
    return admin.describe_topics(TopicCollection([topic]))[topic].result(30)


def leader_of(cluster: Cluster, topic: str, partition: int) -> int | None:
    (info,) = [p for p in describe(cluster, topic).partitions if p.id == partition]
    return None if info.leader is None else int(info.leader.id)


def topic_configs(cluster: Cluster, topic: str) -> dict[str, Any]:
    resource = ConfigResource(ResourceType.TOPIC, topic)
    return dict(cluster.admin().describe_configs([resource])[resource].result(30))


def topic_names(cluster: Cluster) -> set[str]:
    return set(cluster.admin().list_topics(timeout=30).topics)


def create_topic(cluster: Cluster, name: str, partitions: int, replication_factor: int = 1) -> None:
    admin = cluster.admin()
    admin.create_topics([NewTopic(name, partitions, replication_factor)], operation_timeout=30)[name].result(30)


# ---- kafka-topics.sh ------------------------------------------------------------------------------------------------


def test_leader_election_all_partitions(cluster: Cluster) -> None:
    """With every leader preferred already (this module's first test, before any broker restarts), an election
    over all partitions elects nothing, reports nothing and succeeds."""
    create_topic(cluster, "tools-all-elect", 4)
    election = elect(cluster.bootstrap, "--election-type", "preferred", "--all-topic-partitions")
    assert (election.status, election.out, election.err) == (0, "", ""), election.out


def test_create_describe_alter_delete(cluster: Cluster) -> None:
    """A topic created with partitions, replication factor and a config is what librdkafka sees; --describe prints
    Kafka's lines for it; --alter adds partitions; --delete removes it."""
    run = topics(cluster, "--create", "--topic", "tools-a", "--partitions", "3", "--replication-factor", "2",
                 "--config", "cleanup.policy=compact", "--config", "retention.ms=60000")  # fmt: skip
    assert (run.status, run.out) == (0, "Created topic tools-a.\n"), run.err
    description = describe(cluster, "tools-a")
    assert len(description.partitions) == 3
    assert all(len(p.replicas) == 2 for p in description.partitions)
    entries = topic_configs(cluster, "tools-a")
    assert (entries["cleanup.policy"].value, entries["retention.ms"].value) == ("compact", "60000")
    assert entries["retention.ms"].source == ConfigSource.DYNAMIC_TOPIC_CONFIG.value

    run = topics(cluster, "--describe", "--topic", "tools-a")
    assert run.status == 0, run.err
    topic_line, *partition_lines = run.out.splitlines()
    fields = dict(f.split(": ", 1) for f in topic_line.split("\t"))
    assert fields["Topic"] == "tools-a"
    # Java prints a Uuid in URL-safe base64; librdkafka in the standard alphabet.
    assert fields["TopicId"] == str(description.topic_id).replace("+", "-").replace("/", "_")
    assert (fields["PartitionCount"], fields["ReplicationFactor"]) == ("3", "2")
    assert {"cleanup.policy=compact", "retention.ms=60000"} <= set(fields["Configs"].split(","))
    assert len(partition_lines) == 3

    def partition_lines_match_librdkafka() -> bool:
        # Followers do not fetch from leaders in this broker yet: the ISRs shrink a few seconds after creation,
        # so both views are taken again until they agree.
        printed = topics(cluster, "--describe", "--topic", "tools-a").out.splitlines()[1:]
        expected = [
            f"\tTopic: tools-a\tPartition: {p.id}\tLeader: {p.leader.id}"
            f"\tReplicas: {','.join(str(r.id) for r in p.replicas)}\tIsr: {','.join(str(r.id) for r in p.isr)}"
            for p in sorted(describe(cluster, "tools-a").partitions, key=lambda p: p.id)
        ]
        return printed == expected

    wait_until_true(partition_lines_match_librdkafka, "the partition lines to match librdkafka's view", timeout=30)

    run = topics(cluster, "--alter", "--topic", "tools-a", "--partitions", "5")
    assert (run.status, run.out) == (0, ""), run.err
    wait_until_true(lambda: len(describe(cluster, "tools-a").partitions) == 5, "5 partitions", timeout=30)

    run = topics(cluster, "--delete", "--topic", "tools-a")
    assert (run.status, run.out) == (0, ""), run.err
    wait_until_true(lambda: "tools-a" not in topic_names(cluster), "the topic to be deleted", timeout=30)


def test_create_with_replica_assignment_and_defaults(cluster: Cluster) -> None:
    """--replica-assignment places the replicas as given; without counts the brokers' defaults apply."""
    run = topics(cluster, "--create", "--topic", "tools-b", "--replica-assignment", "1:0,0:1,1:0")
    assert run.status == 0, run.err
    replicas = {p.id: [r.id for r in p.replicas] for p in describe(cluster, "tools-b").partitions}
    assert replicas == {0: [1, 0], 1: [0, 1], 2: [1, 0]}
    run = topics(cluster, "--create", "--topic", "tools-b2", "--replica-assignment", "1:0,1")
    assert (run.status, run.out) == (
        1,
        "Error while executing topic command : Partition 1 has different replication factor: [1]\n",
    )

    run = topics(cluster, "--create", "--topic", "tools-c")
    assert run.status == 0, run.err
    description = describe(cluster, "tools-c")
    assert (len(description.partitions), len(description.partitions[0].replicas)) == (1, 1)


def test_create_existing_and_if_not_exists(cluster: Cluster) -> None:
    """Creating a topic twice is Kafka's error and status 1, unless --if-not-exists."""
    create_topic(cluster, "tools-d", 1)
    run = topics(cluster, "--create", "--topic", "tools-d")
    assert (run.status, run.out) == (1, "Error while executing topic command : Topic 'tools-d' already exists.\n")
    assert "ERROR org.apache.kafka.common.errors.TopicExistsException" in run.err
    run = topics(cluster, "--create", "--topic", "tools-d", "--if-not-exists")
    assert (run.status, run.out) == (0, "")


def test_list_and_include_regex(cluster: Cluster) -> None:
    """--list prints the topics sorted; --topic filters by regex; --exclude-internal drops __consumer_offsets."""
    for name in ("tools-list-2", "tools-list-1"):
        create_topic(cluster, name, 1)
    consumer = ck.Consumer({"bootstrap.servers": cluster.bootstrap, "group.id": "tools-list"})
    consumer.commit(offsets=[ck.TopicPartition("tools-list-1", 0, 0)], asynchronous=False)  # makes __consumer_offsets
    consumer.close()
    run = topics(cluster, "--list", "--topic", "tools-list.*")
    assert (run.status, run.out) == (0, "tools-list-1\ntools-list-2\n")
    listed = topics(cluster, "--list").out.splitlines()
    assert listed == sorted(topic_names(cluster))
    assert "__consumer_offsets" in listed
    assert "__consumer_offsets" not in topics(cluster, "--list", "--exclude-internal").out.splitlines()


def report(cluster: Cluster, topics_regex: str, option: str) -> list[str]:
    """The partitions (topic-partition) a --describe report prints."""
    out = topics(cluster, "--describe", "--topic", topics_regex, option).out
    return [line.split("\t")[1][len("Topic: ") :] + "-" + line.split("\t")[2][len("Partition: ") :]
            for line in out.splitlines()]  # fmt: skip


def elect(bootstrap: str, *args: str) -> Run:
    return tool("kafka-leader-election.sh", "--bootstrap-server", bootstrap, *args)


def test_describe_reports_and_failed_preferred_election(cluster: Cluster) -> None:
    """With broker 1 down, the partitions it held are reported under-replicated, unavailable, and under or at
    their minimum ISR; a preferred election for a partition it should lead fails with Kafka's lines."""
    run = topics(cluster, "--create", "--topic", "tools-elect", "--replica-assignment", "1:0",
                 "--config", "min.insync.replicas=2")  # fmt: skip
    assert run.status == 0, run.err
    assert topics(cluster, "--create", "--topic", "tools-solo", "--replica-assignment", "1").status == 0
    regex = "tools-elect|tools-solo"
    assert report(cluster, regex, "--under-replicated-partitions") == []
    broker1 = cluster.brokers[1]
    assert broker1.stop() == 0, broker1.console_tail()
    try:
        wait_until_true(lambda: leader_of(cluster, "tools-elect", 0) == 0, "broker 0 to lead", timeout=30)
        assert report(cluster, regex, "--under-replicated-partitions") == ["tools-elect-0"]
        assert report(cluster, regex, "--unavailable-partitions") == ["tools-solo-0"]
        assert report(cluster, regex, "--under-min-isr-partitions") == ["tools-elect-0", "tools-solo-0"]
        # tools-solo-0 keeps its one (offline) replica in the ISR: one is its minimum
        assert report(cluster, regex, "--at-min-isr-partitions") == ["tools-solo-0"]

        election = elect(
            cluster.bootstrap, "--election-type", "preferred", "--topic", "tools-elect", "--partition", "0"
        )
        assert election.status == 1
        assert election.out.startswith(
            "Error completing leader election (PREFERRED) for partition: tools-elect-0: "
            "org.apache.kafka.common.errors.PreferredLeaderNotAvailableException: "
        )
        assert election.err.splitlines()[0] == (
            'Exception in thread "main" kafka.common.AdminCommandFailedException: 1 replica(s) could not be elected'
        )
        assert leader_of(cluster, "tools-elect", 0) == 0
        election = elect(cluster.bootstrap, "--election-type", "unclean", "--topic", "tools-elect", "--partition", "0")
        assert (election.status, election.out) == (0, "Valid replica already elected for partitions tools-elect-0\n")
    finally:
        broker1.start()
        cluster._admin = None  # broker 1's address changed


def test_unclean_election(cluster: Cluster, tmp_path: Path) -> None:
    """A partition whose only ISR member is down gets the live out-of-sync replica as leader through an unclean
    election, as librdkafka then sees; asked again, the tool says a valid leader is there."""
    assert topics(cluster, "--create", "--topic", "tools-unclean", "--replica-assignment", "1:0").status == 0
    broker0, broker1 = cluster.brokers
    assert broker1.stop() == 0, broker1.console_tail()
    wait_until_true(lambda: leader_of(cluster, "tools-unclean", 0) == 0, "broker 0 to lead", timeout=30)
    # With broker 1 down the ISR shrinks to [0]; then broker 0 stops too, and broker 1 comes back out of the ISR:
    # with unclean election off the partition stays without a leader.
    assert broker0.stop() == 0, broker0.console_tail()
    broker1.start()
    try:
        other = Cluster([broker1])

        def offline() -> bool:
            # Just restarted, broker 1 answers UNKNOWN_TOPIC_OR_PART until the controller's UpdateMetadata reaches it.
            try:
                return leader_of(other, "tools-unclean", 0) is None
            except ck.KafkaException as e:
                if e.args[0].code() == ck.KafkaError.UNKNOWN_TOPIC_OR_PART:
                    return False
                raise

        wait_until_true(offline, "the partition to go offline", timeout=30)
        election = elect(
            broker1.bootstrap, "--election-type", "unclean", "--topic", "tools-unclean", "--partition", "0"
        )
        assert (election.status, election.out) == (
            0,
            "Successfully completed leader election (UNCLEAN) for partitions tools-unclean-0\n",
        ), election.err
        wait_until_true(lambda: leader_of(other, "tools-unclean", 0) == 1, "broker 1 to lead", timeout=30)

        path = tmp_path / "election.json"
        path.write_text(json.dumps({"partitions": [{"topic": "tools-unclean", "partition": 0}]}))
        election = elect(broker1.bootstrap, "--election-type", "UNCLEAN", "--path-to-json-file", str(path))
        assert (election.status, election.out) == (0, "Valid replica already elected for partitions tools-unclean-0\n")
    finally:
        broker0.start()
        cluster._admin = None  # a fresh admin client after the restarts


def test_topic_errors(cluster: Cluster) -> None:
    """Unknown topics, bad configs and counts, and bad option combinations give Kafka's messages and status 1."""
    run = topics(cluster, "--describe", "--topic", "tools-nosuch")
    assert (run.status, run.out) == (
        1,
        "Error while executing topic command : Topic 'tools-nosuch' does not exist as expected\n",
    )
    assert topics(cluster, "--describe", "--topic", "tools-nosuch", "--if-exists").status == 0
    run = topics(cluster, "--create", "--topic", "tools-bad", "--config", "cleanup.policy=bogus")
    assert (run.status, run.out) == (
        1,
        "Error while executing topic command : Invalid value bogus for configuration cleanup.policy: String must be "
        "one of: compact, delete\n",
    )
    run = topics(cluster, "--create", "--topic", "tools-bad", "--replication-factor", "3")
    assert (run.status, run.out) == (
        1,
        "Error while executing topic command : Replication factor: 3 larger than available brokers: 2.\n",
    )
    create_topic(cluster, "tools-shrink", 3)
    run = topics(cluster, "--alter", "--topic", "tools-shrink", "--partitions", "2")
    assert (run.status, run.out) == (
        1,
        "Error while executing topic command : Topic currently has 3 partitions, which is higher than the requested "
        "2.\n",
    )
    assert "tools-bad" not in topic_names(cluster)

    run = topics(cluster, "--create", "--topic", "x", "--list")
    assert run.status == 1
    assert run.err.startswith(
        "Command must include exactly one action: --list, --describe, --create, --alter or --delete\n"
    )
    run = topics(cluster, "--alter", "--topic", "tools-shrink", "--partitions", "4", "--config", "a=b")
    assert run.status == 1
    assert run.err.startswith('Option combination "[bootstrap-server],[config]" can\'t be used with option "[alter]"')
    run = tool("kafka-topics.sh", "--list")
    assert (run.status, run.err) == (
        1,
        'Exception in thread "main" java.lang.IllegalArgumentException: --bootstrap-server must be specified\n',
    )


# ---- kafka-configs.sh -----------------------------------------------------------------------------------------------


def test_topic_configs(cluster: Cluster) -> None:
    """--alter adds and deletes topic configs (librdkafka sees them change); --describe prints the dynamic ones
    with their synonyms."""
    create_topic(cluster, "tools-cfg", 1)
    run = configs(cluster, "--alter", "--entity-type", "topics", "--entity-name", "tools-cfg",
                  "--add-config", "retention.ms=120000,cleanup.policy=[compact,delete]")  # fmt: skip
    assert (run.status, run.out) == (0, "Completed updating config for topic tools-cfg.\n"), run.err
    entries = topic_configs(cluster, "tools-cfg")
    assert (entries["retention.ms"].value, entries["cleanup.policy"].value) == ("120000", "compact,delete")

    run = configs(cluster, "--describe", "--topic", "tools-cfg")
    assert run.status == 0, run.err
    lines = run.out.splitlines()
    assert lines[0] == "Dynamic configs for topic tools-cfg are:"
    assert sorted(lines[1:]) == [
        "  cleanup.policy=compact,delete sensitive=false synonyms={DYNAMIC_TOPIC_CONFIG:cleanup.policy=compact,delete, "
        "DEFAULT_CONFIG:log.cleanup.policy=delete}",
        "  retention.ms=120000 sensitive=false synonyms={DYNAMIC_TOPIC_CONFIG:retention.ms=120000}",
    ]

    run = configs(cluster, "--alter", "--topic", "tools-cfg", "--delete-config", "retention.ms")
    assert run.status == 0, run.err
    entries = topic_configs(cluster, "tools-cfg")
    assert entries["retention.ms"].source != ConfigSource.DYNAMIC_TOPIC_CONFIG.value

    run = configs(cluster, "--alter", "--topic", "tools-cfg", "--delete-config", "retention.ms")
    assert (run.status, run.err) == (1, "Invalid config(s): retention.ms\n")
    run = configs(cluster, "--describe", "--all", "--topic", "tools-cfg")
    assert run.out.splitlines()[0] == "All configs for topic tools-cfg are:"
    assert any(line.startswith("  min.insync.replicas=1 sensitive=false") for line in run.out.splitlines())


def test_broker_configs(cluster: Cluster) -> None:
    """A per-broker and a cluster-default dynamic config are set and deleted, as librdkafka reads them back."""
    resource0 = ConfigResource(ResourceType.BROKER, "0")

    def broker0_entry(name: str) -> Any:
        return dict(cluster.admin().describe_configs([resource0])[resource0].result(30))[name]

    run = configs(
        cluster, "--alter", "--entity-type", "brokers", "--entity-default", "--add-config", "log.cleaner.threads=2"
    )
    assert (run.status, run.out) == (0, "Completed updating default config for brokers in the cluster.\n"), run.err
    wait_until_true(lambda: broker0_entry("log.cleaner.threads").value == "2", "the default to apply", timeout=30)
    assert broker0_entry("log.cleaner.threads").source == ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG.value

    run = configs(cluster, "--alter", "--broker", "0", "--add-config", "log.cleaner.threads=3")
    assert (run.status, run.out) == (0, "Completed updating config for broker 0.\n"), run.err
    wait_until_true(lambda: broker0_entry("log.cleaner.threads").value == "3", "the broker config", timeout=30)

    run = configs(cluster, "--describe", "--entity-type", "brokers")
    assert run.status == 0, run.err
    # The brokers come in the order the cluster description lists them, then the default.
    blocks = re.split(r"\n(?=\S)", run.out.rstrip("\n"))
    assert sorted(blocks[:2]) == [
        "Dynamic configs for broker 0 are:\n"
        "  log.cleaner.threads=3 sensitive=false synonyms={DYNAMIC_BROKER_CONFIG:log.cleaner.threads=3, "
        "DYNAMIC_DEFAULT_BROKER_CONFIG:log.cleaner.threads=2, DEFAULT_CONFIG:log.cleaner.threads=1}",
        "Dynamic configs for broker 1 are:",
    ]
    assert blocks[2:] == [
        "Default configs for brokers in the cluster are:\n"
        "  log.cleaner.threads=2 sensitive=false synonyms={DYNAMIC_DEFAULT_BROKER_CONFIG:log.cleaner.threads=2}"
    ]

    assert configs(cluster, "--alter", "--broker", "0", "--delete-config", "log.cleaner.threads").status == 0
    assert configs(cluster, "--alter", "--broker-defaults", "--delete-config", "log.cleaner.threads").status == 0
    wait_until_true(lambda: broker0_entry("log.cleaner.threads").value == "1", "the configs to go", timeout=30)
    assert (
        configs(cluster, "--describe", "--broker-defaults").out == "Default configs for brokers in the cluster are:\n"
    )


def test_config_errors(cluster: Cluster) -> None:
    """Bad entity types, names and configs, unknown topics and bad client quota changes give Kafka's lines and
    status 1."""
    run = configs(cluster, "--describe", "--entity-type", "widgets")
    assert (run.status, run.err) == (
        1,
        "Invalid entity type widgets, the entity type must be one of topics,clients,users,brokers,ips,broker-loggers "
        "with the --bootstrap-server argument\n",
    )
    run = configs(cluster, "--alter", "--entity-type", "brokers", "--entity-name", "zero", "--add-config", "a=b")
    assert (run.status, run.err) == (
        1,
        "The entity name for brokers must be a valid integer broker id, but it is: zero\n",
    )
    args = ["--describe", "--entity-type", "topics", "--entity-name", "tools-nosuch"]
    run = configs(cluster, *args)
    assert run.status == 1
    assert run.err.splitlines()[0] == (
        f"Error while executing config command with args '--bootstrap-server {cluster.bootstrap} {' '.join(args)}'"
    )
    assert "UnknownTopicOrPartitionException" in run.err.splitlines()[1]
    create_topic(cluster, "tools-cfg-bad", 1)
    run = configs(cluster, "--alter", "--topic", "tools-cfg-bad", "--add-config", "cleanup.policy=bogus")
    assert run.status == 1
    assert "Invalid value bogus for configuration cleanup.policy" in run.err
    assert topic_configs(cluster, "tools-cfg-bad")["cleanup.policy"].value == "delete"
    run = configs(cluster, "--alter", "--entity-type", "clients", "--entity-name", "c1", "--add-config", "foo=1")
    assert (run.status, run.err) == (
        1,
        "Only quota configs can be added for 'clients' using --bootstrap-server. Unexpected config names: Set(foo)\n",
    )
    # Deleting a quota the client does not have is refused with Kafka's line (the client has none).
    run = configs(cluster, "--alter", "--client", "tools-c1", "--delete-config", "producer_byte_rate")
    assert (run.status, run.err) == (1, "Invalid config(s): producer_byte_rate\n")


# ---- kafka-delete-records.sh ----------------------------------------------------------------------------------------


def test_delete_records(cluster: Cluster, tmp_path: Path) -> None:
    """Records below the given offset go: the tool prints the new low watermark, which a consumer then sees; an
    offset past the end is the broker's error on its partition's line."""
    create_topic(cluster, "tools-del", 2)
    producer = ck.Producer({"bootstrap.servers": cluster.bootstrap})
    for i in range(10):
        producer.produce("tools-del", value=b"v%d" % i, partition=0)
    assert producer.flush(30) == 0
    path = tmp_path / "offsets.json"
    path.write_text(json.dumps({"version": 1, "partitions": [
        {"topic": "tools-del", "partition": 0, "offset": 4},
        {"topic": "tools-del", "partition": 1, "offset": 7},
    ]}))  # fmt: skip
    run = tool("kafka-delete-records.sh", "--bootstrap-server", cluster.bootstrap, "--offset-json-file", str(path))
    assert run.status == 0, run.err
    assert run.out.splitlines() == [
        "Executing records delete operation",
        "Records delete operation completed:",
        "partition: tools-del-0\tlow_watermark: 4",
        "partition: tools-del-1\terror: org.apache.kafka.common.errors.OffsetOutOfRangeException: The requested "
        "offset is not within the range of offsets maintained by the server.",
    ]
    consumer = ck.Consumer({"bootstrap.servers": cluster.bootstrap, "group.id": "tools-del"})
    try:
        assert consumer.get_watermark_offsets(ck.TopicPartition("tools-del", 0), timeout=30) == (4, 10)
    finally:
        consumer.close()

    path.write_text('{"partitions": [{"topic": "tools-del", "partition": 0}]}')
    run = tool("kafka-delete-records.sh", "--bootstrap-server", cluster.bootstrap, "--offset-json-file", str(path))
    assert (run.status, run.err) == (
        1,
        'Exception in thread "main" com.fasterxml.jackson.databind.JsonMappingException: No such field exists: '
        "`offset`\n",
    )


# ---- kafka-broker-api-versions.sh -----------------------------------------------------------------------------------


def test_broker_api_versions(cluster: Cluster) -> None:
    """Each broker prints its API version ranges with the version this client uses, Kafka's layout."""
    run = tool("kafka-broker-api-versions.sh", "--bootstrap-server", cluster.bootstrap)
    assert run.status == 0, run.err
    heads = [line for line in run.out.splitlines() if " -> (" in line]
    assert heads == [f"{b.bootstrap} (id: {b.broker_id} rack: null) -> (" for b in cluster.brokers]
    produce = ApiKeys.PRODUCE
    assert (
        f"\tProduce(0): {produce.oldest_version} to {produce.latest_version()} [usable: {produce.latest_version()}],"
        in run.out.splitlines()
    )
    assert run.out.count("\n)\n") == 2
    assert all(re.fullmatch(r"\t\w+\(\d+\): .*", line) for line in run.out.splitlines() if line.startswith("\t"))


# ---- against Tansu --------------------------------------------------------------------------------------------------


def test_topics_on_tansu(tansu: Any) -> None:
    """Against Tansu the topic tool creates, lists, describes and deletes a topic, and the API versions print."""
    bootstrap = tansu.bootstrap
    run = tool(
        "kafka-topics.sh", "--bootstrap-server", bootstrap, "--create", "--topic", "tools-tansu", "--partitions", "3"
    )
    assert (run.status, run.out) == (0, "Created topic tools-tansu.\n"), run.err
    assert "tools-tansu" in tool("kafka-topics.sh", "--bootstrap-server", bootstrap, "--list").out.splitlines()
    run = tool("kafka-topics.sh", "--bootstrap-server", bootstrap, "--describe", "--topic", "tools-tansu")
    assert run.status == 0, run.err
    assert run.out.splitlines()[0].startswith("Topic: tools-tansu\tTopicId: ")
    assert "\tPartitionCount: 3\tReplicationFactor: 1\tConfigs: " in run.out.splitlines()[0]
    assert [line.split("\t")[2] for line in run.out.splitlines()[1:]] == [f"Partition: {p}" for p in range(3)]
    run = tool("kafka-broker-api-versions.sh", "--bootstrap-server", bootstrap)
    assert run.status == 0, run.err
    assert "\tProduce(0): " in run.out
    assert tool("kafka-topics.sh", "--bootstrap-server", bootstrap, "--delete", "--topic", "tools-tansu").status == 0
    admin = AdminClient({"bootstrap.servers": bootstrap})
    wait_until_true(lambda: "tools-tansu" not in admin.list_topics(timeout=30).topics, "the topic to go", timeout=30)
