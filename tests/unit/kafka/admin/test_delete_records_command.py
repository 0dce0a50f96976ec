"""Tests of DeleteRecordsCommand with a fake admin client: the offset JSON it reads (and Kafka's errors for bad
files), the records it asks to delete, and the lines it prints per partition."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kafka.admin import delete_records_command as drc
from kafka.admin._tool_support import JsonMappingException
from kafka.admin.admin_utils import AdminOperationException
from kafka.common.errors import OffsetOutOfRangeException
from kafka.common.topic_partition import TopicPartition
from tests.unit.kafka.admin.admin_tool_fakes import BOOTSTRAP, FakeAdmin, run_tool


def offsets_file(tmp_path: Path, content: object) -> str:
    path = tmp_path / "offsets.json"
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    return str(path)


def test_parse_offset_json() -> None:
    """The partitions and offsets come back in file order; the version defaults to 1."""
    parsed = drc.parse_offset_json_string_without_dedup(
        '{"partitions": [{"topic": "foo", "partition": 1, "offset": 5}, '
        '{"topic": "bar", "partition": 0, "offset": -1}]}'
    )
    assert parsed == [(TopicPartition("foo", 1), 5), (TopicPartition("bar", 0), -1)]


@pytest.mark.parametrize(
    ("text", "exception", "message"),
    [
        ("not json", AdminOperationException, "The input string is not a valid JSON"),
        ('{"version": 2, "partitions": []}', AdminOperationException, "Not supported version field value 2"),
        ('{"version": 1}', AdminOperationException, "Missing partitions field"),
        ('{"partitions": [{"topic": "foo", "partition": 1}]}', JsonMappingException, "No such field exists: `offset`"),
        (
            '{"partitions": [{"topic": "foo", "partition": "1", "offset": 1}]}',
            JsonMappingException,
            'Expected `Int` value, received "1"',
        ),
        ('{"partitions": {}}', JsonMappingException, "Expected JSON array, received {}"),
    ],
)
def test_parse_offset_json_errors(text: str, exception: type[BaseException], message: str) -> None:
    """Malformed files fail with Kafka's exceptions and messages."""
    with pytest.raises(exception) as info:
        drc.parse_offset_json_string_without_dedup(text)
    assert str(info.value) == message


def test_delete_records_prints_low_watermarks_and_errors(tmp_path: Path) -> None:
    """Each partition prints its new low watermark, or the error Java's ExecutionException carries."""
    admin = FakeAdmin()
    admin.low_watermarks[TopicPartition("t", 1)] = OffsetOutOfRangeException("out of range")
    path = offsets_file(
        tmp_path,
        {"partitions": [{"topic": "t", "partition": 0, "offset": 3}, {"topic": "t", "partition": 1, "offset": 9}]},
    )
    status, out, _ = run_tool(drc.run_command, [*BOOTSTRAP, "--offset-json-file", path], admin)
    assert status == 0
    assert out.splitlines() == [
        "Executing records delete operation",
        "Records delete operation completed:",
        "partition: t-1\terror: org.apache.kafka.common.errors.OffsetOutOfRangeException: out of range",
        "partition: t-0\tlow_watermark: 3",
    ]
    ((name, records),) = admin.calls
    assert name == "delete_records"
    assert {tp: r.offset for tp, r in records.items()} == {TopicPartition("t", 0): 3, TopicPartition("t", 1): 9}
    assert admin.closed


def test_partitions_print_in_hash_map_order(tmp_path: Path) -> None:
    """The result map is a Java HashMap: partitions print in its order, not the file's."""
    admin = FakeAdmin()
    entries = [{"topic": "t", "partition": p, "offset": 1} for p in (2, 0, 1)]
    path = offsets_file(tmp_path, {"partitions": entries})
    _, out, _ = run_tool(drc.run_command, [*BOOTSTRAP, "--offset-json-file", path], admin)
    assert [line.split("\t")[0] for line in out.splitlines()[2:]] == [
        "partition: t-2",
        "partition: t-1",
        "partition: t-0",
    ]


def test_duplicate_partitions(tmp_path: Path) -> None:
    """A partition listed twice ends the tool before anything is deleted."""
    admin = FakeAdmin()
    entries = [{"topic": "t", "partition": 0, "offset": 1}, {"topic": "t", "partition": 0, "offset": 2}]
    status, out, err = run_tool(
        drc.run_command, [*BOOTSTRAP, "--offset-json-file", offsets_file(tmp_path, {"partitions": entries})], admin
    )
    assert (status, out) == (1, "")
    assert err == (
        'Exception in thread "main" kafka.common.AdminCommandFailedException: Offset json file contains duplicate '
        "topic partitions: t-0\n"
    )
    assert admin.calls == []


def test_missing_file() -> None:
    """A file that is not there ends the tool as the JVM reports it."""
    status, _, err = run_tool(drc.run_command, [*BOOTSTRAP, "--offset-json-file", "/nonexistent.json"], FakeAdmin())
    assert (status, err) == (1, 'Exception in thread "main" java.nio.file.NoSuchFileException: /nonexistent.json\n')


def test_required_options() -> None:
    """--bootstrap-server and --offset-json-file are required; no arguments prints the help."""
    status, _, err = run_tool(drc.run_command, [*BOOTSTRAP])
    assert status == 1
    assert err.startswith('Missing required argument "[offset-json-file]"\nOption')
    status, _, err = run_tool(drc.run_command, [])
    assert status == 1
    assert err.startswith("This tool helps to delete records of the given partitions down to the specified offset.\n")
    assert "--offset-json-file <String: Offset     REQUIRED: The JSON file with offset   \n" in err
