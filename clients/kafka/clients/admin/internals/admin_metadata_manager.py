"""Port of clients/src/main/java/org/apache/kafka/clients/admin/internals/AdminMetadataManager.java (Kafka 3.7).

The admin client's view of the cluster: the nodes and controller from its last Metadata (or DescribeCluster)
response, when the next refresh is due (metadata.max.age.ms, retry.backoff.ms between attempts), and a fatal
error (authentication, unsupported version) that fails every call needing metadata. The KafkaAdminClient
thread does the fetching itself; the NetworkClient only reads the nodes through AdminMetadataUpdater.
Only the admin client's thread uses it.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence

from kafka.clients.metadata_updater import MetadataUpdater
from kafka.common.cluster import Cluster
from kafka.common.errors import (
    ApiException,
    AuthenticationException,
    KafkaException,
    MismatchedEndpointTypeException,
    UnsupportedEndpointTypeException,
    UnsupportedVersionException,
)
from kafka.common.node import Node
from kafka.common.requests.metadata_response import MetadataResponse
from kafka.common.requests.request_header import RequestHeader
from kafka.common.utils.log_context import LogContext

__all__ = ["AdminMetadataManager"]

_LONG_MAX = 2**63 - 1


class _State(enum.Enum):
    QUIESCENT = "QUIESCENT"
    UPDATE_REQUESTED = "UPDATE_REQUESTED"
    UPDATE_PENDING = "UPDATE_PENDING"


class AdminMetadataUpdater(MetadataUpdater):
    """What the NetworkClient sees: the manager's nodes; it never sends metadata requests itself."""

    def __init__(self, manager: AdminMetadataManager) -> None:
        self._manager = manager

    def fetch_nodes(self) -> Sequence[Node]:
        return self._manager.cluster.nodes

    def is_update_due(self, now: int) -> bool:
        return False

    def maybe_update(self, now: int) -> int:
        return _LONG_MAX

    def handle_server_disconnect(
        self, now: int, node_id: str, maybe_auth_exception: AuthenticationException | None
    ) -> None:
        if maybe_auth_exception is not None:
            self._manager.update_failed(maybe_auth_exception)
        self._manager.request_update()

    def handle_failed_request(self, now: int, maybe_fatal_exception: KafkaException | None) -> None:
        pass

    def handle_successful_response(
        self, request_header: RequestHeader, now: int, metadata_response: MetadataResponse
    ) -> None:
        pass

    def close(self) -> None:
        pass


class AdminMetadataManager:
    def __init__(
        self,
        log_context: LogContext,
        refresh_backoff_ms: int,
        metadata_expire_ms: int,
        using_bootstrap_controllers: bool,
    ) -> None:
        self._log = log_context.logger("org.apache.kafka.clients.admin.internals.AdminMetadataManager")
        self._refresh_backoff_ms = refresh_backoff_ms
        self._metadata_expire_ms = metadata_expire_ms
        self._using_bootstrap_controllers = using_bootstrap_controllers
        self._updater = AdminMetadataUpdater(self)
        self._state = _State.QUIESCENT
        self._last_metadata_update_ms = 0
        self._last_metadata_fetch_attempt_ms = 0
        self.cluster = Cluster.empty()
        self._fatal_exception: ApiException | None = None

    def using_bootstrap_controllers(self) -> bool:
        return self._using_bootstrap_controllers

    def updater(self) -> AdminMetadataUpdater:
        return self._updater

    def is_ready(self) -> bool:
        """Whether metadata from the cluster (not just the bootstrap list) is known; raises the fatal error of
        the last update, if any."""
        if self._fatal_exception is not None:
            self._log.debug("Metadata is not usable: failed to get metadata.", self._fatal_exception)
            raise self._fatal_exception
        if not self.cluster.nodes:
            self._log.trace("Metadata is not ready: bootstrap nodes have not been initialized yet.")
            return False
        if self.cluster.is_bootstrap_configured:
            self._log.trace("Metadata is not ready: we have not fetched metadata from the bootstrap nodes yet.")
            return False
        self._log.trace("Metadata is ready to use.")
        return True

    def controller(self) -> Node | None:
        return self.cluster.controller

    def node_by_id(self, node_id: int) -> Node | None:
        return self.cluster.node_by_id(node_id)

    def request_update(self) -> None:
        if self._state is _State.QUIESCENT:
            self._state = _State.UPDATE_REQUESTED
            self._log.debug("Requesting metadata update.")

    def clear_controller(self) -> None:
        controller = self.cluster.controller
        if controller is not None:
            self._log.trace(f"Clearing cached controller node {controller}.")
            self.cluster = Cluster(self.cluster.cluster_resource.cluster_id, self.cluster.nodes, [])

    def metadata_fetch_delay_ms(self, now: int) -> int:
        """How long until a metadata fetch should start (0: now)."""
        if self._state is _State.QUIESCENT:
            # The periodic refresh, but never sooner than the backoff after the last attempt.
            return max(self._delay_before_next_attempt_ms(now), self._delay_before_next_expire_ms(now))
        if self._state is _State.UPDATE_REQUESTED:
            # Even a requested update waits out the backoff.
            return self._delay_before_next_attempt_ms(now)
        # An update is in flight already.
        return _LONG_MAX

    def _delay_before_next_expire_ms(self, now: int) -> int:
        time_since_update = now - self._last_metadata_update_ms
        return max(0, self._metadata_expire_ms - time_since_update)

    def _delay_before_next_attempt_ms(self, now: int) -> int:
        time_since_attempt = now - self._last_metadata_fetch_attempt_ms
        return max(0, self._refresh_backoff_ms - time_since_attempt)

    def transition_to_update_pending(self, now: int) -> None:
        self._state = _State.UPDATE_PENDING
        self._last_metadata_fetch_attempt_ms = now

    def update_failed(self, exception: BaseException) -> None:
        # Calls still waiting for metadata will request another update.
        self._state = _State.QUIESCENT
        if isinstance(exception, AuthenticationException):
            self._log.warn("Metadata update failed due to authentication error", exception)
            self._fatal_exception = exception
        elif isinstance(exception, MismatchedEndpointTypeException):
            self._log.warn("Metadata update failed due to mismatched endpoint type error", exception)
            self._fatal_exception = exception
        elif isinstance(exception, UnsupportedEndpointTypeException):
            self._log.warn("Metadata update failed due to unsupported endpoint type error", exception)
            self._fatal_exception = exception
        elif isinstance(exception, UnsupportedVersionException):
            if self._using_bootstrap_controllers:
                self._log.warn(
                    "The remote node is not a CONTROLLER that supports the KIP-919 DESCRIBE_CLUSTER api.", exception
                )
            else:
                self._log.warn("The remote node is not a BROKER that supports the METADATA api.", exception)
            self._fatal_exception = exception
        else:
            self._log.info("Metadata update failed", exception)

    def update(self, cluster: Cluster, now: int) -> None:
        if cluster.is_bootstrap_configured:
            self._log.debug(f"Setting bootstrap cluster metadata {cluster}.")
        else:
            self._log.debug(f"Updating cluster metadata to {cluster}")
            self._last_metadata_update_ms = now
        self._state = _State.QUIESCENT
        self._fatal_exception = None
        if cluster.nodes:
            self.cluster = cluster
