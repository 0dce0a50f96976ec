"""Port of clients/src/test/java/org/apache/kafka/clients/admin/AdminClientUnitTestEnv.java (Kafka 3.7).

A KafkaAdminClient over a MockClient and a MockTime, with cluster metadata already known (so calls go straight
to their nodes), for unit tests of call routing, retries and timeouts. Use it as a context manager: leaving it
closes the admin client and its thread.
"""

from __future__ import annotations

import time as _time
from collections.abc import Mapping, Sequence
from typing import Any

from kafka.clients.admin.admin_client_config import AdminClientConfig
from kafka.clients.admin.internals.admin_metadata_manager import AdminMetadataManager
from kafka.clients.admin.kafka_admin_client import KafkaAdminClient
from kafka.common.cluster import Cluster
from kafka.common.node import Node
from kafka.common.utils.log_context import LogContext
from kafka.common.utils.time import MockTime, Time
from tests.unit.kafka.clients.mock_client import MetadataUpdate, MockClient, MockMetadataUpdater


class _AdminMockMetadataUpdater(MockMetadataUpdater):
    """The nodes come from the admin client's metadata manager, which fetches its own metadata."""

    def __init__(self, manager: AdminMetadataManager) -> None:
        self._manager = manager

    def fetch_nodes(self) -> Sequence[Node]:
        return self._manager.updater().fetch_nodes()

    def is_update_needed(self) -> bool:
        return False

    def update(self, time: Time, update: MetadataUpdate) -> None:
        raise NotImplementedError("The admin client updates its metadata with its own calls")


class PacedMockClient(MockClient):
    """A MockClient whose poll waits a moment when it has nothing to return, so the admin thread does not spin."""

    def poll(self, timeout_ms: int, now: int) -> list[Any]:
        responses = super().poll(timeout_ms, now)
        if not responses and timeout_ms > 0:
            _time.sleep(min(timeout_ms, 2) / 1000)
        return responses


def mock_cluster(num_nodes: int = 3, controller_index: int = 0) -> Cluster:
    """A cluster of `num_nodes` brokers on localhost (ids 0..n-1), no topics."""
    nodes = [Node(i, "localhost", 8121 + i) for i in range(num_nodes)]
    return Cluster("mockClusterId", nodes, [], controller=nodes[controller_index])


class AdminClientUnitTestEnv:
    def __init__(self, cluster: Cluster | None = None, time: MockTime | None = None, **configs: Any) -> None:
        self.time = MockTime() if time is None else time
        self.cluster = mock_cluster() if cluster is None else cluster
        props: dict[str, Any] = {AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG: "localhost:8121"}
        props.update(self._dotted(configs))
        config = AdminClientConfig(props)
        self.metadata_manager = AdminMetadataManager(
            LogContext(),
            config.get_long(AdminClientConfig.RETRY_BACKOFF_MS_CONFIG),
            config.get_long(AdminClientConfig.METADATA_MAX_AGE_CONFIG),
            False,
        )
        self.mock_client = PacedMockClient(self.time, _AdminMockMetadataUpdater(self.metadata_manager))
        self.metadata_manager.update(self.cluster, self.time.milliseconds())
        self.admin_client = KafkaAdminClient.create_internal(
            config, metadata_manager=self.metadata_manager, client=self.mock_client, time=self.time
        )

    @staticmethod
    def _dotted(configs: Mapping[str, Any]) -> dict[str, Any]:
        return {k.replace("_", "."): v for k, v in configs.items()}

    def kafka_client(self) -> PacedMockClient:
        return self.mock_client

    def close(self) -> None:
        """Closes the client at once (the MockTime does not move, so a close with a timeout would never end
        pending calls) and waits for its thread to finish."""
        self.admin_client.close(0)
        self.admin_client._thread.join(10)

    def __enter__(self) -> AdminClientUnitTestEnv:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
