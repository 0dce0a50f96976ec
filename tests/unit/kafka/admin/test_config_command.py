"""Tests of ConfigCommand with a fake admin client: Kafka's argument checks and messages, how entity names and
configs are read from the command line, the lines --describe prints, and the calls --alter makes for topics,
brokers (each and the default), broker loggers and client quotas, after Kafka's ConfigCommandTest."""

from __future__ import annotations

from pathlib import Path

import pytest

from kafka.admin import config_command as cc
from kafka.clients.admin.alter_config_op import OpType
from kafka.clients.admin.config_entry import ConfigSource
from kafka.common.config.config_resource import ConfigResource
from kafka.common.quota import ClientQuotaAlteration, ClientQuotaEntity, ClientQuotaFilter, ClientQuotaFilterComponent
from tests.unit.kafka.admin.admin_tool_fakes import BOOTSTRAP, FakeAdmin, run_tool


def configs(*args: str, admin: FakeAdmin | None = None) -> tuple[int, str, str]:
    return run_tool(cc.run_command, [*BOOTSTRAP, *args], admin or FakeAdmin())


def options(*args: str) -> cc.ConfigCommandOptions:
    return cc.ConfigCommandOptions([*BOOTSTRAP, *args])


# -- the command line -----------------------------------------------------------------------------------------------


def test_help() -> None:
    """--help prints Kafka's summary line and the help, status 1."""
    status, _, err = run_tool(cc.run_command, ["--help"])
    assert status == 1
    assert err.startswith(
        "This tool helps to manipulate and describe entity config for a topic, client, user, broker or ip\nOption"
    )
    assert "--delete-config <String>" in err


def test_exactly_one_action() -> None:
    """--describe or --alter, exactly one."""
    status, _, err = configs("--entity-type", "topics")
    assert status == 1
    assert err.startswith("Command must include exactly one action: --describe, --alter\n")


def test_describe_with_add_config_is_refused() -> None:
    """--describe takes no configs to add."""
    status, _, err = configs("--describe", "--entity-type", "topics", "--add-config", "a=b")
    assert status == 1
    assert err.startswith('Option "[describe]" can\'t be used with option "[add-config]"\n')


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--describe"], "At least one entity type must be specified"),
        (
            ["--describe", "--entity-type", "foo"],
            "Invalid entity type foo, the entity type must be one of topics,clients,users,brokers,ips,broker-loggers "
            "with the --bootstrap-server argument",
        ),
        (
            ["--describe", "--entity-type", "topics", "--entity-type", "topics"],
            "Duplicate entity type(s) specified: topics",
        ),
        (
            ["--describe", "--entity-type", "topics", "--entity-type", "brokers"],
            "Only 'users' and 'clients' entity types may be specified together",
        ),
        (
            ["--describe", "--entity-type", "users", "--client", "c"],
            "--entity-{type,name,default} should not be used in conjunction with specific entity flags",
        ),
        (
            ["--describe", "--entity-type", "brokers", "--entity-name", "x"],
            "The entity name for brokers must be a valid integer broker id, but it is: x",
        ),
        (
            ["--describe", "--entity-type", "broker-loggers"],
            "an entity name must be specified with --describe of broker-loggers",
        ),
        (
            ["--alter", "--entity-type", "topics", "--add-config", "a=b"],
            "an entity name must be specified with --alter of topics",
        ),
        (
            ["--alter", "--entity-type", "brokers", "--add-config", "a=b"],
            "an entity-name or default entity must be specified with --alter of users, clients, brokers or ips",
        ),
        (
            ["--alter", "--entity-type", "topics", "--entity-name", "t"],
            "At least one of --add-config, --add-config-file, or --delete-config must be specified with --alter",
        ),
        (
            ["--alter", "--topic", "t", "--add-config", "a=b", "--add-config-file", "f"],
            "Only one of --add-config or --add-config-file must be specified",
        ),
        (
            [
                "--alter",
                "--entity-type",
                "clients",
                "--entity-type",
                "users",
                "--entity-name",
                "c",
                "--add-config",
                "a=1",
            ],
            "An entity name must be specified for every entity type",
        ),
    ],
)
def test_argument_errors(args: list[str], message: str) -> None:
    """Each misuse prints Kafka's one-line message on stderr and exits 1."""
    admin = FakeAdmin()
    status, out, err = configs(*args, admin=admin)
    assert (status, out, err) == (1, "", message + "\n")
    assert admin.calls == []


def test_bootstrap_server_or_zookeeper_required() -> None:
    """Without a connection option the command fails with Kafka's message; --zookeeper serves users only."""
    status, _, err = run_tool(cc.run_command, ["--describe", "--entity-type", "topics"])
    assert (status, err) == (1, "One of the required --bootstrap-server or --zookeeper arguments must be specified\n")
    status, _, err = run_tool(
        cc.run_command, ["--zookeeper", "localhost:2181", "--describe", "--entity-type", "topics"]
    )
    assert status == 1
    assert err == (
        "--zookeeper is supported by this version of kafka-configs.sh for users only (SCRAM credentials and quotas): "
        "use --bootstrap-server\n"
    )


def test_unrecognized_option_prints_message_only() -> None:
    """A jopt-simple refusal is caught by Kafka's main: its message alone, status 1."""
    status, _, err = configs("--describe", "--nosuch")
    assert (status, err) == (1, "nosuch is not a recognized option\n")


def test_entity_names_follow_command_line_order() -> None:
    """--entity-name and --entity-default give the names in the order they appear; shorthand flags follow."""
    opts = options(
        "--describe", "--entity-type", "users", "--entity-default", "--entity-type", "clients", "--entity-name", "c1"
    )
    assert opts.entity_types() == ["users", "clients"]
    assert opts.entity_names() == ["", "c1"]
    opts = options("--describe", "--user", "u1", "--client-defaults")
    assert (opts.entity_types(), opts.entity_names()) == (["users", "clients"], ["u1", ""])


def test_parse_entity_sanitizes_and_orders_users_first() -> None:
    """<client, user> becomes <user, client>; names are URL-sanitized and the default is <default>."""
    opts = options(
        "--describe", "--entity-type", "clients", "--entity-name", "c 1", "--entity-type", "users", "--entity-default"
    )
    entity = cc.parse_entity(opts)
    assert str(entity) == "default user-principal, client-id 'c 1'"
    assert entity.full_sanitized_name == "<default>/clients/c%201"


def test_parse_configs_to_be_added(tmp_path: Path) -> None:
    """Square brackets group values with commas; spaces around '=' go; the file adds configs too."""
    opts = options("--alter", "--topic", "t", "--add-config", "a=1, b = [x,y] ,c=")
    assert cc.parse_configs_to_be_added(opts) == {"a": "1", "b": "x,y", "c": ""}
    config_file = tmp_path / "add.properties"
    config_file.write_text("k1=v1\nk2=v2\n")
    opts = options("--alter", "--topic", "t", "--add-config-file", str(config_file))
    assert cc.parse_configs_to_be_added(opts) == {"k1": "v1", "k2": "v2"}


def test_parse_configs_bad_format() -> None:
    """A pair without '=' is Kafka's requirement failure."""
    status, _, err = configs("--alter", "--topic", "t", "--add-config", "a")
    assert status == 1
    assert (
        err == 'requirement failed: Invalid entity config: all configs to be added must be in the format "key=val".\n'
    )


def test_delete_config_values_are_split_at_commas() -> None:
    """--delete-config takes comma-separated names, and may be repeated."""
    opts = options("--alter", "--topic", "t", "--delete-config", "a, b", "--delete-config", "c")
    assert cc.parse_configs_to_be_deleted(opts) == ["a", "b", "c"]


# -- describe -------------------------------------------------------------------------------------------------------


def test_describe_topic_dynamic_configs() -> None:
    """A topic's dynamic configs print with their synonyms, as Kafka's lines."""
    admin = FakeAdmin()
    admin.add_topic("t", (0, [0], [0]), cleanup_policy="compact")
    status, out, _ = configs("--describe", "--entity-type", "topics", "--entity-name", "t", admin=admin)
    assert status == 0
    assert out.splitlines() == [
        "Dynamic configs for topic t are:",
        "  cleanup.policy=compact sensitive=false synonyms={DYNAMIC_TOPIC_CONFIG:cleanup.policy=compact, "
        "DEFAULT_CONFIG:log.cleanup.policy=delete}",
    ]
    (resources, describe_options) = admin.calls[0][1]
    assert resources == [ConfigResource(ConfigResource.Type.TOPIC, "t")]
    assert describe_options.include_synonyms()


def test_describe_all_topic_configs() -> None:
    """--all prints every config, the defaults included."""
    admin = FakeAdmin()
    admin.add_topic("t", (0, [0], [0]))
    status, out, _ = configs("--describe", "--topic", "t", "--all", admin=admin)
    assert status == 0
    assert out.splitlines()[0] == "All configs for topic t are:"
    assert "  min.insync.replicas=1 sensitive=false synonyms={DEFAULT_CONFIG:log.min.insync.replicas=1}" in out


def test_describe_every_topic_in_hash_map_order() -> None:
    """Without a name every topic is described, in the order of the listing's Java HashMap."""
    admin = FakeAdmin()
    for name in ("topic-c", "x", "topic-a"):
        admin.add_topic(name, (0, [0], [0]))
    _, out, _ = configs("--describe", "--entity-type", "topics", admin=admin)
    assert [line for line in out.splitlines() if line.startswith("Dynamic")] == [
        "Dynamic configs for topic x are:",
        "Dynamic configs for topic topic-a are:",
        "Dynamic configs for topic topic-c are:",
    ]


def test_describe_brokers_and_default() -> None:
    """Without a name every broker is described, then the cluster default; a sensitive value prints null."""
    admin = FakeAdmin()
    admin.nodes = admin.nodes[:2]
    admin.broker_configs["0"] = [
        ("log.cleaner.threads", "3", ConfigSource.DYNAMIC_BROKER_CONFIG),
        ("ssl.keystore.password", None, ConfigSource.DYNAMIC_BROKER_CONFIG),
        ("broker.id", "0", ConfigSource.STATIC_BROKER_CONFIG),
    ]
    admin.broker_configs[""] = [("log.cleaner.threads", "2", ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG)]
    status, out, _ = configs("--describe", "--entity-type", "brokers", admin=admin)
    assert status == 0
    assert out.splitlines() == [
        "Dynamic configs for broker 0 are:",
        "  log.cleaner.threads=3 sensitive=false synonyms={DYNAMIC_BROKER_CONFIG:log.cleaner.threads=3}",
        "  ssl.keystore.password=null sensitive=true synonyms={DYNAMIC_BROKER_CONFIG:ssl.keystore.password=null}",
        "Dynamic configs for broker 1 are:",
        "Default configs for brokers in the cluster are:",
        "  log.cleaner.threads=2 sensitive=false synonyms={DYNAMIC_DEFAULT_BROKER_CONFIG:log.cleaner.threads=2}",
    ]
    _, out, _ = configs("--describe", "--broker-defaults", admin=admin)
    assert out.splitlines()[0] == "Default configs for brokers in the cluster are:"
    _, out, _ = configs("--describe", "--broker", "0", "--all", admin=admin)
    assert "  broker.id=0 sensitive=false synonyms={STATIC_BROKER_CONFIG:broker.id=0}" in out.splitlines()


def test_describe_unknown_topic_fails_as_kafka() -> None:
    """A failed describe prints Kafka's "Error while executing config command" line and the exception."""
    args = ["--describe", "--entity-type", "topics", "--entity-name", "nosuch"]
    status, out, err = configs(*args)
    assert status == 1
    assert out == "Dynamic configs for topic nosuch are:\n"
    assert err.splitlines() == [
        f"Error while executing config command with args '{' '.join([*BOOTSTRAP, *args])}'",
        "java.util.concurrent.ExecutionException: org.apache.kafka.common.errors.UnknownTopicOrPartitionException",
        "Caused by: org.apache.kafka.common.errors.UnknownTopicOrPartitionException",
    ]


def test_describe_illegal_topic_name() -> None:
    """A topic name Kafka cannot have fails before any call."""
    admin = FakeAdmin()
    status, _, err = configs("--describe", "--topic", "a/b", admin=admin)
    assert status == 1
    assert err.splitlines()[1].startswith('org.apache.kafka.common.errors.InvalidTopicException: Topic name "a/b"')
    assert admin.calls == []


def _quota_admin() -> FakeAdmin:
    admin = FakeAdmin()
    admin.quotas = {
        ClientQuotaEntity({"client-id": "c1"}): {"producer_byte_rate": 1024.0, "request_percentage": 12.5},
        ClientQuotaEntity({"client-id": None}): {"consumer_byte_rate": 2.0e7},
        ClientQuotaEntity({"user": "u 1"}): {"producer_byte_rate": 10.0},
        ClientQuotaEntity({"user": "u 1", "client-id": "c1"}): {"consumer_byte_rate": 5.0},
    }
    return admin


def test_describe_client_quotas_prints_kafka_lines() -> None:
    """A client's quotas print as Kafka 2.8 prints them, values as Java doubles; the filter is strict and exact."""
    admin = _quota_admin()
    status, out, _ = configs("--describe", "--entity-type", "clients", "--entity-name", "c1", admin=admin)
    assert status == 0
    assert out == "Quota configs for client-id 'c1' are producer_byte_rate=1024.0, request_percentage=12.5\n"
    assert admin.calls == [
        (
            "describe_client_quotas",
            ClientQuotaFilter.contains_only([ClientQuotaFilterComponent.of_entity("client-id", "c1")]),
        )
    ]


def test_describe_default_client_quotas() -> None:
    """--entity-default describes the default client id, printed as Kafka's "the default client-id"."""
    status, out, _ = configs("--describe", "--entity-type", "clients", "--entity-default", admin=_quota_admin())
    assert status == 0
    assert out == "Quota configs for the default client-id are consumer_byte_rate=2.0E7\n"


def test_describe_user_and_client_quotas() -> None:
    """users+clients together describe the <user, client-id> entity, the user first."""
    args = ["--describe", "--entity-type", "users", "--entity-name", "u 1", "--entity-type", "clients"]
    status, out, _ = configs(*args, "--entity-name", "c1", admin=_quota_admin())
    assert status == 0
    assert out == "Quota configs for user-principal 'u 1', client-id 'c1' are consumer_byte_rate=5.0\n"


# -- alter ------------------------------------------------------------------------------------------------------------


def test_alter_topic_sets_and_deletes_incrementally() -> None:
    """Topic configs change with SET and DELETE operations; the command prints Kafka's completion line."""
    admin = FakeAdmin()
    admin.add_topic("t", (0, [0], [0]), retention_ms="1000")
    status, out, _ = configs(
        "--alter", "--entity-type", "topics", "--entity-name", "t",
        "--add-config", "cleanup.policy=[compact,delete]", "--delete-config", "retention.ms",
        admin=admin,
    )  # fmt: skip
    assert (status, out) == (0, "Completed updating config for topic t.\n")
    ops = admin.calls[-1][1][ConfigResource(ConfigResource.Type.TOPIC, "t")]
    assert [(op.config_entry.name, op.config_entry.value, op.op_type) for op in ops] == [
        ("cleanup.policy", "compact,delete", OpType.SET),
        ("retention.ms", "", OpType.DELETE),
    ]
    assert admin.topics["t"].configs == {"cleanup.policy": "compact,delete"}


def test_alter_topic_delete_of_missing_config() -> None:
    """Deleting a config the topic does not override is Kafka's InvalidConfigurationException message."""
    admin = FakeAdmin()
    admin.add_topic("t", (0, [0], [0]))
    status, out, err = configs("--alter", "--topic", "t", "--delete-config", "retention.ms,segment.ms", admin=admin)
    assert (status, out, err) == (1, "", "Invalid config(s): retention.ms,segment.ms\n")


def test_alter_broker_sends_all_dynamic_configs() -> None:
    """A broker's configs go through alterConfigs with every dynamic config of the broker, changed."""
    admin = FakeAdmin()
    admin.broker_configs["1"] = [
        ("log.cleaner.threads", "3", ConfigSource.DYNAMIC_BROKER_CONFIG),
        ("num.io.threads", "8", ConfigSource.DYNAMIC_BROKER_CONFIG),
        ("broker.id", "1", ConfigSource.STATIC_BROKER_CONFIG),
    ]
    status, out, _ = configs(
        "--alter", "--entity-type", "brokers", "--entity-name", "1",
        "--add-config", "log.retention.ms=5000", "--delete-config", "num.io.threads",
        admin=admin,
    )  # fmt: skip
    assert (status, out) == (0, "Completed updating config for broker 1.\n")
    sent = admin.calls[-1][1][ConfigResource(ConfigResource.Type.BROKER, "1")]
    assert {e.name: e.value for e in sent.entries} == {"log.cleaner.threads": "3", "log.retention.ms": "5000"}


def test_alter_broker_default() -> None:
    """--entity-default alters the cluster-wide broker configs and says so."""
    admin = FakeAdmin()
    status, out, _ = configs(
        "--alter", "--entity-type", "brokers", "--entity-default", "--add-config", "a=1", admin=admin
    )
    assert (status, out) == (0, "Completed updating default config for brokers in the cluster.\n")
    assert list(admin.calls[-1][1]) == [ConfigResource(ConfigResource.Type.BROKER, "")]


def test_alter_broker_with_sensitive_config_missing() -> None:
    """A sensitive dynamic config (value hidden) must be given again, as Kafka requires."""
    admin = FakeAdmin()
    admin.broker_configs["0"] = [("ssl.keystore.password", None, ConfigSource.DYNAMIC_BROKER_CONFIG)]
    status, _, err = configs("--alter", "--broker", "0", "--add-config", "a=1", admin=admin)
    assert (status, err) == (
        1,
        "All sensitive broker config entries must be specified for --alter, missing entries: "
        "Set(ssl.keystore.password)\n",
    )


def test_alter_broker_logger_checks_names() -> None:
    """Only loggers the broker reports can be set."""
    admin = FakeAdmin()
    admin.broker_configs["0"] = [("kafka.server", "INFO", ConfigSource.DYNAMIC_BROKER_LOGGER_CONFIG)]
    status, _, err = configs("--alter", "--broker-logger", "0", "--add-config", "kafka.nosuch=DEBUG", admin=admin)
    assert (status, err) == (1, "Invalid broker logger(s): kafka.nosuch\n")
    status, out, _ = configs("--alter", "--broker-logger", "0", "--add-config", "kafka.server=DEBUG", admin=admin)
    assert (status, out) == (0, "Completed updating config for broker-logger 0.\n")
    assert admin.calls[-1][0] == "incremental_alter_configs"


def test_alter_client_with_non_quota_config() -> None:
    """Clients take quota configs only, named in Kafka's message."""
    status, _, err = configs("--alter", "--client", "c1", "--add-config", "foo=1,producer_byte_rate=5")
    assert (status, err) == (
        1,
        "Only quota configs can be added for 'clients' using --bootstrap-server. Unexpected config names: Set(foo)\n",
    )
    status, _, err = configs("--alter", "--user", "u1", "--delete-config", "foo")
    assert (status, err) == (
        1,
        "Only quota and SCRAM credential configs can be deleted for 'users' using --bootstrap-server. Unexpected "
        "config names: ArrayBuffer(foo)\n",
    )


def test_alter_client_quota_sets_and_deletes() -> None:
    """--alter of the default client id sends one alteration: set ops as doubles, deletions as None values."""
    admin = _quota_admin()
    args = ["--alter", "--entity-type", "clients", "--entity-default", "--add-config", "producer_byte_rate=1000"]
    status, out, _ = configs(*args, "--delete-config", "consumer_byte_rate", admin=admin)
    assert status == 0
    assert out == "Completed updating default config for clients in the cluster.\n"
    alterations = [call[1] for call in admin.calls if call[0] == "alter_client_quotas"]
    assert len(alterations) == 1
    (alteration,) = alterations[0]
    assert alteration.entity() == ClientQuotaEntity({"client-id": None})
    assert alteration.ops() == (
        ClientQuotaAlteration.Op("producer_byte_rate", 1000.0),
        ClientQuotaAlteration.Op("consumer_byte_rate", None),
    )
    assert admin.quotas[ClientQuotaEntity({"client-id": None})] == {"producer_byte_rate": 1000.0}


def test_alter_client_quota_deleting_an_unset_key_is_refused() -> None:
    """Deleting a quota the entity does not have fails with Kafka's InvalidConfigurationException message."""
    args = ["--alter", "--entity-type", "clients", "--entity-name", "c1", "--delete-config", "consumer_byte_rate"]
    status, _, err = configs(*args, admin=_quota_admin())
    assert status == 1
    assert err == "Invalid config(s): consumer_byte_rate\n"


def test_alter_client_quota_bad_value_is_refused() -> None:
    """A quota value that is not a double fails before any alteration is sent."""
    args = ["--alter", "--entity-type", "clients", "--entity-name", "c1", "--add-config", "producer_byte_rate=x"]
    admin = _quota_admin()
    status, _, err = configs(*args, admin=admin)
    assert status == 1
    assert err == "Cannot parse quota configuration value for producer_byte_rate: x\n"
    assert not any(call[0] == "alter_client_quotas" for call in admin.calls)
