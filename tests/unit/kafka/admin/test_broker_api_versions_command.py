"""Tests of BrokerApiVersionsCommand over the MockClient: it finds the brokers with a Metadata request to a bootstrap
server, asks each for its API versions and prints Kafka's lines, an ERROR line for a broker that fails; and its
option checks."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from kafka.admin import broker_api_versions_command as bav
from kafka.clients.consumer.internals.consumer_network_client import ConsumerNetworkClient
from kafka.clients.metadata import Metadata
from kafka.common.internals.cluster_resource_listeners import ClusterResourceListeners
from kafka.common.message import ApiVersionsResponseData
from kafka.common.node import Node
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.api_versions_response import ApiVersionsResponse
from kafka.common.utils.log_context import LogContext
from kafka.common.utils.time import MockTime
from tests.unit.kafka.admin.admin_tool_fakes import run_tool
from tests.unit.kafka.clients.mock_client import MockClient
from tests.unit.kafka.common.requests.request_test_utils import metadata_response

BOOTSTRAP_NODE = Node(-1, "localhost", 9092)
BROKERS = [Node(1, "host1", 9092), Node(0, "host0", 9092, "rack-a")]


def versions(*ranges: tuple[ApiKeys, int, int]) -> ApiVersionsResponse:
    data = ApiVersionsResponseData(error_code=Errors.NONE.code)
    for key, lo, hi in ranges:
        data.api_keys.append(ApiVersionsResponseData.ApiVersion(api_key=key.id, min_version=lo, max_version=hi))
    return ApiVersionsResponse(data)


def admin_client() -> tuple[bav.AdminClient, MockClient]:
    time = MockTime()
    log_context = LogContext("")
    metadata = Metadata(100, 100, 3600_000, log_context, ClusterResourceListeners())
    client = MockClient(time, [BOOTSTRAP_NODE, *BROKERS])
    network = ConsumerNetworkClient(log_context, client, metadata, time, 100, 5000, 2**31 - 1)
    return bav.AdminClient(time, 5000, 100, network, [BOOTSTRAP_NODE]), client


def test_prints_each_brokers_versions() -> None:
    """Brokers print in id order as "host:port (id: N rack: R) -> (...)", each API on its own line."""
    admin, client = admin_client()
    client.prepare_response_from(metadata_response(BROKERS, "cluster", 0, []), BOOTSTRAP_NODE)
    client.prepare_response_from(metadata_response(BROKERS, "cluster", 0, []), BOOTSTRAP_NODE)
    client.prepare_response_from(versions((ApiKeys.PRODUCE, 0, 9), (ApiKeys.FETCH, 4, 4)), BROKERS[1])
    error = ApiVersionsResponse(ApiVersionsResponseData(error_code=Errors.CLUSTER_AUTHORIZATION_FAILED.code))
    client.prepare_response_from(error, BROKERS[0])
    out = io.StringIO()
    opts = bav.BrokerVersionCommandOptions(["--bootstrap-server", "localhost:9092"])
    bav.execute(opts, out, admin_client=admin)
    lines = out.getvalue().splitlines()
    assert lines[0] == "host0:9092 (id: 0 rack: rack-a) -> ("
    assert lines[1] == f"\tProduce(0): 0 to 9 [usable: {min(9, ApiKeys.PRODUCE.latest_version())}],"
    assert lines[2] == "\tFetch(1): 4 [usable: 4],"
    assert lines[3] == "\tListOffsets(2): UNSUPPORTED,"
    assert lines[-2] == ")"
    assert lines[-1] == (
        "host1:9092 (id: 1 rack: null) -> ERROR: org.apache.kafka.common.errors.ClusterAuthorizationException: "
        "Cluster authorization failed."
    )


def test_bootstrap_failure() -> None:
    """When no bootstrap server answers Metadata, the tool ends with Kafka's RuntimeException."""
    admin, client = admin_client()
    client.prepare_response_from(None, BOOTSTRAP_NODE, True)
    out = io.StringIO()
    opts = bav.BrokerVersionCommandOptions(["--bootstrap-server", "localhost:9092"])
    with pytest.raises(RuntimeError) as info:
        bav.execute(opts, out, admin_client=admin)
    assert str(info.value) == "Request METADATA failed on brokers List(localhost:9092 (id: -1 rack: null))"
    assert out.getvalue() == ""


def test_bootstrap_server_required() -> None:
    """--bootstrap-server is required; no arguments prints the help."""
    status, _, err = run_tool(bav.run_command, ["--command-config", "x"])
    assert status == 1
    assert err.startswith('Missing required argument "[bootstrap-server]"\n')
    status, _, err = run_tool(bav.run_command, [])
    assert status == 1
    assert err.startswith("This tool helps to retrieve broker version information.\nOption")


def test_bad_security_protocol_is_refused(tmp_path: Path) -> None:
    """A security.protocol that does not exist ends the tool with a ConfigException naming it."""
    config = tmp_path / "bad.properties"
    config.write_text("security.protocol=SSLX\n")
    status, _, err = run_tool(
        bav.run_command, ["--bootstrap-server", "localhost:9092", "--command-config", str(config)]
    )
    assert status == 1
    assert err.startswith('Exception in thread "main" org.apache.kafka.common.config.ConfigException: ')
    assert "SSLX" in err
