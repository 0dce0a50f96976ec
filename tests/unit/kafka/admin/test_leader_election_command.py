"""Tests of LeaderElectionCommand with a fake admin client: Kafka's option checks and messages, the partitions it
asks to elect (one, from a JSON file, or all), and what it prints for elected, already valid and failed
partitions, after Kafka's LeaderElectionCommandTest."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kafka.admin import leader_election_command as lec
from kafka.common.election_type import ElectionType
from kafka.common.errors import (
    ClusterAuthorizationException,
    ElectionNotNeededException,
    PreferredLeaderNotAvailableException,
    TimeoutException,
)
from kafka.common.topic_partition import TopicPartition
from tests.unit.kafka.admin.admin_tool_fakes import BOOTSTRAP, FakeAdmin, run_tool


def elect(*args: str, admin: FakeAdmin | None = None) -> tuple[int, str, str]:
    return run_tool(lec.run_command, [*BOOTSTRAP, *args], admin or FakeAdmin())


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--topic", "t", "--partition", "0"], "Missing required option(s): election-type"),
        (
            ["--election-type", "preferred"],
            "One and only one of the following options is required: topic, all-topic-partitions, path-to-json-file",
        ),
        (
            ["--election-type", "preferred", "--topic", "t", "--all-topic-partitions"],
            "One and only one of the following options is required: topic, all-topic-partitions, path-to-json-file",
        ),
        (["--election-type", "preferred", "--topic", "t"], "Missing required option(s): partition"),
        (
            ["--election-type", "preferred", "--all-topic-partitions", "--partition", "0"],
            "Option partition is only allowed if topic is used",
        ),
    ],
)
def test_validation_errors(args: list[str], message: str) -> None:
    """Missing or conflicting options end the tool with Kafka's AdminCommandFailedException messages."""
    admin = FakeAdmin()
    status, _, err = elect(*args, admin=admin)
    assert (status, err) == (1, f'Exception in thread "main" kafka.common.AdminCommandFailedException: {message}\n')
    assert admin.calls == []


def test_both_required_options_missing() -> None:
    """Both missing options are named, the election type first, as Kafka lists them."""
    status, _, err = run_tool(lec.run_command, ["--all-topic-partitions"])
    assert status == 1
    assert err.endswith("Missing required option(s): election-type, bootstrap-server\n")


def test_election_type_is_an_enum() -> None:
    """The election type is matched without regard to case; anything else is a conversion error."""
    admin = FakeAdmin()
    assert elect("--election-type", "UnClean", "--topic", "t", "--partition", "0", admin=admin)[0] == 0
    assert admin.calls[0][1][0] is ElectionType.UNCLEAN
    status, _, err = elect("--election-type", "bogus", "--topic", "t", "--partition", "0")
    assert status == 1
    assert err.startswith("Cannot parse argument 'bogus' of option election-type\n")


def test_help_shows_enum_values() -> None:
    """The help shows the election type's values as jopt-simple's EnumConverter does."""
    status, _, err = run_tool(lec.run_command, ["--help"])
    assert status == 1
    assert err.startswith("This tool attempts to elect a new leader for a set of topic partitions.")
    assert "--election-type <[PREFERRED,UNCLEAN]:" in err
    assert "--partition <Integer: partition id>" in err


def test_successful_and_not_needed_elections() -> None:
    """Elected partitions and those with a valid leader already are listed on their lines."""
    admin = FakeAdmin()
    admin.election_results = {TopicPartition("t", 0): None, TopicPartition("t", 1): None}
    path_args = ["--election-type", "preferred", "--all-topic-partitions"]
    status, out, _ = elect(*path_args, admin=admin)
    assert status == 0
    assert out == "Successfully completed leader election (PREFERRED) for partitions t-1, t-0\n"
    assert admin.calls[0][1] == (ElectionType.PREFERRED, None)

    admin = FakeAdmin()
    status, out, _ = elect("--election-type", "preferred", "--topic", "t", "--partition", "2", admin=admin)
    assert (status, out) == (0, "Valid replica already elected for partitions t-2\n")
    assert admin.calls[0][1] == (ElectionType.PREFERRED, {TopicPartition("t", 2)})


def test_partitions_from_json_file(tmp_path: Path) -> None:
    """--path-to-json-file names the partitions; duplicates are refused."""
    path = tmp_path / "election.json"
    path.write_text(json.dumps({"partitions": [{"topic": "a", "partition": 1}, {"topic": "b", "partition": 0}]}))
    admin = FakeAdmin()
    status, out, _ = elect("--election-type", "preferred", "--path-to-json-file", str(path), admin=admin)
    assert status == 0
    assert admin.calls[0][1] == (ElectionType.PREFERRED, {TopicPartition("a", 1), TopicPartition("b", 0)})
    assert out == "Valid replica already elected for partitions a-1, b-0\n"

    path.write_text(json.dumps({"partitions": [{"topic": "a", "partition": 1}, {"topic": "a", "partition": 1}]}))
    status, _, err = elect("--election-type", "preferred", "--path-to-json-file", str(path))
    assert (status, err) == (
        1,
        'Exception in thread "main" kafka.admin.AdminOperationException: Replica election data contains duplicate '
        "partitions: a-1\n",
    )
    path.write_text("{}")
    status, _, err = elect("--election-type", "preferred", "--path-to-json-file", str(path))
    assert err.endswith('Replica election data is missing "partitions" field\n')


def test_failed_elections_end_the_tool() -> None:
    """Failed partitions print their errors; the tool ends with "N replica(s) could not be elected"."""
    admin = FakeAdmin()
    admin.election_results = {
        TopicPartition("t", 0): PreferredLeaderNotAvailableException("Failed to elect leader for partition t-0"),
        TopicPartition("t", 1): None,
        TopicPartition("t", 2): ElectionNotNeededException("not needed"),
    }
    status, out, err = elect("--election-type", "preferred", "--all-topic-partitions", admin=admin)
    assert status == 1
    assert out.splitlines() == [
        "Successfully completed leader election (PREFERRED) for partitions t-1",
        "Valid replica already elected for partitions t-2",
        "Error completing leader election (PREFERRED) for partition: t-0: "
        "org.apache.kafka.common.errors.PreferredLeaderNotAvailableException: Failed to elect leader for partition t-0",
    ]
    assert err.splitlines() == [
        'Exception in thread "main" kafka.common.AdminCommandFailedException: 1 replica(s) could not be elected',
        "\tSuppressed: org.apache.kafka.common.errors.PreferredLeaderNotAvailableException: Failed to elect leader "
        "for partition t-0",
    ]


def test_request_timeout_and_authorization() -> None:
    """A timed-out or unauthorized election prints Kafka's line and fails with its cause."""
    admin = FakeAdmin(election_results=TimeoutException("Timed out waiting for a node assignment."))
    status, out, err = elect("--election-type", "preferred", "--all-topic-partitions", admin=admin)
    assert (status, out) == (1, "Timeout waiting for election results\n")
    assert err.splitlines() == [
        'Exception in thread "main" kafka.common.AdminCommandFailedException: Timeout waiting for election results',
        "Caused by: org.apache.kafka.common.errors.TimeoutException: Timed out waiting for a node assignment.",
    ]
    admin = FakeAdmin(election_results=ClusterAuthorizationException("denied"))
    status, out, _ = elect("--election-type", "unclean", "--all-topic-partitions", admin=admin)
    assert (status, out) == (1, "Not authorized to perform leader election\n")


def test_admin_timeouts_and_config_file(tmp_path: Path) -> None:
    """The admin client gets Kafka's 30 s API timeout and half of it per request; --admin.config and
    --command-config both load properties."""
    config = tmp_path / "admin.properties"
    config.write_text("client.id=elector\n")
    for option in ("--admin.config", "--command-config"):
        admin = FakeAdmin()
        elect("--election-type", "preferred", "--all-topic-partitions", option, str(config), admin=admin)
        assert admin.props == {
            "client.id": "elector",
            "bootstrap.servers": "localhost:9092",
            "default.api.timeout.ms": "30000",
            "request.timeout.ms": "15000",
        }
