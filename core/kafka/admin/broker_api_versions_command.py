"""Port of core/src/main/scala/kafka/admin/BrokerApiVersionsCommand.scala (Kafka 2.8).

`kafka-broker-api-versions.sh --bootstrap-server HOST:PORT`: finds every broker of the cluster (a Metadata request
to a bootstrap server) and prints, for each, the API versions it announces in its ApiVersions response and the
version this client would use:

    localhost:9092 (id: 0 rack: null) -> (
        Produce(0): 0 to 9 [usable: 9],
        ...
    )

Like Kafka's tool it does not use the admin client (which has no call for API versions) but a small client of its
own over the network layer: a NetworkClient under a ConsumerNetworkClient, configured from `--command-config`.

# PORT: Kafka's helper runs a daemon thread (admin-client-network-thread) that polls the network while the main
thread waits on each request; here the main thread polls until its request is done, so the tool has no thread to
stop. Kafka's Cluster shuffles the brokers, so Kafka prints up to four brokers in a random order; here they are
in broker id order (five or more print in the order of the Scala Map Kafka builds, as there). An exception that
escapes Kafka's main makes the JVM print `Exception in thread "main" ...` and a stack trace; here that line and
its `Caused by:` lines, status 1. SSL and SASL settings come from `--command-config`, as the clients' do.
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Mapping, Sequence
from typing import Any, TextIO

from kafka.admin._tool_support import (
    load_command_config,
)
from kafka.clients import client_utils, common_client_configs
from kafka.clients.api_versions import ApiVersions
from kafka.clients.consumer.internals.consumer_network_client import ConsumerNetworkClient
from kafka.clients.metadata import Metadata
from kafka.clients.network_client import NetworkClient
from kafka.clients.node_api_versions import NodeApiVersions
from kafka.common.config.abstract_config import AbstractConfig
from kafka.common.config.config_def import ConfigDef, Importance, Type, ValidString
from kafka.common.errors import AuthenticationException
from kafka.common.internals.cluster_resource_listeners import ClusterResourceListeners
from kafka.common.network.selector import Selector
from kafka.common.node import Node
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_request import Builder
from kafka.common.requests.abstract_response import AbstractResponse
from kafka.common.requests.api_versions_request import ApiVersionsRequestBuilder
from kafka.common.requests.metadata_request import MetadataRequestBuilder
from kafka.common.utils.log_context import LogContext
from kafka.common.utils.time import SystemTime, Time
from kafka.common.utils.utils import java_to_string
from kafka.tools.tools_utils import run_reporting_errors, tool_main
from kafka.utils.command_line_utils import (
    CommandDefaultOptions,
    check_required_args,
    is_print_help_needed,
    is_print_version_needed,
    print_usage_and_die,
    print_version_if_needed,
)
from kafka.utils.logging import Logging
from kafka.zk.jvm_json import java_string_hash, scala_immutable_map

__all__ = ["AdminClient", "BrokerVersionCommandOptions", "execute", "main", "run_command"]


def execute(
    opts: BrokerVersionCommandOptions, out: TextIO, time: Time | None = None, admin_client: AdminClient | None = None
) -> None:
    """Prints each broker's API versions; `admin_client` replaces the one made from the options (tests)."""
    if admin_client is None:
        admin_client = _create_admin_client(opts, time)
    try:
        admin_client.await_brokers()
        broker_map = admin_client.list_all_broker_version_info()
        for broker, version_info_or_error in broker_map.items():
            if isinstance(version_info_or_error, NodeApiVersions):
                out.write(f"{broker} -> {version_info_or_error.to_string(True)}\n")
            else:
                out.write(f"{broker} -> ERROR: {java_to_string(version_info_or_error)}\n")
    finally:
        admin_client.close()


def _create_admin_client(opts: BrokerVersionCommandOptions, time: Time | None) -> AdminClient:
    options = opts.options
    props = load_command_config(
        options.value_of(opts.command_config_opt) if options.has(opts.command_config_opt) else None
    )
    props[common_client_configs.BOOTSTRAP_SERVERS_CONFIG] = options.value_of(opts.bootstrap_server_opt)
    return AdminClient.create(props, time)


class BrokerVersionCommandOptions(CommandDefaultOptions):
    """The command line of kafka-broker-api-versions.sh."""

    BOOTSTRAP_SERVER_DOC = "REQUIRED: The server to connect to."
    COMMAND_CONFIG_DOC = "A property file containing configs to be passed to Admin Client."

    def __init__(self, args: Sequence[str]) -> None:
        super().__init__(args)
        parser = self.parser
        self.command_config_opt = (
            parser.accepts("command-config", self.COMMAND_CONFIG_DOC)
            .with_required_arg()
            .described_as("command config property file")
            .of_type(str)
        )
        self.bootstrap_server_opt = (
            parser.accepts("bootstrap-server", self.BOOTSTRAP_SERVER_DOC)
            .with_required_arg()
            .described_as("server(s) to use for bootstrapping")
            .of_type(str)
        )
        self.options = parser.parse(self.args)

    def check_args(self) -> None:
        if is_print_help_needed(self):
            print_usage_and_die(self.parser, "This tool helps to retrieve broker version information.")
        if is_print_version_needed(self):
            return
        check_required_args(self.parser, self.options, self.bootstrap_server_opt)


def _node_hash(node: Node) -> int:
    """Node.hashCode."""
    result = 31 + (0 if node.host is None else java_string_hash(node.host))
    result = 31 * result + node.id
    result = 31 * result + node.port
    result = 31 * result + (0 if node.rack is None else java_string_hash(node.rack))
    result &= 0xFFFFFFFF
    return result - (1 << 32) if result & 0x80000000 else result


class AdminClient(Logging):
    """The small client of the tool: sends Metadata to a bootstrap broker and ApiVersions to each broker."""

    DEFAULT_CONNECTION_MAX_IDLE_MS = 9 * 60 * 1000
    DEFAULT_REQUEST_TIMEOUT_MS = 5000
    DEFAULT_MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION = 100
    DEFAULT_RECONNECT_BACKOFF_MS = 50
    DEFAULT_RECONNECT_BACKOFF_MAX = 50
    DEFAULT_SEND_BUFFER_BYTES = 128 * 1024
    DEFAULT_RECEIVE_BUFFER_BYTES = 32 * 1024
    DEFAULT_RETRY_BACKOFF_MS = 100

    _admin_client_id_sequence = itertools.count(1)

    ADMIN_CONFIG_DEF = (
        ConfigDef()
        .define(
            common_client_configs.BOOTSTRAP_SERVERS_CONFIG,
            Type.LIST,
            importance=Importance.HIGH,
            documentation=common_client_configs.BOOTSTRAP_SERVERS_DOC,
        )
        .define(
            common_client_configs.CLIENT_DNS_LOOKUP_CONFIG,
            Type.STRING,
            "use_all_dns_ips",
            ValidString.in_("use_all_dns_ips", "resolve_canonical_bootstrap_servers_only"),
            Importance.MEDIUM,
            common_client_configs.CLIENT_DNS_LOOKUP_DOC,
        )
        .define(
            common_client_configs.SECURITY_PROTOCOL_CONFIG,
            Type.STRING,
            common_client_configs.DEFAULT_SECURITY_PROTOCOL,
            None,
            Importance.MEDIUM,
            common_client_configs.SECURITY_PROTOCOL_DOC,
        )
        .define(
            common_client_configs.REQUEST_TIMEOUT_MS_CONFIG,
            Type.INT,
            DEFAULT_REQUEST_TIMEOUT_MS,
            None,
            Importance.MEDIUM,
            common_client_configs.REQUEST_TIMEOUT_MS_DOC,
        )
        .define(
            common_client_configs.SOCKET_CONNECTION_SETUP_TIMEOUT_MS_CONFIG,
            Type.LONG,
            common_client_configs.DEFAULT_SOCKET_CONNECTION_SETUP_TIMEOUT_MS,
            None,
            Importance.MEDIUM,
            common_client_configs.SOCKET_CONNECTION_SETUP_TIMEOUT_MS_DOC,
        )
        .define(
            common_client_configs.SOCKET_CONNECTION_SETUP_TIMEOUT_MAX_MS_CONFIG,
            Type.LONG,
            common_client_configs.DEFAULT_SOCKET_CONNECTION_SETUP_TIMEOUT_MAX_MS,
            None,
            Importance.MEDIUM,
            common_client_configs.SOCKET_CONNECTION_SETUP_TIMEOUT_MAX_MS_DOC,
        )
        .define(
            common_client_configs.RETRY_BACKOFF_MS_CONFIG,
            Type.LONG,
            DEFAULT_RETRY_BACKOFF_MS,
            None,
            Importance.MEDIUM,
            common_client_configs.RETRY_BACKOFF_MS_DOC,
        )
    )

    def __init__(
        self,
        time: Time,
        request_timeout_ms: int,
        retry_backoff_ms: int,
        client: ConsumerNetworkClient,
        bootstrap_brokers: list[Node],
        network_client: NetworkClient | None = None,
    ) -> None:
        self.time = time
        self.request_timeout_ms = request_timeout_ms
        self.retry_backoff_ms = retry_backoff_ms
        self.client = client
        self.bootstrap_brokers = bootstrap_brokers
        self._network_client = network_client

    # Logging's logger name: Kafka's class is a private class inside the Scala object.
    logger_name = "kafka.admin.BrokerApiVersionsCommand$AdminClient"

    def _send(self, target: Node, api: ApiKeys, request: Builder[Any]) -> AbstractResponse:
        del api
        future = self.client.send(target, request)
        self.client.poll_future(future)
        if future.succeeded():
            body = future.value().response_body
            assert body is not None
            return body
        raise future.exception()

    def _send_any_node(self, api: ApiKeys, request: Builder[Any]) -> AbstractResponse:
        for broker in self.bootstrap_brokers:
            try:
                return self._send(broker, api, request)
            except AuthenticationException:
                raise
            except Exception as e:
                self.debug(f"Request {api.name} failed against node {broker}", e)
        brokers = ", ".join(str(b) for b in self.bootstrap_brokers)
        raise RuntimeError(f"Request {api.name} failed on brokers List({brokers})")

    def _get_api_versions(self, node: Node) -> list[Any]:
        response: Any = self._send(node, ApiKeys.API_VERSIONS, ApiVersionsRequestBuilder())
        Errors.for_code(response.data.error_code).maybe_throw()
        return list(response.data.api_keys)

    def await_brokers(self) -> None:
        """Waits until the cluster has at least one broker."""
        while True:
            nodes = self._find_all_brokers()
            if nodes:
                return
            self.time.sleep(50)

    def _find_all_brokers(self) -> list[Node]:
        response: Any = self._send_any_node(ApiKeys.METADATA, MetadataRequestBuilder.all_topics())
        errors = response.errors()
        if errors:
            self.debug(f"Metadata request contained errors: {errors}")
        nodes = [Node(b.node_id, b.host, b.port, b.rack) for b in response.data.brokers]
        return sorted(nodes, key=lambda n: n.id)

    def list_all_broker_version_info(self) -> dict[Node, NodeApiVersions | BaseException]:
        """Each broker's API versions, or the error that kept it from answering."""
        results: list[tuple[Node, NodeApiVersions | BaseException]] = []
        for broker in self._find_all_brokers():
            try:
                results.append((broker, NodeApiVersions(self._get_api_versions(broker))))
            except Exception as e:
                results.append((broker, e))
        return scala_immutable_map(results, hash_code=lambda n: _node_hash(n))

    def close(self) -> None:
        try:
            self.client.close()
        except OSError as e:
            self.error("Exception closing nioSelector:", e)

    @classmethod
    def create(cls, props: Mapping[str, Any], time: Time | None = None) -> AdminClient:
        config = AbstractConfig(cls.ADMIN_CONFIG_DEF, props, False)
        client_id = f"admin-{next(cls._admin_client_id_sequence)}"
        log_context = LogContext(f"[LegacyAdminClient clientId={client_id}] ")
        time = time or SystemTime()
        metadata = Metadata(100, 100, 60 * 60 * 1000, log_context, ClusterResourceListeners())
        channel_builder = client_utils.create_channel_builder(config, time, log_context)
        request_timeout_ms = config.get_int(common_client_configs.REQUEST_TIMEOUT_MS_CONFIG)
        connection_setup_timeout_ms = config.get_long(common_client_configs.SOCKET_CONNECTION_SETUP_TIMEOUT_MS_CONFIG)
        connection_setup_timeout_max_ms = config.get_long(
            common_client_configs.SOCKET_CONNECTION_SETUP_TIMEOUT_MAX_MS_CONFIG
        )
        retry_backoff_ms = config.get_long(common_client_configs.RETRY_BACKOFF_MS_CONFIG)

        broker_addresses = client_utils.parse_and_validate_addresses(
            config.get_list(common_client_configs.BOOTSTRAP_SERVERS_CONFIG),
            config.get_string(common_client_configs.CLIENT_DNS_LOOKUP_CONFIG),
        )
        metadata.bootstrap(broker_addresses)

        selector = Selector(cls.DEFAULT_CONNECTION_MAX_IDLE_MS, time, log_context, channel_builder=channel_builder)
        network_client = NetworkClient(
            selector,
            metadata,
            client_id,
            cls.DEFAULT_MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION,
            cls.DEFAULT_RECONNECT_BACKOFF_MS,
            cls.DEFAULT_RECONNECT_BACKOFF_MAX,
            cls.DEFAULT_SEND_BUFFER_BYTES,
            cls.DEFAULT_RECEIVE_BUFFER_BYTES,
            request_timeout_ms,
            connection_setup_timeout_ms,
            connection_setup_timeout_max_ms,
            time,
            True,
            ApiVersions(),
            log_context,
        )
        high_level_client = ConsumerNetworkClient(
            log_context, network_client, metadata, time, retry_backoff_ms, request_timeout_ms, 2**31 - 1
        )
        return cls(
            time,
            request_timeout_ms,
            retry_backoff_ms,
            high_level_client,
            list(metadata.fetch().nodes),
            network_client,
        )


# -- entry points -------------------------------------------------------------------------------------------------


def run_command(
    args: Sequence[str],
    out: TextIO | None = None,
    err: TextIO | None = None,
    time: Time | None = None,
) -> int:
    """Parses, checks and runs a command line; returns the exit status."""
    out = out or sys.stdout
    err = err or sys.stderr

    def body() -> int:
        opts = BrokerVersionCommandOptions(args)
        opts.check_args()
        if print_version_if_needed(opts, out):
            return 0
        execute(opts, out, time)
        return 0

    return run_reporting_errors(body, err, lambda: BrokerVersionCommandOptions([]).parser)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of kafka-broker-api-versions.sh (through kafka-run-class.sh); returns the exit status."""
    return tool_main(run_command, argv)


if __name__ == "__main__":
    sys.exit(main())
