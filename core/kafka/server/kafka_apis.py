"""Port of core/src/main/scala/kafka/server/KafkaApis.scala (Kafka 2.8, with 3.7's request versions).

`KafkaApis.handle` runs on a request handler thread: it dispatches on the API key to one handler per API,
each of which answers through the request channel, at once or later from a purgatory.

What this broker serves is exactly the keys in `KafkaApis.HANDLED_APIS`, and ApiVersions advertises
those and nothing else. A request for a key the broker knows but does not serve yet (groups,
transactions, SASL, quotas: later work) is answered with UNSUPPORTED_VERSION in that API's own error
response. PORT: Kafka's SocketServer closes the connection for an API that is not enabled; answering
with the error tells the client why, which is what a client of this broker needs while APIs arrive.

There is no authorizer yet (`authorizer.class.name` is empty, Kafka's default), so every operation is
allowed, as on a Kafka broker without an authorizer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kafka.common.config.config_resource import ConfigResource
from kafka.common.errors import (
    ApiException,
    ControllerMovedException,
    InvalidRequestException,
    NotControllerException,
    UnsupportedVersionException,
)
from kafka.common.message import (
    AlterConfigsResponseData,
    DeleteRecordsResponseData,
    DescribeClusterResponseData,
    DescribeLogDirsResponseData,
    ElectLeadersResponseData,
    FetchResponseData,
    IncrementalAlterConfigsResponseData,
    InitProducerIdResponseData,
    ListOffsetsResponseData,
    MetadataResponseData,
    OffsetForLeaderEpochResponseData,
)
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.protocol.types import ZERO_UUID
from kafka.common.record.record_batch import NO_PRODUCER_EPOCH, NO_PRODUCER_ID
from kafka.common.requests.abstract_response import AbstractResponse
from kafka.common.requests.alter_configs_response import AlterConfigsResponse
from kafka.common.requests.api_versions_response import ApiVersionsResponse
from kafka.common.requests.controlled_shutdown_response import ControlledShutdownResponse
from kafka.common.requests.create_partitions_response import CreatePartitionsResponse
from kafka.common.requests.create_topics_response import CreateTopicsResponse
from kafka.common.requests.delete_records_response import DeleteRecordsResponse
from kafka.common.requests.delete_topics_response import DeleteTopicsResponse
from kafka.common.requests.describe_cluster_response import DescribeClusterResponse
from kafka.common.requests.describe_log_dirs_response import DescribeLogDirsResponse
from kafka.common.requests.elect_leaders_response import ElectLeadersResponse
from kafka.common.requests.fetch_request import IsolationLevel
from kafka.common.requests.fetch_response import FetchResponse
from kafka.common.requests.incremental_alter_configs_response import IncrementalAlterConfigsResponse
from kafka.common.requests.init_producer_id_response import InitProducerIdResponse
from kafka.common.requests.list_offsets_response import ListOffsetsResponse
from kafka.common.requests.metadata_response import MetadataResponse
from kafka.common.requests.offsets_for_leader_epoch_response import OffsetsForLeaderEpochResponse
from kafka.common.requests.produce_request import ProduceRequest
from kafka.common.requests.produce_response import PartitionResponse, ProduceResponse
from kafka.common.requests.stop_replica_response import StopReplicaResponse
from kafka.common.requests.update_metadata_response import UpdateMetadataResponse
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.time import Time
from kafka.log.log_validator import Client
from kafka.network.request_channel import NoOpResponse, Request, RequestChannel, SendResponse
from kafka.utils.logging import Logging

# ListOffsets special timestamps and the replica id of an ordinary consumer.
LATEST_TIMESTAMP = -1
EARLIEST_TIMESTAMP = -2
CONSUMER_REPLICA_ID = -1
DEBUGGING_REPLICA_ID = -2
# The client id of the admin tools, which may write to internal topics (AdminUtils.AdminClientId).
ADMIN_CLIENT_ID = "__admin_client"
# Metadata v8-10 clients that did not ask for authorized operations get this value.
AUTHORIZED_OPERATIONS_OMITTED = -(2**31)


class KafkaApis(Logging):
    """Logic to handle the various Kafka requests."""

    logger_name = "kafka.server.KafkaApis"

    def __init__(
        self,
        request_channel: RequestChannel,
        replica_manager: Any,
        admin_manager: Any,
        controller: Any,
        zk_client: Any,
        broker_id: int,
        config: Any,
        metadata_cache: Any,
        fetch_manager: Any,
        broker_topic_stats: Any,
        cluster_id: str,
        time: Time,
        api_version_manager: Any,
        auto_topic_creation_manager: Any,
        config_helper: Any,
        producer_id_manager: Any,
        broker_epoch_supplier: Callable[[], int],
    ) -> None:
        self.request_channel = request_channel
        self.replica_manager = replica_manager
        self.admin_manager = admin_manager
        self.controller = controller
        self.zk_client = zk_client
        self.broker_id = broker_id
        self.config = config
        self.metadata_cache = metadata_cache
        self.fetch_manager = fetch_manager
        self.broker_topic_stats = broker_topic_stats
        self.cluster_id = cluster_id
        self.time = time
        self.api_version_manager = api_version_manager
        self.auto_topic_creation_manager = auto_topic_creation_manager
        self.config_helper = config_helper
        self.producer_id_manager = producer_id_manager
        self.broker_epoch_supplier = broker_epoch_supplier
        self.log_ident = f"[KafkaApi-{broker_id}] "
        self._handlers: dict[ApiKeys, Callable[[Request], None]] = {
            ApiKeys.PRODUCE: self.handle_produce_request,
            ApiKeys.FETCH: self.handle_fetch_request,
            ApiKeys.LIST_OFFSETS: self.handle_list_offset_request,
            ApiKeys.METADATA: self.handle_topic_metadata_request,
            ApiKeys.LEADER_AND_ISR: self.handle_leader_and_isr_request,
            ApiKeys.STOP_REPLICA: self.handle_stop_replica_request,
            ApiKeys.UPDATE_METADATA: self.handle_update_metadata_request,
            ApiKeys.CONTROLLED_SHUTDOWN: self.handle_controlled_shutdown_request,
            ApiKeys.API_VERSIONS: self.handle_api_versions_request,
            ApiKeys.CREATE_TOPICS: self.handle_create_topics_request,
            ApiKeys.DELETE_TOPICS: self.handle_delete_topics_request,
            ApiKeys.DELETE_RECORDS: self.handle_delete_records_request,
            ApiKeys.INIT_PRODUCER_ID: self.handle_init_producer_id_request,
            ApiKeys.OFFSET_FOR_LEADER_EPOCH: self.handle_offset_for_leader_epoch_request,
            ApiKeys.DESCRIBE_CONFIGS: self.handle_describe_configs_request,
            ApiKeys.ALTER_CONFIGS: self.handle_alter_configs_request,
            ApiKeys.DESCRIBE_LOG_DIRS: self.handle_describe_log_dirs_request,
            ApiKeys.CREATE_PARTITIONS: self.handle_create_partitions_request,
            ApiKeys.ELECT_LEADERS: self.handle_elect_replica_leader,
            ApiKeys.INCREMENTAL_ALTER_CONFIGS: self.handle_incremental_alter_configs_request,
            ApiKeys.DESCRIBE_CLUSTER: self.handle_describe_cluster,
        }

    # The keys this broker serves; KafkaServer builds the ApiVersionManager from it.
    HANDLED_APIS: frozenset[ApiKeys] = frozenset(
        {
            ApiKeys.PRODUCE,
            ApiKeys.FETCH,
            ApiKeys.LIST_OFFSETS,
            ApiKeys.METADATA,
            ApiKeys.LEADER_AND_ISR,
            ApiKeys.STOP_REPLICA,
            ApiKeys.UPDATE_METADATA,
            ApiKeys.CONTROLLED_SHUTDOWN,
            ApiKeys.API_VERSIONS,
            ApiKeys.CREATE_TOPICS,
            ApiKeys.DELETE_TOPICS,
            ApiKeys.DELETE_RECORDS,
            ApiKeys.INIT_PRODUCER_ID,
            ApiKeys.OFFSET_FOR_LEADER_EPOCH,
            ApiKeys.DESCRIBE_CONFIGS,
            ApiKeys.ALTER_CONFIGS,
            ApiKeys.DESCRIBE_LOG_DIRS,
            ApiKeys.CREATE_PARTITIONS,
            ApiKeys.ELECT_LEADERS,
            ApiKeys.INCREMENTAL_ALTER_CONFIGS,
            ApiKeys.DESCRIBE_CLUSTER,
        }
    )

    def close(self) -> None:
        self.info("Shutdown complete.")

    # ---- dispatch -------------------------------------------------------------------------------------

    def handle(self, request: Request) -> None:
        """Top-level method that handles all requests and multiplexes to the right api."""
        try:
            if self.is_trace_enabled():
                self.trace(
                    f"Handling request:{request.request_desc(True)} from connection {request.context.connection_id};"
                    f"securityProtocol:{request.context.security_protocol},principal:{request.context.principal}"
                )
            api_key = request.header.api_key
            handler = self._handlers.get(api_key)
            if handler is None or not self.api_version_manager.is_version_enabled(api_key, request.header.api_version):
                self.handle_error(
                    request,
                    UnsupportedVersionException(
                        f"Received request for api key {api_key.name} with version {request.header.api_version}, "
                        "which this broker does not serve"
                    ),
                )
                return
            handler(request)
        except Exception as e:
            self.handle_error(request, e)
        finally:
            # Delayed operations that a produce or a leadership change made completable run here, on
            # this thread and with no lock held, as Kafka's action queue does.
            self.replica_manager.try_complete_actions()

    def handle_error(self, request: Request, e: BaseException) -> None:
        """Answers with the request's error response for `e`, or closes the connection when that fails."""
        if isinstance(e, ApiException):
            self.debug(f"Error when handling request: {request.request_desc(True)}: {e}")
        else:
            self.error(f"Error when handling request: {request.request_desc(True)}", e)
        try:
            response = request.body.get_error_response(0, e)
        except Exception as inner:
            self.error(f"Could not build the error response of {request.request_desc(False)}", inner)
            self.request_channel.close_connection(request, {})
            return
        if response is None:
            self.request_channel.close_connection(request, {Errors.for_exception(e): 1})
        else:
            self.send_response(request, response)

    def send_response(self, request: Request, response: AbstractResponse | None) -> None:
        """Sends `response`, or a no-op (nothing goes back) when it is None."""
        if response is None:
            self.request_channel.send_response(NoOpResponse(request))
            return
        self.request_channel.send_response(
            SendResponse(request, request.build_response_send(response), request.response_node(response), None)
        )

    def send_error_response(self, request: Request, e: BaseException) -> None:
        self.send_response(request, request.body.get_error_response(0, e))

    # ---- ApiVersions ----------------------------------------------------------------------------------

    def handle_api_versions_request(self, request: Request) -> None:
        api_versions_request: Any = request.body
        if api_versions_request.has_unsupported_request_version():
            # The client is newer than us: answer in the v0 layout it can read, listing what we serve.
            response = self.api_version_manager.api_version_response(0)
            response.data.error_code = Errors.UNSUPPORTED_VERSION.code
            self.send_response(request, response)
        elif not api_versions_request.is_valid():
            self.send_response(request, api_versions_request.get_error_response(0, InvalidRequestException()))
        else:
            self.send_response(request, self.api_version_manager.api_version_response(0))

    # ---- Metadata -------------------------------------------------------------------------------------

    def handle_topic_metadata_request(self, request: Request) -> None:
        metadata_request: Any = request.body
        version = request.header.api_version
        listener = request.context.listener_name
        data = metadata_request.data

        # Topic ids in requests are not served by ZooKeeper-mode brokers (as in 3.7).
        if any(t.topic_id != ZERO_UUID for t in (data.topics or [])):
            self.send_error_response(
                request, InvalidRequestException("Topic IDs are not supported in metadata requests")
            )
            return

        all_topics = metadata_request.is_all_topics()
        topics = self.metadata_cache.get_all_topics() if all_topics else set(metadata_request.topics())

        error_unavailable_endpoints = version == 0
        error_unavailable_listeners = version >= 6
        known = [t for t in topics if self.metadata_cache.contains(t)]
        topic_metadata = (
            self.metadata_cache.get_topic_metadata(
                known, listener, error_unavailable_endpoints, error_unavailable_listeners
            )
            if known
            else []
        )
        known_set = set(known)
        unknown = [t for t in topics if t not in known_set] if not all_topics else []
        unknown_metadata: list[Any] = []
        if unknown:
            allow_auto = self.config.auto_create_topics_enable and metadata_request.allow_auto_topic_creation()
            if allow_auto:
                unknown_metadata = list(self.auto_topic_creation_manager.create_topics(set(unknown), None))
            else:
                error = Errors.UNKNOWN_TOPIC_OR_PARTITION
                unknown_metadata = [_metadata_topic(t, error, self._is_internal(t)) for t in unknown]

        response_data = MetadataResponseData(
            throttle_time_ms=0,
            cluster_id=self.cluster_id,
            controller_id=_or_minus_one(self.metadata_cache.get_controller_id()),
            cluster_authorized_operations=AUTHORIZED_OPERATIONS_OMITTED,
        )
        for node in self.metadata_cache.get_alive_broker_nodes(listener):
            response_data.brokers.append(
                MetadataResponseData.MetadataResponseBroker(
                    node_id=node.id, host=node.host, port=node.port, rack=node.rack
                )
            )
        for t in topic_metadata + unknown_metadata:
            t.topic_authorized_operations = AUTHORIZED_OPERATIONS_OMITTED
            response_data.topics.append(t)
        self.trace(
            f"Sending topic metadata for correlation id {request.header.correlation_id} to client "
            f"{request.header.client_id}"
        )
        self.send_response(request, MetadataResponse(response_data, version))

    def _is_internal(self, topic: str) -> bool:
        return topic in ("__consumer_offsets", "__transaction_state")

    # ---- Produce --------------------------------------------------------------------------------------

    def handle_produce_request(self, request: Request) -> None:
        produce_request: Any = request.body
        version = request.header.api_version
        if produce_request.transactional_id is not None:
            # Transactions arrive with the transaction coordinator; until then a transactional producer is
            # told that this broker does not serve them.
            self.send_error_response(
                request, UnsupportedVersionException("Transactional produce is not supported by this broker yet")
            )
            return

        non_existing: dict[TopicPartition, PartitionResponse] = {}
        invalid: dict[TopicPartition, PartitionResponse] = {}
        authorized: dict[TopicPartition, Any] = {}
        for topic in produce_request.data.topic_data:
            for partition in topic.partition_data:
                tp = TopicPartition(topic.name, partition.index)
                records = partition.records
                if not self.metadata_cache.contains(tp):
                    non_existing[tp] = PartitionResponse(Errors.UNKNOWN_TOPIC_OR_PARTITION)
                    continue
                try:
                    ProduceRequest.validate_records(version, records)
                    authorized[tp] = records
                except ApiException as e:
                    invalid[tp] = PartitionResponse(Errors.for_exception(e))

        def send_response_callback(response_status: dict[TopicPartition, PartitionResponse]) -> None:
            merged = {**response_status, **non_existing, **invalid}
            error_in_response = False
            for tp, status in merged.items():
                if status.error is not Errors.NONE:
                    error_in_response = True
                    self.debug(
                        f"Produce request with correlation id {request.header.correlation_id} from client "
                        f"{request.header.client_id} on partition {tp} failed due to {status.error.exception_name()}"
                    )
            if produce_request.acks == 0:
                if error_in_response:
                    summary = ", ".join(f"{tp} -> {s.error.exception_name()}" for tp, s in merged.items())
                    self.info(
                        f"Closing connection due to error during produce request with correlation id "
                        f"{request.header.correlation_id} from client id {request.header.client_id} with ack=0\n"
                        f"Topic and partition to exceptions: {summary}"
                    )
                    errors: dict[Errors, int] = {}
                    for s in merged.values():
                        errors[s.error] = errors.get(s.error, 0) + 1
                    self.request_channel.close_connection(request, errors)
                else:
                    self.request_channel.send_response(NoOpResponse(request))
            else:
                responses = {(tp.topic, tp.partition): s for tp, s in merged.items()}
                self.send_response(request, ProduceResponse.from_partition_responses(responses, 0))

        if not authorized:
            send_response_callback({})
            return
        self.replica_manager.append_records(
            timeout=produce_request.timeout,
            required_acks=produce_request.acks,
            internal_topics_allowed=request.header.client_id == ADMIN_CLIENT_ID,
            origin=Client(),
            entries_per_partition=authorized,
            response_callback=send_response_callback,
        )
        # The records are in the log now: the request no longer needs to hold them.
        produce_request.clear_partition_records()

    # ---- Fetch ----------------------------------------------------------------------------------------

    def handle_fetch_request(self, request: Request) -> None:
        fetch_request: Any = request.body
        version = request.header.api_version
        topic_names = self.metadata_cache.topic_ids_to_names() if version >= 13 else {}
        fetch_data = fetch_request.fetch_data(topic_names)
        forgotten = fetch_request.forgotten_topics(topic_names)
        context = self.fetch_manager.new_context(
            version, fetch_request.metadata(), fetch_request.is_from_follower(), fetch_data, forgotten, topic_names
        )

        erroneous: list[tuple[Any, Any]] = []
        interesting: list[tuple[Any, Any]] = []

        def classify(tip: Any, data: Any) -> None:
            _, topic, partition = tip
            if topic is None:
                erroneous.append((tip, FetchResponse.partition_response(partition, Errors.UNKNOWN_TOPIC_ID)))
            elif not self.metadata_cache.contains(TopicPartition(topic, partition)):
                erroneous.append((tip, FetchResponse.partition_response(partition, Errors.UNKNOWN_TOPIC_OR_PARTITION)))
            else:
                interesting.append((tip, data))

        context.foreach_partition(classify)

        def maybe_down_convert_storage_error(error: Errors) -> Errors:
            return Errors.NOT_LEADER_OR_FOLLOWER if error is Errors.KAFKA_STORAGE_ERROR and version <= 5 else error

        def maybe_convert(tip: Any, partition_data: Any) -> Any:
            """Down-converts records for fetch versions that cannot read the log's format (v0-v3)."""
            tp = TopicPartition(tip[1], tip[2])
            log_config = self.replica_manager.get_log_config(tp)
            if log_config is not None and str(log_config.compression_type) == "zstd" and version < 10:
                return FetchResponse.partition_response(tip[2], Errors.UNSUPPORTED_COMPRESSION_TYPE)
            target_magic = 0 if version <= 1 else 1 if version <= 3 else None
            if target_magic is None or partition_data.records is None:
                return partition_data
            records = FetchResponse.records_or_fail(partition_data)
            if not any(b.magic() > target_magic for b in records.batches()):
                return partition_data
            if log_config is not None and not log_config.message_down_conversion_enable:
                return FetchResponse.partition_response(tip[2], Errors.UNSUPPORTED_VERSION)
            fetch_offset = context.get_fetch_offset(tip) or 0
            try:
                converted = records.down_convert(target_magic, fetch_offset, self.time)
            except ApiException as e:
                self.trace(f"Received {e} during down-conversion of {tp}")
                return FetchResponse.partition_response(tip[2], Errors.for_exception(e))
            partition_data.records = converted.records
            return partition_data

        def process_response_callback(response_partition_data: list[tuple[Any, Any]]) -> None:
            partitions: dict[Any, Any] = {}
            for tip, data in response_partition_data:
                pd = FetchResponseData.PartitionData(
                    partition_index=tip[2],
                    error_code=maybe_down_convert_storage_error(data.error).code,
                    high_watermark=data.high_watermark,
                    last_stable_offset=data.last_stable_offset if data.last_stable_offset is not None else -1,
                    log_start_offset=data.log_start_offset,
                    aborted_transactions=data.aborted_transactions,
                    records=data.records,
                    preferred_read_replica=(
                        data.preferred_read_replica if data.preferred_read_replica is not None else -1
                    ),
                )
                if data.diverging_epoch is not None:
                    pd.diverging_epoch = data.diverging_epoch
                partitions[tip] = pd
            for tip, pd in erroneous:
                partitions[tip] = pd
            unconverted = context.update_and_generate_response_data(partitions)
            if version >= 10 and not self.is_debug_enabled():
                # Nothing to convert: v10+ reads every record format and zstd. Send what the session built,
                # rather than building the whole response a second time as Kafka does.
                self.send_response(request, unconverted)
                return
            converted: dict[Any, Any] = {}
            for topic_response in unconverted.data.responses:
                for p in topic_response.partitions:
                    tip = (
                        topic_response.topic_id,
                        topic_response.topic or topic_names.get(topic_response.topic_id),
                        p.partition_index,
                    )
                    error = Errors.for_code(p.error_code)
                    if error is not Errors.NONE:
                        self.debug(
                            f"Fetch request with correlation id {request.header.correlation_id} from client "
                            f"{request.header.client_id} on partition {tip[1]}-{tip[2]} failed due to "
                            f"{error.exception_name()}"
                        )
                    converted[tip] = maybe_convert(tip, p)
            response = FetchResponse.of(unconverted.error(), 0, unconverted.session_id(), converted)
            self.send_response(request, response)

        if not interesting:
            process_response_callback([])
            return
        fetch_max_bytes = min(fetch_request.max_bytes(), self.config.fetch_max_bytes)
        fetch_min_bytes = min(fetch_request.min_bytes(), fetch_max_bytes)
        # The replica manager speaks TopicPartition; the response is keyed as the request was (with ids).
        keys = {TopicPartition(tip[1], tip[2]): tip for tip, _ in interesting}
        self.replica_manager.fetch_messages(
            fetch_request.max_wait(),
            fetch_request.replica_id(),
            fetch_min_bytes,
            fetch_max_bytes,
            version <= 2,
            [(tp, data) for tp, (_, data) in zip(keys, interesting)],
            None,
            lambda results: process_response_callback([(keys[tp], data) for tp, data in results]),
            fetch_request.isolation_level(),
            None,
        )

    # ---- ListOffsets ----------------------------------------------------------------------------------

    def handle_list_offset_request(self, request: Request) -> None:
        version = request.header.api_version
        offset_request: Any = request.body
        data = offset_request.data
        replica_id = data.replica_id
        is_from_consumer = replica_id == CONSUMER_REPLICA_ID
        fetch_only_from_leader = replica_id != DEBUGGING_REPLICA_ID
        isolation = IsolationLevel.for_id(data.isolation_level) if is_from_consumer else None
        response_data = ListOffsetsResponseData(throttle_time_ms=0)
        for topic in data.topics:
            topic_response = ListOffsetsResponseData.ListOffsetsTopicResponse(name=topic.name)
            for partition in topic.partitions:
                tp = TopicPartition(topic.name, partition.partition_index)
                result = ListOffsetsResponseData.ListOffsetsPartitionResponse(partition_index=tp.partition)
                try:
                    if not self.metadata_cache.contains(tp):
                        result.error_code = Errors.UNKNOWN_TOPIC_OR_PARTITION.code
                    elif version == 0:
                        offsets = self.replica_manager.legacy_fetch_offsets_for_timestamp(
                            tp, partition.timestamp, partition.max_num_offsets, is_from_consumer, fetch_only_from_leader
                        )
                        result.old_style_offsets = offsets
                    else:
                        leader_epoch = partition.current_leader_epoch
                        found = self.replica_manager.fetch_offset_for_timestamp(
                            tp,
                            partition.timestamp,
                            isolation,
                            None if leader_epoch == -1 else leader_epoch,
                            fetch_only_from_leader,
                        )
                        if found is None:
                            result.timestamp = -1
                            result.offset = -1
                        else:
                            result.timestamp = found.timestamp
                            result.offset = found.offset
                            if found.leader_epoch is not None and version >= 4:
                                result.leader_epoch = found.leader_epoch
                except ApiException as e:
                    error = Errors.for_exception(e)
                    self.debug(
                        f"Offset request with correlation id {request.header.correlation_id} from client "
                        f"{request.header.client_id} on partition {tp} failed due to {error.exception_name()}"
                    )
                    result.error_code = error.code
                    result.timestamp = -1
                    result.offset = -1
                topic_response.partitions.append(result)
            response_data.topics.append(topic_response)
        self.send_response(request, ListOffsetsResponse(response_data))

    # ---- OffsetForLeaderEpoch -------------------------------------------------------------------------

    def handle_offset_for_leader_epoch_request(self, request: Request) -> None:
        body: Any = request.body
        topics = body.data.topics
        results = self.replica_manager.last_offset_for_leader_epoch(topics)
        response_data = OffsetForLeaderEpochResponseData(throttle_time_ms=0)
        response_data.topics.extend(results)
        self.send_response(request, OffsetsForLeaderEpochResponse(response_data))

    # ---- Inter-broker ---------------------------------------------------------------------------------

    def _is_broker_epoch_stale(self, broker_epoch_in_request: int) -> bool:
        """A request from a controller that knew an older registration of this broker (KIP-380)."""
        if broker_epoch_in_request == -1:
            return False
        return broker_epoch_in_request < self.broker_epoch_supplier()

    def handle_leader_and_isr_request(self, request: Request) -> None:
        correlation_id = request.header.correlation_id
        leader_and_isr_request: Any = request.body
        if self._is_broker_epoch_stale(leader_and_isr_request.broker_epoch()):
            self.info(
                f"Received LeaderAndIsr request with broker epoch {leader_and_isr_request.broker_epoch()} smaller "
                f"than the current broker epoch {self.broker_epoch_supplier()}"
            )
            self.send_error_response(request, _stale_broker_epoch())
            return
        response = self.replica_manager.become_leader_or_follower(
            correlation_id, leader_and_isr_request, lambda leaders, followers: None
        )
        self.send_response(request, response)

    def handle_stop_replica_request(self, request: Request) -> None:
        stop_replica_request: Any = request.body
        if self._is_broker_epoch_stale(stop_replica_request.broker_epoch()):
            self.info(
                f"Received StopReplica request with broker epoch {stop_replica_request.broker_epoch()} smaller than "
                f"the current broker epoch {self.broker_epoch_supplier()}"
            )
            self.send_error_response(request, _stale_broker_epoch())
            return
        partition_states = {
            TopicPartition(topic, partition): state
            for (topic, partition), state in stop_replica_request.partition_states().items()
        }
        result, error = self.replica_manager.stop_replicas(
            request.header.correlation_id,
            stop_replica_request.controller_id(),
            stop_replica_request.controller_epoch(),
            stop_replica_request.broker_epoch(),
            partition_states,
        )
        from kafka.common.message import StopReplicaResponseData

        response_data = StopReplicaResponseData(error_code=error.code)
        for tp, partition_error in result.items():
            response_data.partition_errors.append(
                StopReplicaResponseData.StopReplicaPartitionError(
                    topic_name=tp.topic, partition_index=tp.partition, error_code=partition_error.code
                )
            )
        self.send_response(request, StopReplicaResponse(response_data))
        self.replica_manager.replica_fetcher_manager.shutdown_idle_fetcher_threads()

    def handle_update_metadata_request(self, request: Request) -> None:
        correlation_id = request.header.correlation_id
        update_metadata_request: Any = request.body
        from kafka.common.message import UpdateMetadataResponseData

        if self._is_broker_epoch_stale(update_metadata_request.broker_epoch()):
            self.info(
                f"Received update metadata request with broker epoch {update_metadata_request.broker_epoch()} smaller "
                f"than the current broker epoch {self.broker_epoch_supplier()}"
            )
            self.send_response(
                request, UpdateMetadataResponse(UpdateMetadataResponseData(error_code=Errors.STALE_BROKER_EPOCH.code))
            )
            return
        try:
            deleted = self.replica_manager.maybe_update_metadata_cache(correlation_id, update_metadata_request)
        except ControllerMovedException as e:
            self.send_error_response(request, e)
            return
        if deleted:
            self.debug(f"Partitions deleted from the metadata cache: {', '.join(str(tp) for tp in deleted)}")
        if self.admin_manager.has_delayed_topic_operations:
            for topic in {p.topic_name for p in update_metadata_request.partition_states()}:
                self.admin_manager.try_complete_delayed_topic_operations(topic)
        self.send_response(request, UpdateMetadataResponse(UpdateMetadataResponseData(error_code=Errors.NONE.code)))

    def handle_controlled_shutdown_request(self, request: Request) -> None:
        controlled_shutdown_request: Any = request.body
        data = controlled_shutdown_request.data

        def callback(result: Any) -> None:
            from kafka.common.message import ControlledShutdownResponseData

            response_data = ControlledShutdownResponseData()
            if isinstance(result, BaseException):
                response_data.error_code = Errors.for_exception(result).code
            else:
                response_data.error_code = Errors.NONE.code
                for tp in result:
                    response_data.remaining_partitions.append(
                        ControlledShutdownResponseData.RemainingPartition(
                            topic_name=tp.topic, partition_index=tp.partition
                        )
                    )
            self.send_response(request, ControlledShutdownResponse(response_data))

        self.controller.controlled_shutdown(data.broker_id, data.broker_epoch, callback)

    # ---- Admin: topics --------------------------------------------------------------------------------

    def handle_create_topics_request(self, request: Request) -> None:
        create_topics_request: Any = request.body
        data = create_topics_request.data
        version = request.header.api_version
        from kafka.common.message import CreateTopicsResponseData

        results = CreateTopicsResponseData.CreatableTopicResultCollection()
        if not self.controller.is_active:
            for topic in data.topics:
                results.append(
                    CreateTopicsResponseData.CreatableTopicResult(
                        name=topic.name, error_code=Errors.NOT_CONTROLLER.code
                    )
                )
            self.send_response(request, CreateTopicsResponse(CreateTopicsResponseData(topics=results)))
            return
        seen: set[str] = set()
        duplicates: set[str] = set()
        for topic in data.topics:
            if topic.name in seen:
                duplicates.add(topic.name)
            seen.add(topic.name)
        to_create = {t.name: t for t in data.topics if t.name not in duplicates}
        for name in sorted(duplicates):
            results.append(
                CreateTopicsResponseData.CreatableTopicResult(
                    name=name,
                    error_code=Errors.INVALID_REQUEST.code,
                    error_message=f"Create topics request from client `{request.header.client_id}` contains multiple "
                    f"entries for the following topics: {', '.join(sorted(duplicates))}",
                )
            )

        # One result per topic, filled in place with configs, partitions and replication factor (v5+).
        include = {name: CreateTopicsResponseData.CreatableTopicResult(name=name) for name in to_create}

        def send_callback(errors: dict[str, Any]) -> None:
            for name, result in include.items():
                api_error = errors.get(name)
                if api_error is not None:
                    result.error_code = api_error.error.code
                    result.error_message = api_error.message
                    if api_error.error is not Errors.NONE:
                        # As 2.8: a failed topic reports no configs and -1 counts.
                        result.configs = None if version >= 5 else result.configs
                        result.num_partitions = -1
                        result.replication_factor = -1
                results.append(result)
            self.send_response(
                request, CreateTopicsResponse(CreateTopicsResponseData(throttle_time_ms=0, topics=results))
            )

        self.admin_manager.create_topics(
            data.timeout_ms, data.validate_only, to_create, include if version >= 5 else {}, None, send_callback
        )

    def handle_delete_topics_request(self, request: Request) -> None:
        delete_topics_request: Any = request.body
        from kafka.common.message import DeleteTopicsResponseData

        data = delete_topics_request.data
        names = delete_topics_request.topic_names()
        results = DeleteTopicsResponseData.DeletableTopicResultCollection()
        if not self.controller.is_active:
            for name in names:
                results.append(
                    DeleteTopicsResponseData.DeletableTopicResult(name=name, error_code=Errors.NOT_CONTROLLER.code)
                )
            self.send_response(request, DeleteTopicsResponse(DeleteTopicsResponseData(responses=results)))
            return
        if not self.config.delete_topic_enable:
            error = Errors.TOPIC_DELETION_DISABLED if request.header.api_version >= 3 else Errors.INVALID_REQUEST
            for name in names:
                results.append(DeleteTopicsResponseData.DeletableTopicResult(name=name, error_code=error.code))
            self.send_response(request, DeleteTopicsResponse(DeleteTopicsResponseData(responses=results)))
            return
        to_delete: list[str] = []
        for name in names:
            if name is None:
                results.append(
                    DeleteTopicsResponseData.DeletableTopicResult(name=None, error_code=Errors.UNKNOWN_TOPIC_ID.code)
                )
            elif not self.metadata_cache.contains(name):
                results.append(
                    DeleteTopicsResponseData.DeletableTopicResult(
                        name=name, error_code=Errors.UNKNOWN_TOPIC_OR_PARTITION.code
                    )
                )
            else:
                to_delete.append(name)

        def send_callback(deleted: dict[str, Errors]) -> None:
            for name, error in deleted.items():
                results.append(
                    DeleteTopicsResponseData.DeletableTopicResult(
                        name=name, error_code=error.code, topic_id=self.metadata_cache.get_topic_id(name)
                    )
                )
            self.send_response(
                request, DeleteTopicsResponse(DeleteTopicsResponseData(throttle_time_ms=0, responses=results))
            )

        if not to_delete:
            send_callback({})
        else:
            self.admin_manager.delete_topics(data.timeout_ms, set(to_delete), None, send_callback)

    def handle_create_partitions_request(self, request: Request) -> None:
        create_partitions_request: Any = request.body
        data = create_partitions_request.data
        from kafka.common.message import CreatePartitionsResponseData

        results: list[Any] = []
        if not self.controller.is_active:
            for topic in data.topics:
                results.append(
                    CreatePartitionsResponseData.CreatePartitionsTopicResult(
                        name=topic.name, error_code=Errors.NOT_CONTROLLER.code
                    )
                )
            self.send_response(request, CreatePartitionsResponse(CreatePartitionsResponseData(results=results)))
            return
        seen: set[str] = set()
        dupes: set[str] = set()
        for topic in data.topics:
            (dupes if topic.name in seen else seen).add(topic.name)
        valid = {t.name: t for t in data.topics if t.name not in dupes}
        for name in dupes:
            results.append(
                CreatePartitionsResponseData.CreatePartitionsTopicResult(
                    name=name, error_code=Errors.INVALID_REQUEST.code, error_message="Duplicate topic in request."
                )
            )

        def send_callback(outcome: dict[str, Any]) -> None:
            for name, api_error in outcome.items():
                results.append(
                    CreatePartitionsResponseData.CreatePartitionsTopicResult(
                        name=name, error_code=api_error.error.code, error_message=api_error.message
                    )
                )
            self.send_response(
                request, CreatePartitionsResponse(CreatePartitionsResponseData(throttle_time_ms=0, results=results))
            )

        self.admin_manager.create_partitions(
            data.timeout_ms, list(valid.values()), data.validate_only, None, send_callback
        )

    # ---- Admin: configs -------------------------------------------------------------------------------

    def handle_describe_configs_request(self, request: Request) -> None:
        describe_configs_request: Any = request.body
        data = describe_configs_request.data
        results = self.config_helper.describe_configs(data.resources, data.include_synonyms, data.include_documentation)
        from kafka.common.message import DescribeConfigsResponseData
        from kafka.common.requests.describe_configs_response import DescribeConfigsResponse

        self.send_response(
            request, DescribeConfigsResponse(DescribeConfigsResponseData(throttle_time_ms=0, results=results))
        )

    def handle_alter_configs_request(self, request: Request) -> None:
        data: Any = request.body.data
        configs = {_config_resource(r): {c.name: c.value for c in r.configs} for r in data.resources}
        outcome = self.admin_manager.alter_configs(configs, data.validate_only)
        response_data = AlterConfigsResponseData(throttle_time_ms=0)
        response_data.responses.extend(
            _alter_configs_results(AlterConfigsResponseData.AlterConfigsResourceResponse, outcome)
        )
        self.send_response(request, AlterConfigsResponse(response_data))

    def handle_incremental_alter_configs_request(self, request: Request) -> None:
        data: Any = request.body.data
        configs = {_config_resource(r): list(r.configs) for r in data.resources}
        outcome = self.admin_manager.incremental_alter_configs(configs, data.validate_only)
        response_data = IncrementalAlterConfigsResponseData(throttle_time_ms=0)
        response_data.responses.extend(
            _alter_configs_results(IncrementalAlterConfigsResponseData.AlterConfigsResourceResponse, outcome)
        )
        self.send_response(request, IncrementalAlterConfigsResponse(response_data))

    # ---- Admin: records, log dirs, leaders, cluster ---------------------------------------------------

    def handle_delete_records_request(self, request: Request) -> None:
        delete_records_request: Any = request.body
        data = delete_records_request.data
        non_existing: dict[TopicPartition, Any] = {}
        to_delete: dict[TopicPartition, int] = {}
        for topic in data.topics:
            for partition in topic.partitions:
                tp = TopicPartition(topic.name, partition.partition_index)
                if not self.metadata_cache.contains(tp):
                    non_existing[tp] = DeleteRecordsResponseData.DeleteRecordsPartitionResult(
                        partition_index=tp.partition,
                        low_watermark=-1,
                        error_code=Errors.UNKNOWN_TOPIC_OR_PARTITION.code,
                    )
                else:
                    to_delete[tp] = partition.offset

        def send_callback(results: dict[TopicPartition, Any]) -> None:
            merged = {**results, **non_existing}
            response_data = DeleteRecordsResponseData(throttle_time_ms=0)
            for tp, result in merged.items():
                topic_result = response_data.topics.find(tp.topic)
                if topic_result is None:
                    topic_result = DeleteRecordsResponseData.DeleteRecordsTopicResult(name=tp.topic)
                    response_data.topics.append(topic_result)
                result.partition_index = tp.partition
                topic_result.partitions.append(result)
            self.send_response(request, DeleteRecordsResponse(response_data))

        if not to_delete:
            send_callback({})
        else:
            self.replica_manager.delete_records(data.timeout_ms, to_delete, send_callback)

    def handle_describe_log_dirs_request(self, request: Request) -> None:
        describe_request: Any = request.body
        data = describe_request.data
        if data.topics is None:
            partitions = [p.topic_partition for p in self.replica_manager.online_partitions()]
        else:
            partitions = [TopicPartition(t.topic, p) for t in data.topics for p in t.partitions]
        results = self.replica_manager.describe_log_dirs(partitions)
        response_data = DescribeLogDirsResponseData(throttle_time_ms=0, results=results)
        self.send_response(request, DescribeLogDirsResponse(response_data))

    def handle_elect_replica_leader(self, request: Request) -> None:
        elect_request: Any = request.body
        data = elect_request.data
        if not self.controller.is_active:
            self.send_error_response(request, NotControllerException("This broker is not the controller"))
            return
        partitions = (
            None
            if data.topic_partitions is None
            else {TopicPartition(t.topic, p) for t in data.topic_partitions for p in t.partitions}
        )

        def send_callback(results: dict[TopicPartition, Any]) -> None:
            response_data = ElectLeadersResponseData(throttle_time_ms=0, error_code=Errors.NONE.code)
            by_topic: dict[str, Any] = {}
            for tp, api_error in results.items():
                entry = by_topic.get(tp.topic)
                if entry is None:
                    entry = ElectLeadersResponseData.ReplicaElectionResult(topic=tp.topic)
                    by_topic[tp.topic] = entry
                    response_data.replica_election_results.append(entry)
                entry.partition_result.append(
                    ElectLeadersResponseData.PartitionResult(
                        partition_id=tp.partition, error_code=api_error.error.code, error_message=api_error.message
                    )
                )
            self.send_response(request, ElectLeadersResponse(response_data))

        # ElectLeaders v0 has no election type: it asks for the preferred leader (0).
        election_type = data.election_type if request.header.api_version >= 1 else 0
        self.controller.elect_leaders(partitions, election_type, send_callback)

    def handle_describe_cluster(self, request: Request) -> None:
        listener = request.context.listener_name
        response_data = DescribeClusterResponseData(
            throttle_time_ms=0,
            cluster_id=self.cluster_id,
            controller_id=_or_minus_one(self.metadata_cache.get_controller_id()),
            cluster_authorized_operations=AUTHORIZED_OPERATIONS_OMITTED,
        )
        for node in self.metadata_cache.get_alive_broker_nodes(listener):
            response_data.brokers.append(
                DescribeClusterResponseData.DescribeClusterBroker(
                    broker_id=node.id, host=node.host, port=node.port, rack=node.rack
                )
            )
        self.send_response(request, DescribeClusterResponse(response_data))

    # ---- InitProducerId -------------------------------------------------------------------------------

    def handle_init_producer_id_request(self, request: Request) -> None:
        init_request: Any = request.body
        data = init_request.data
        if data.transactional_id is not None:
            self.send_error_response(
                request, UnsupportedVersionException("Transactional producers are not supported by this broker yet")
            )
            return
        if (data.producer_id == NO_PRODUCER_ID) != (data.producer_epoch == NO_PRODUCER_EPOCH):
            self.send_error_response(
                request, InvalidRequestException("Both producer id and epoch must be -1, or both set")
            )
            return
        # An idempotent producer gets a fresh id with epoch 0 (also when it asks to bump its epoch: without
        # a transactional id there is no state to fence, as in Kafka's coordinator).
        producer_id = self.producer_id_manager.generate_producer_id()
        response_data = InitProducerIdResponseData(
            throttle_time_ms=0, error_code=Errors.NONE.code, producer_id=producer_id, producer_epoch=0
        )
        self.send_response(request, InitProducerIdResponse(response_data))


def _config_resource(resource: Any) -> ConfigResource:
    """The ConfigResource an AlterConfigs or IncrementalAlterConfigs request entry names."""
    return ConfigResource(ConfigResource.Type.for_id(resource.resource_type), resource.resource_name)


def _alter_configs_results(entry_class: Any, outcome: dict[ConfigResource, Any]) -> list[Any]:
    """One response entry per resource of an (incremental) alter-configs outcome; both APIs share the shape."""
    return [
        entry_class(
            error_code=api_error.error.code,
            error_message=api_error.message,
            resource_type=resource.type.id,
            resource_name=resource.name,
        )
        for resource, api_error in outcome.items()
    ]


def _or_minus_one(value: int | None) -> int:
    return -1 if value is None else value


def _stale_broker_epoch() -> ApiException:
    from kafka.common.errors import StaleBrokerEpochException

    return StaleBrokerEpochException()


def _metadata_topic(name: str, error: Errors, is_internal: bool) -> Any:
    return MetadataResponseData.MetadataResponseTopic(error_code=error.code, name=name, is_internal=is_internal)


__all__ = ["ApiVersionsResponse", "KafkaApis"]
