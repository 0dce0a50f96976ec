"""Unit tests of KafkaAdminClient over a MockClient and a MockTime (the substance of Java's KafkaAdminClientTest):
node choice (controller, a given broker, the least loaded one, coordinators and leaders), retries with backoff,
timeouts, version fallbacks, quota retries, and how responses become results."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from kafka.clients.admin.admin import UnsupportedOperationException
from kafka.clients.admin.alter_client_quotas_options import AlterClientQuotasOptions
from kafka.clients.admin.alter_config_op import AlterConfigOp, OpType
from kafka.clients.admin.config_entry import ConfigEntry, ConfigSource
from kafka.clients.admin.create_topics_options import CreateTopicsOptions
from kafka.clients.admin.delete_records_options import DeleteRecordsOptions
from kafka.clients.admin.describe_configs_options import DescribeConfigsOptions
from kafka.clients.admin.kafka_admin_client import KafkaAdminClient
from kafka.clients.admin.list_consumer_group_offsets_spec import ListConsumerGroupOffsetsSpec
from kafka.clients.admin.list_consumer_groups_options import ListConsumerGroupsOptions
from kafka.clients.admin.list_topics_options import ListTopicsOptions
from kafka.clients.admin.new_partitions import NewPartitions
from kafka.clients.admin.new_topic import NewTopic
from kafka.clients.admin.offset_spec import OffsetSpec
from kafka.clients.admin.records_to_delete import RecordsToDelete
from kafka.clients.consumer.consumer_partition_assignor import Assignment
from kafka.clients.consumer.internals import consumer_protocol
from kafka.clients.consumer.offset_and_metadata import OffsetAndMetadata
from kafka.clients.node_api_versions import NodeApiVersions
from kafka.common.config.config_exception import ConfigException
from kafka.common.config.config_resource import ConfigResource
from kafka.common.consumer_group_state import ConsumerGroupState
from kafka.common.election_type import ElectionType
from kafka.common.errors import (
    ClusterAuthorizationException,
    DisconnectException,
    ElectionNotNeededException,
    GroupIdNotFoundException,
    InvalidRequestException,
    InvalidTopicException,
    NotControllerException,
    ThrottlingQuotaExceededException,
    TimeoutException,
    TopicExistsException,
    UnknownTopicOrPartitionException,
    UnsupportedVersionException,
)
from kafka.common.kafka_future import ExecutionException, KafkaFuture
from kafka.common.message import (
    CreatePartitionsResponseData,
    CreateTopicsResponseData,
    DeleteRecordsResponseData,
    DeleteTopicsResponseData,
    DescribeClientQuotasResponseData,
    DescribeClusterResponseData,
    DescribeConfigsResponseData,
    DescribeGroupsResponseData,
    ElectLeadersResponseData,
    IncrementalAlterConfigsResponseData,
    ListGroupsResponseData,
    ListOffsetsResponseData,
    OffsetCommitResponseData,
    OffsetDeleteResponseData,
    OffsetFetchResponseData,
)
from kafka.common.node import Node
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.protocol.types import Uuid
from kafka.common.quota import ClientQuotaAlteration, ClientQuotaEntity, ClientQuotaFilter, ClientQuotaFilterComponent
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.alter_client_quotas_response import AlterClientQuotasResponse
from kafka.common.requests.api_error import ApiError
from kafka.common.requests.create_partitions_response import CreatePartitionsResponse
from kafka.common.requests.create_topics_response import CreateTopicsResponse
from kafka.common.requests.delete_records_response import DeleteRecordsResponse
from kafka.common.requests.delete_topics_response import DeleteTopicsResponse
from kafka.common.requests.describe_client_quotas_response import DescribeClientQuotasResponse
from kafka.common.requests.describe_cluster_response import DescribeClusterResponse
from kafka.common.requests.describe_configs_response import DescribeConfigsResponse
from kafka.common.requests.describe_groups_response import DescribeGroupsResponse
from kafka.common.requests.elect_leaders_response import ElectLeadersResponse
from kafka.common.requests.find_coordinator_response import FindCoordinatorResponse
from kafka.common.requests.incremental_alter_configs_response import IncrementalAlterConfigsResponse
from kafka.common.requests.list_groups_response import ListGroupsResponse
from kafka.common.requests.list_offsets_response import ListOffsetsResponse
from kafka.common.requests.metadata_response import MetadataResponse
from kafka.common.requests.offset_commit_response import OffsetCommitResponse
from kafka.common.requests.offset_delete_response import OffsetDeleteResponse
from kafka.common.requests.offset_fetch_response import OffsetFetchResponse
from kafka.common.topic_collection import TopicCollection
from kafka.common.topic_partition import TopicPartition
from tests.unit.kafka.clients.admin.admin_client_unit_test_env import AdminClientUnitTestEnv
from tests.unit.kafka.common.requests.request_test_utils import metadata_response, metadata_update_with
from tests.utils import wait_until_true

PartitionMetadata = MetadataResponse.PartitionMetadata
TopicMetadata = MetadataResponse.TopicMetadata

WAIT_MS = 10_000


@pytest.fixture
def env() -> Iterator[AdminClientUnitTestEnv]:
    with AdminClientUnitTestEnv() as e:
        yield e


def _node(env: AdminClientUnitTestEnv, node_id: int) -> Node:
    node = env.cluster.node_by_id(node_id)
    assert node is not None
    return node


def _cause(future: KafkaFuture[Any]) -> BaseException:
    with pytest.raises(ExecutionException) as info:
        future.get(WAIT_MS)
    return info.value.cause


def _create_topics_response(*results: tuple[str, Errors], throttle_time_ms: int = 0) -> CreateTopicsResponse:
    data = CreateTopicsResponseData(throttle_time_ms=throttle_time_ms)
    for name, error in results:
        data.topics.append(
            CreateTopicsResponseData.CreatableTopicResult(
                name=name, error_code=error.code, error_message=None, num_partitions=3, replication_factor=1
            )
        )
    return CreateTopicsResponse(data)


def _metadata_with_controller(env: AdminClientUnitTestEnv, controller_id: int) -> MetadataResponse:
    return metadata_response(env.cluster.nodes, "mockClusterId", controller_id, [])


def _find_coordinator(group: str, node: Node, error: Errors = Errors.NONE) -> FindCoordinatorResponse:
    return FindCoordinatorResponse.prepare_response(error, group, node)


def _backing_off(env: AdminClientUnitTestEnv) -> bool:
    """Whether a call waits for its retry backoff (the mock clock must move before it is sent)."""
    now = env.time.milliseconds()
    return any(call.next_allowed_try_ms > now for call in list(env.admin_client._runnable.pending_calls))


def _is(api_key: ApiKeys) -> Any:
    def matcher(body: AbstractRequest[Any]) -> bool:
        return body.api_key is api_key

    return matcher


# -- life cycle ------------------------------------------------------------------------------------------------


def test_network_thread_is_named_and_stops_on_close() -> None:
    """The client runs one daemon thread named `kafka-admin-client-thread | {client.id}`, gone after close."""
    import threading

    env = AdminClientUnitTestEnv(client_id="my-admin")
    try:
        names = [t.name for t in threading.enumerate()]
        assert "kafka-admin-client-thread | my-admin" in names
        thread = next(t for t in threading.enumerate() if t.name == "kafka-admin-client-thread | my-admin")
        assert thread.daemon
    finally:
        env.close()
    assert not thread.is_alive()


def test_generated_client_ids_count_up() -> None:
    """Without client.id each client is named adminclient-N with a growing N."""
    with AdminClientUnitTestEnv() as first, AdminClientUnitTestEnv() as second:
        a, b = first.admin_client.client_id, second.admin_client.client_id
    assert a.startswith("adminclient-") and b.startswith("adminclient-")
    assert int(b.split("-")[1]) > int(a.split("-")[1])


def test_default_api_timeout_below_request_timeout_is_refused() -> None:
    """An explicit default.api.timeout.ms below request.timeout.ms is a ConfigException (Java's check)."""
    with pytest.raises(Exception) as info:
        AdminClientUnitTestEnv(default_api_timeout_ms=1000, request_timeout_ms=5000)
    assert isinstance(info.value.__cause__ or info.value, ConfigException)


def test_calls_after_close_fail() -> None:
    """A call made once close has begun fails at once with the IllegalStateException message of Java."""
    env = AdminClientUnitTestEnv()
    env.close()
    cause = _cause(env.admin_client.list_topics().names())
    assert isinstance(cause, RuntimeError)
    assert str(cause) == "Cannot accept new calls when AdminClient is closing."


def test_close_times_out_pending_calls(env: AdminClientUnitTestEnv) -> None:
    """close(0) with a call still unanswered fails the call with a TimeoutException saying the thread exited."""
    future = env.admin_client.list_topics().names()
    env.kafka_client().wait_for_requests(1, WAIT_MS)
    env.admin_client.close(0)
    cause = _cause(future)
    assert isinstance(cause, TimeoutException)
    assert "The AdminClient thread has exited." in str(cause)


def test_unsupported_calls_raise() -> None:
    """Admin calls this port does not implement raise UnsupportedOperationException, never pretend to work."""
    with AdminClientUnitTestEnv() as env:
        with pytest.raises(UnsupportedOperationException):
            env.admin_client.fence_producers()


def test_metrics_has_app_info() -> None:
    """metrics() returns the client's metrics, with Java's app-info metrics tagged with the client id."""
    with AdminClientUnitTestEnv() as env:
        metrics = env.admin_client.metrics()
        by_name = {(n.group, n.name): m for n, m in metrics.items()}
        version = by_name[("app-info", "version")]
        assert version.metric_name().tags == {"client-id": env.admin_client.client_id}
        assert isinstance(version.metric_value(), str)
        start_time_ms = by_name[("app-info", "start-time-ms")].metric_value()
        assert isinstance(start_time_ms, int) and start_time_ms > 0


# -- topics -------------------------------------------------------------------------------------------------------


def test_create_topics_goes_to_the_controller(env: AdminClientUnitTestEnv) -> None:
    """createTopics is sent to the controller with the topic, its configs and validate_only, and completes."""
    seen: list[Any] = []

    def matcher(body: AbstractRequest[Any]) -> bool:
        seen.append(body.data)
        return body.api_key is ApiKeys.CREATE_TOPICS

    env.kafka_client().prepare_response_from(matcher, _create_topics_response(("t", Errors.NONE)), _node(env, 0))
    result = env.admin_client.create_topics(
        [NewTopic("t", 3, 1).configs({"retention.ms": "1000"})], CreateTopicsOptions(validate_only=True)
    )
    assert result.all().get(WAIT_MS) is None
    assert result.num_partitions("t").get(WAIT_MS) == 3
    (data,) = seen
    assert data.validate_only is True
    (topic,) = list(data.topics)
    assert (topic.name, topic.num_partitions, topic.replication_factor) == ("t", 3, 1)
    assert [(c.name, c.value) for c in topic.configs] == [("retention.ms", "1000")]


def test_create_topics_with_broker_defaults_and_assignments(env: AdminClientUnitTestEnv) -> None:
    """A NewTopic without counts asks for the broker's defaults (-1); one with assignments sends them."""
    seen: list[Any] = []

    def matcher(body: AbstractRequest[Any]) -> bool:
        seen.extend(body.data.topics)
        return True

    env.kafka_client().prepare_response(
        matcher, _create_topics_response(("defaults", Errors.NONE), ("assigned", Errors.NONE))
    )
    result = env.admin_client.create_topics(
        [NewTopic("defaults"), NewTopic("assigned", replicas_assignments={0: [1, 2]})]
    )
    result.all().get(WAIT_MS)
    by_name = {t.name: t for t in seen}
    assert (by_name["defaults"].num_partitions, by_name["defaults"].replication_factor) == (-1, -1)
    assert [(a.partition_index, list(a.broker_ids)) for a in by_name["assigned"].assignments] == [(0, [1, 2])]


def test_create_topics_reports_each_topic_error(env: AdminClientUnitTestEnv) -> None:
    """A topic-level error fails only that topic's future; all() fails with it."""
    env.kafka_client().prepare_response(
        _create_topics_response(("ok", Errors.NONE), ("exists", Errors.TOPIC_ALREADY_EXISTS))
    )
    result = env.admin_client.create_topics([NewTopic("ok", 1, 1), NewTopic("exists", 1, 1)])
    assert result.values()["ok"].get(WAIT_MS) is None
    assert isinstance(_cause(result.values()["exists"]), TopicExistsException)
    assert isinstance(_cause(result.all()), TopicExistsException)


def test_create_topics_invalid_name_fails_without_a_request(env: AdminClientUnitTestEnv) -> None:
    """An empty topic name cannot be represented and fails at once, without any request."""
    result = env.admin_client.create_topics([NewTopic("", 1, 1)])
    cause = _cause(result.values()[""])
    assert isinstance(cause, InvalidTopicException)
    assert str(cause) == "The given topic name '' cannot be represented in a request."
    assert not env.kafka_client().requests


def test_create_topics_retries_after_not_controller(env: AdminClientUnitTestEnv) -> None:
    """NOT_CONTROLLER makes the client refresh its metadata and send the call again to the new controller."""
    client = env.kafka_client()
    client.prepare_response_from(_create_topics_response(("t", Errors.NOT_CONTROLLER)), _node(env, 0))
    client.prepare_response(_is(ApiKeys.METADATA), _metadata_with_controller(env, 1))
    client.prepare_response_from(_create_topics_response(("t", Errors.NONE)), _node(env, 1))
    result = env.admin_client.create_topics([NewTopic("t", 1, 1)])
    wait_until_true(lambda: env.metadata_manager.controller() == _node(env, 1), "the new controller to be known")
    env.time.sleep(150)  # the retry waits out retry.backoff.ms
    assert result.all().get(WAIT_MS) is None


def test_create_topics_retry_waits_for_backoff(env: AdminClientUnitTestEnv) -> None:
    """After a disconnect the call is sent again only once retry.backoff.ms has passed."""
    client = env.kafka_client()
    client.prepare_response(None, True)  # disconnected
    result = env.admin_client.create_topics([NewTopic("t", 1, 1)])
    wait_until_true(lambda: env.admin_client.num_pending_calls() == 1, "the call to wait for its retry")
    assert not client.requests
    env.time.sleep(150)  # more than retry.backoff.ms (100 ms, +20% jitter)
    client.wait_for_requests(1, WAIT_MS)
    client.respond(_create_topics_response(("t", Errors.NONE)))
    assert result.all().get(WAIT_MS) is None


def test_create_topics_retries_throttled_topics(env: AdminClientUnitTestEnv) -> None:
    """A topic refused with THROTTLING_QUOTA_EXCEEDED is sent again alone and completes."""
    client = env.kafka_client()
    client.prepare_response(
        _create_topics_response(("a", Errors.NONE), ("b", Errors.THROTTLING_QUOTA_EXCEEDED), throttle_time_ms=1000)
    )
    retried: list[list[str]] = []

    def matcher(body: AbstractRequest[Any]) -> bool:
        retried.append([t.name for t in body.data.topics])
        return True

    client.prepare_response(matcher, _create_topics_response(("b", Errors.NONE)))
    result = env.admin_client.create_topics([NewTopic("a", 1, 1), NewTopic("b", 1, 1)])
    assert result.all().get(WAIT_MS) is None
    assert retried == [["b"]]


def test_create_topics_throttled_without_retry(env: AdminClientUnitTestEnv) -> None:
    """With retry_on_quota_violation off, the quota error fails the topic with its throttle time."""
    env.kafka_client().prepare_response(
        _create_topics_response(("b", Errors.THROTTLING_QUOTA_EXCEEDED), throttle_time_ms=1000)
    )
    result = env.admin_client.create_topics([NewTopic("b", 1, 1)], CreateTopicsOptions(retry_on_quota_violation=False))
    cause = _cause(result.all())
    assert isinstance(cause, ThrottlingQuotaExceededException)
    assert cause.throttle_time_ms == 1000


def test_call_in_flight_times_out(env: AdminClientUnitTestEnv) -> None:
    """A call unanswered past its timeout disconnects the node and fails with a TimeoutException."""
    client = env.kafka_client()
    result = env.admin_client.create_topics([NewTopic("t", 1, 1)], CreateTopicsOptions(timeout_ms=1000))
    client.wait_for_requests(1, WAIT_MS)
    env.time.sleep(1001)
    cause = _cause(result.all())
    assert isinstance(cause, TimeoutException)
    assert "timed out at" in str(cause)
    assert isinstance(cause.__cause__, DisconnectException)


def test_call_without_node_times_out(env: AdminClientUnitTestEnv) -> None:
    """A call whose node never appears in the metadata times out waiting for a node assignment."""
    client = env.kafka_client()
    future = env.admin_client.describe_log_dirs([42], None).descriptions()[42]
    # The missing node asks for a metadata refresh; the refresh finds the same nodes.
    client.prepare_response(_is(ApiKeys.METADATA), _metadata_with_controller(env, 0))
    env.time.sleep(60_001)
    cause = _cause(future)
    assert isinstance(cause, TimeoutException)


def test_delete_topics_by_name_and_id(env: AdminClientUnitTestEnv) -> None:
    """deleteTopics names topics by name or (TopicCollection) by id; each topic's error is its own."""
    client = env.kafka_client()
    client.prepare_response(
        DeleteTopicsResponse(
            DeleteTopicsResponseData(
                responses=[
                    DeleteTopicsResponseData.DeletableTopicResult(name="a", error_code=0),
                    DeleteTopicsResponseData.DeletableTopicResult(
                        name="b", error_code=Errors.UNKNOWN_TOPIC_OR_PARTITION.code
                    ),
                ]
            )
        )
    )
    by_name = env.admin_client.delete_topics(["a", "b"])
    names = by_name.topic_name_values()
    assert names is not None
    assert names["a"].get(WAIT_MS) is None
    assert isinstance(_cause(names["b"]), UnknownTopicOrPartitionException)

    topic_id = Uuid.random_uuid()
    seen: list[Any] = []

    def matcher(body: AbstractRequest[Any]) -> bool:
        seen.extend(t.topic_id for t in body.data.topics)
        return True

    client.prepare_response(
        matcher,
        DeleteTopicsResponse(
            DeleteTopicsResponseData(
                responses=[DeleteTopicsResponseData.DeletableTopicResult(name=None, topic_id=topic_id, error_code=0)]
            )
        ),
    )
    by_id = env.admin_client.delete_topics(TopicCollection.of_topic_ids([topic_id]))
    assert by_id.all().get(WAIT_MS) is None
    assert seen == [topic_id]


def test_list_topics_leaves_out_internal_topics(env: AdminClientUnitTestEnv) -> None:
    """listTopics lists internal topics only when asked to."""
    response = metadata_update_with(1, {"a": 1, "__consumer_offsets": 1})
    env.kafka_client().prepare_response(response)
    env.kafka_client().prepare_response(response)
    assert env.admin_client.list_topics().names().get(WAIT_MS) == {"a"}
    assert env.admin_client.list_topics(ListTopicsOptions(list_internal=True)).names().get(WAIT_MS) == {
        "a",
        "__consumer_offsets",
    }


def test_describe_topics(env: AdminClientUnitTestEnv) -> None:
    """describeTopics gives each topic's partitions with nodes, and the topic's error (or not found) otherwise."""
    response = metadata_update_with(2, {"a": 2}, topic_errors={"bad": Errors.TOPIC_AUTHORIZATION_FAILED})
    env.kafka_client().prepare_response(response)
    result = env.admin_client.describe_topics(["a", "bad", "absent"])
    values = result.topic_name_values()
    assert values is not None
    description = values["a"].get(WAIT_MS)
    assert description.name == "a" and not description.is_internal
    assert [(p.partition, p.leader.id if p.leader else None) for p in description.partitions] == [(0, 0), (1, 1)]
    assert type(_cause(values["bad"])).__name__ == "TopicAuthorizationException"
    absent = _cause(values["absent"])
    assert isinstance(absent, UnknownTopicOrPartitionException)
    assert str(absent) == "Topic absent not found."


def test_create_partitions(env: AdminClientUnitTestEnv) -> None:
    """createPartitions goes to the controller with the new count and assignments."""
    seen: list[Any] = []

    def matcher(body: AbstractRequest[Any]) -> bool:
        seen.extend(body.data.topics)
        return True

    env.kafka_client().prepare_response_from(
        matcher,
        CreatePartitionsResponse(
            CreatePartitionsResponseData(
                results=[
                    CreatePartitionsResponseData.CreatePartitionsTopicResult(name="a", error_code=0),
                    CreatePartitionsResponseData.CreatePartitionsTopicResult(
                        name="b", error_code=Errors.INVALID_PARTITIONS.code, error_message="too few"
                    ),
                ]
            )
        ),
        _node(env, 0),
    )
    result = env.admin_client.create_partitions(
        {"a": NewPartitions.increase_to(4, [[1], [2]]), "b": NewPartitions.increase_to(1)}
    )
    assert result.values()["a"].get(WAIT_MS) is None
    cause = _cause(result.values()["b"])
    assert type(cause).__name__ == "InvalidPartitionsException" and str(cause) == "too few"
    by_name = {t.name: t for t in seen}
    assert by_name["a"].count == 4 and [list(a.broker_ids) for a in by_name["a"].assignments] == [[1], [2]]
    assert by_name["b"].assignments is None


# -- cluster and configs ----------------------------------------------------------------------------------------


def test_describe_cluster(env: AdminClientUnitTestEnv) -> None:
    """describeCluster reads DescribeCluster: nodes, controller, cluster id."""
    data = DescribeClusterResponseData(cluster_id="cid", controller_id=1)
    for node in env.cluster.nodes:
        data.brokers.append(
            DescribeClusterResponseData.DescribeClusterBroker(broker_id=node.id, host=node.host, port=node.port)
        )
    env.kafka_client().prepare_response(DescribeClusterResponse(data))
    result = env.admin_client.describe_cluster()
    assert sorted(n.id for n in result.nodes().get(WAIT_MS)) == [0, 1, 2]
    assert result.controller().get(WAIT_MS) == _node(env, 1)
    assert result.cluster_id().get(WAIT_MS) == "cid"
    assert result.authorized_operations().get(WAIT_MS) is None


def test_describe_cluster_falls_back_to_metadata(env: AdminClientUnitTestEnv) -> None:
    """A broker without DescribeCluster is asked with a Metadata request instead."""
    client = env.kafka_client()
    client.prepare_unsupported_version_response(_is(ApiKeys.DESCRIBE_CLUSTER))
    client.prepare_response(_is(ApiKeys.METADATA), _metadata_with_controller(env, 2))
    result = env.admin_client.describe_cluster()
    assert result.controller().get(WAIT_MS) == _node(env, 2)
    assert result.cluster_id().get(WAIT_MS) == "mockClusterId"


def test_describe_cluster_error(env: AdminClientUnitTestEnv) -> None:
    """An error in the DescribeCluster response fails every future of the result."""
    env.kafka_client().prepare_response(
        DescribeClusterResponse(DescribeClusterResponseData(error_code=Errors.CLUSTER_AUTHORIZATION_FAILED.code))
    )
    result = env.admin_client.describe_cluster()
    assert isinstance(_cause(result.nodes()), ClusterAuthorizationException)
    assert isinstance(_cause(result.cluster_id()), ClusterAuthorizationException)


def _describe_configs_response(*resources: ConfigResource) -> DescribeConfigsResponse:
    data = DescribeConfigsResponseData()
    for r in resources:
        data.results.append(
            DescribeConfigsResponseData.DescribeConfigsResult(
                resource_type=r.type.id,
                resource_name=r.name,
                error_code=0,
                configs=[
                    DescribeConfigsResponseData.DescribeConfigsResourceResult(
                        name="retention.ms", value="1000", config_source=1, config_type=5
                    )
                ],
            )
        )
    return DescribeConfigsResponse(data)


def test_describe_configs_routes_broker_resources(env: AdminClientUnitTestEnv) -> None:
    """A broker's configs are asked of that broker; a topic's of any broker; entries carry source and type."""
    client = env.kafka_client()
    broker = ConfigResource(ConfigResource.Type.BROKER, "2")
    topic = ConfigResource(ConfigResource.Type.TOPIC, "t")
    seen: list[Any] = []

    def matcher(body: AbstractRequest[Any]) -> bool:
        seen.append(body.data)
        return True

    client.prepare_response_from(matcher, _describe_configs_response(broker), _node(env, 2))
    client.prepare_response(_describe_configs_response(topic))
    result = env.admin_client.describe_configs([broker, topic], DescribeConfigsOptions(include_synonyms=True))
    configs = result.all().get(WAIT_MS)
    entry = configs[topic].get("retention.ms")
    assert entry is not None and entry.value == "1000"
    assert entry.source is ConfigSource.DYNAMIC_TOPIC_CONFIG and entry.type.name == "LONG"
    assert configs[broker].get("retention.ms") is not None
    assert seen[0].include_synonyms is True
    assert [(r.resource_type, r.resource_name) for r in seen[0].resources] == [(4, "2")]


def test_describe_configs_missing_result_fails(env: AdminClientUnitTestEnv) -> None:
    """A resource the response leaves out fails with Java's message."""
    env.kafka_client().prepare_response(DescribeConfigsResponse(DescribeConfigsResponseData()))
    topic = ConfigResource(ConfigResource.Type.TOPIC, "t")
    cause = _cause(env.admin_client.describe_configs([topic]).values()[topic])
    assert str(cause) == f"The node response did not contain a result for config resource {topic}"


def test_incremental_alter_configs(env: AdminClientUnitTestEnv) -> None:
    """incrementalAlterConfigs sends each operation with its id, and reports each resource's error."""
    topic = ConfigResource(ConfigResource.Type.TOPIC, "t")
    other = ConfigResource(ConfigResource.Type.TOPIC, "u")
    seen: list[Any] = []

    def matcher(body: AbstractRequest[Any]) -> bool:
        seen.extend(body.data.resources)
        return True

    env.kafka_client().prepare_response(
        matcher,
        IncrementalAlterConfigsResponse(
            IncrementalAlterConfigsResponseData(
                responses=[
                    IncrementalAlterConfigsResponseData.AlterConfigsResourceResponse(
                        resource_type=2, resource_name="t", error_code=0
                    ),
                    IncrementalAlterConfigsResponseData.AlterConfigsResourceResponse(
                        resource_type=2, resource_name="u", error_code=Errors.INVALID_CONFIG.code, error_message="no"
                    ),
                ]
            )
        ),
    )
    result = env.admin_client.incremental_alter_configs(
        {
            topic: [AlterConfigOp(ConfigEntry("cleanup.policy", "compact"), OpType.SET)],
            other: [AlterConfigOp(ConfigEntry("retention.ms", None), OpType.DELETE)],
        }
    )
    assert result.values()[topic].get(WAIT_MS) is None
    assert str(_cause(result.values()[other])) == "no"
    ops = {r.resource_name: [(c.name, c.value, c.config_operation) for c in r.configs] for r in seen}
    assert ops == {"t": [("cleanup.policy", "compact", 0)], "u": [("retention.ms", None, 1)]}


# -- consumer groups --------------------------------------------------------------------------------------------


def _list_groups_response(*groups: tuple[str, str, str], error: Errors = Errors.NONE) -> ListGroupsResponse:
    return ListGroupsResponse(
        ListGroupsResponseData(
            error_code=error.code,
            groups=[
                ListGroupsResponseData.ListedGroup(group_id=g, protocol_type=p, group_state=s) for g, p, s in groups
            ],
        )
    )


def test_list_consumer_groups_asks_every_broker(env: AdminClientUnitTestEnv) -> None:
    """listConsumerGroups asks each broker; consumer and simple groups are listed, other protocols are not, and a
    broker's error is reported in errors() and fails all()."""
    client = env.kafka_client()
    two_brokers = metadata_response([_node(env, 0), _node(env, 1)], "mockClusterId", 0, [])
    client.prepare_response(_is(ApiKeys.METADATA), two_brokers)
    states: list[list[str]] = []

    def matcher(body: AbstractRequest[Any]) -> bool:
        states.append(list(body.data.states_filter))
        return True

    client.prepare_response_from(
        matcher,
        _list_groups_response(("g1", "consumer", "Stable"), ("s", "", "Empty"), ("c", "connect", "Stable")),
        _node(env, 0),
    )
    client.prepare_response_from(matcher, _list_groups_response(error=Errors.GROUP_AUTHORIZATION_FAILED), _node(env, 1))
    result = env.admin_client.list_consumer_groups(ListConsumerGroupsOptions(states=[ConsumerGroupState.STABLE]))
    valid = sorted(result.valid().get(WAIT_MS), key=lambda g: g.group_id)
    assert [(g.group_id, g.is_simple_consumer_group, g.state) for g in valid] == [
        ("g1", False, ConsumerGroupState.STABLE),
        ("s", True, ConsumerGroupState.EMPTY),
    ]
    (error,) = result.errors().get(WAIT_MS)
    assert type(error).__name__ == "GroupAuthorizationException"
    assert str(error).startswith("Error listing groups on ")
    assert type(_cause(result.all())).__name__ == "GroupAuthorizationException"
    assert states == [["Stable"], ["Stable"]]


def test_list_consumer_groups_retries_loading_coordinator(env: AdminClientUnitTestEnv) -> None:
    """COORDINATOR_LOAD_IN_PROGRESS from a broker's ListGroups is retried."""
    client = env.kafka_client()
    client.prepare_response(_is(ApiKeys.METADATA), metadata_response([_node(env, 0)], "c", 0, []))
    client.prepare_response(_list_groups_response(error=Errors.COORDINATOR_LOAD_IN_PROGRESS))
    result = env.admin_client.list_consumer_groups()
    wait_until_true(lambda: env.admin_client.num_pending_calls() == 1, "the ListGroups retry to wait")
    env.time.sleep(150)
    client.wait_for_requests(1, WAIT_MS)
    client.respond(_list_groups_response(("g", "consumer", "Empty")))
    assert [g.group_id for g in result.all().get(WAIT_MS)] == ["g"]


def _described_group(group: str, error: Errors = Errors.NONE, protocol_type: str = "consumer") -> Any:
    assignment = consumer_protocol.serialize_assignment(Assignment([TopicPartition("t", 0), TopicPartition("t", 1)]))
    return DescribeGroupsResponseData.DescribedGroup(
        group_id=group,
        error_code=error.code,
        group_state="Stable",
        protocol_type=protocol_type,
        protocol_data="range",
        members=[
            DescribeGroupsResponseData.DescribedGroupMember(
                member_id="m1",
                group_instance_id=None,
                client_id="c1",
                client_host="/127.0.0.1",
                member_assignment=assignment,
            )
        ],
    )


def test_describe_consumer_groups_finds_coordinator_again(env: AdminClientUnitTestEnv) -> None:
    """describeConsumerGroups looks the coordinator up (again after COORDINATOR_NOT_AVAILABLE, once the backoff
    has passed, and after NOT_COORDINATOR) and reads members with their assignments."""
    client = env.kafka_client()
    client.prepare_response(_find_coordinator("g", Node.no_node(), Errors.COORDINATOR_NOT_AVAILABLE))
    client.prepare_response(_find_coordinator("g", _node(env, 1)))
    client.prepare_response_from(
        DescribeGroupsResponse(DescribeGroupsResponseData(groups=[_described_group("g", Errors.NOT_COORDINATOR)])),
        _node(env, 1),
    )
    client.prepare_response(_find_coordinator("g", _node(env, 2)))
    client.prepare_response_from(
        DescribeGroupsResponse(DescribeGroupsResponseData(groups=[_described_group("g")])), _node(env, 2)
    )
    result = env.admin_client.describe_consumer_groups(["g"])
    wait_until_true(lambda: _backing_off(env), "the FindCoordinator retry to wait out its backoff")
    env.time.sleep(150)
    description = result.described_groups()["g"].get(WAIT_MS)
    assert description.coordinator == _node(env, 2)
    assert description.state is ConsumerGroupState.STABLE and description.partition_assignor == "range"
    (member,) = description.members
    assert (member.consumer_id, member.client_id, member.host) == ("m1", "c1", "/127.0.0.1")
    assert member.assignment.topic_partitions == {TopicPartition("t", 0), TopicPartition("t", 1)}


def test_describe_non_consumer_group_fails(env: AdminClientUnitTestEnv) -> None:
    """A group of another protocol type is not a consumer group."""
    client = env.kafka_client()
    client.prepare_response(_find_coordinator("g", _node(env, 0)))
    client.prepare_response(
        DescribeGroupsResponse(DescribeGroupsResponseData(groups=[_described_group("g", protocol_type="connect")]))
    )
    cause = _cause(env.admin_client.describe_consumer_groups(["g"]).all())
    assert isinstance(cause, ValueError) and str(cause) == "GroupId g is not a consumer group (connect)."


def _offset_fetch_response(groups: dict[str, dict[TopicPartition, int]], error: Errors = Errors.NONE) -> Any:
    data = OffsetFetchResponseData()
    for group, offsets in groups.items():
        by_topic: dict[str, Any] = {}
        for tp, offset in offsets.items():
            topic = by_topic.setdefault(tp.topic, OffsetFetchResponseData.OffsetFetchResponseTopics(name=tp.topic))
            topic.partitions.append(
                OffsetFetchResponseData.OffsetFetchResponsePartitions(
                    partition_index=tp.partition, committed_offset=offset, metadata=""
                )
            )
        data.groups.append(
            OffsetFetchResponseData.OffsetFetchResponseGroup(
                group_id=group, error_code=error.code, topics=list(by_topic.values())
            )
        )
    return OffsetFetchResponse(data, 8)


def test_list_consumer_group_offsets_of_several_groups(env: AdminClientUnitTestEnv) -> None:
    """Offsets of two groups with one coordinator come from one batched OffsetFetch; a negative offset is None."""
    client = env.kafka_client()
    from kafka.common.message import FindCoordinatorResponseData

    client.prepare_response(
        FindCoordinatorResponse(
            FindCoordinatorResponseData(
                coordinators=[
                    FindCoordinatorResponseData.Coordinator(key=g, node_id=0, host="localhost", port=8121)
                    for g in ("g1", "g2")
                ]
            )
        )
    )
    tp0, tp1 = TopicPartition("t", 0), TopicPartition("t", 1)
    seen: list[Any] = []

    def matcher(body: AbstractRequest[Any]) -> bool:
        seen.append(sorted(g.group_id for g in body.data.groups))
        return True

    client.prepare_response(matcher, _offset_fetch_response({"g1": {tp0: 5, tp1: -1}, "g2": {tp0: 9}}))
    result = env.admin_client.list_consumer_group_offsets(
        {"g1": ListConsumerGroupOffsetsSpec(), "g2": ListConsumerGroupOffsetsSpec([tp0])}
    )
    offsets = result.all().get(WAIT_MS)
    g1 = offsets["g1"]
    assert g1[tp1] is None
    g1_tp0 = g1[tp0]
    assert g1_tp0 is not None and g1_tp0.offset == 5
    g2 = offsets["g2"][tp0]
    assert g2 is not None and g2.offset == 9
    assert seen == [["g1", "g2"]]
    with pytest.raises(RuntimeError):
        result.partitions_to_offset_and_metadata()


def test_list_consumer_group_offsets_without_batching(env: AdminClientUnitTestEnv) -> None:
    """A broker whose FindCoordinator cannot batch (before v4) is asked for each group on its own."""
    client = env.kafka_client()
    client.set_node_api_versions(NodeApiVersions.create(ApiKeys.FIND_COORDINATOR.id, 0, 3))
    # The batched lookup fails while being built (and uses up one prepared response); then one lookup per group.
    for _ in range(3):
        client.prepare_response(_is(ApiKeys.FIND_COORDINATOR), _find_coordinator_old(_node(env, 0)))
    asked: list[list[str]] = []
    result = env.admin_client.list_consumer_group_offsets(
        {"g1": ListConsumerGroupOffsetsSpec(), "g2": ListConsumerGroupOffsetsSpec()}
    )
    for _ in range(2):
        client.wait_for_requests(1, WAIT_MS)
        request = client.requests[0]
        body = request.request_builder.build()
        assert body.api_key is ApiKeys.OFFSET_FETCH
        group = body.data.groups[0].group_id
        asked.append([g.group_id for g in body.data.groups])
        client.respond(_offset_fetch_response({group: {TopicPartition("t", 0): 1}}))
        # The next request to the same coordinator waits out the backoff.
        wait_until_true(lambda: env.admin_client.num_pending_calls() > 0 or result.all().is_done(), "a retry")
        env.time.sleep(150)
    offsets = result.all().get(WAIT_MS)
    assert set(offsets) == {"g1", "g2"}
    assert sorted(asked) == [["g1"], ["g2"]]


def _find_coordinator_old(node: Node) -> FindCoordinatorResponse:
    from kafka.common.message import FindCoordinatorResponseData

    return FindCoordinatorResponse(
        FindCoordinatorResponseData(error_code=0, node_id=node.id, host=node.host, port=node.port)
    )


def test_alter_consumer_group_offsets(env: AdminClientUnitTestEnv) -> None:
    """alterConsumerGroupOffsets commits to the coordinator; each partition's error is its own result, and all()
    fails naming the failed partitions."""
    client = env.kafka_client()
    client.prepare_response(_find_coordinator("g", _node(env, 0)))
    tp0, tp1 = TopicPartition("t", 0), TopicPartition("t", 1)
    seen: list[Any] = []

    def matcher(body: AbstractRequest[Any]) -> bool:
        seen.append(body.data)
        return True

    client.prepare_response(
        matcher,
        OffsetCommitResponse(
            OffsetCommitResponseData(
                topics=[
                    OffsetCommitResponseData.OffsetCommitResponseTopic(
                        name="t",
                        partitions=[
                            OffsetCommitResponseData.OffsetCommitResponsePartition(partition_index=0, error_code=0),
                            OffsetCommitResponseData.OffsetCommitResponsePartition(
                                partition_index=1, error_code=Errors.UNKNOWN_TOPIC_OR_PARTITION.code
                            ),
                        ],
                    )
                ]
            )
        ),
    )
    result = env.admin_client.alter_consumer_group_offsets(
        "g", {tp0: OffsetAndMetadata(10, "meta"), tp1: OffsetAndMetadata(20)}
    )
    assert result.partition_result(tp0).get(WAIT_MS) is None
    assert isinstance(_cause(result.partition_result(tp1)), UnknownTopicOrPartitionException)
    cause = _cause(result.all())
    assert str(cause) == "Failed altering consumer group offsets for the following partitions: [t-1]"
    not_asked = _cause(result.partition_result(TopicPartition("x", 0)))
    assert isinstance(not_asked, ValueError)
    (data,) = seen
    assert data.group_id == "g" and data.generation_id_or_member_epoch == -1
    partitions = {p.partition_index: (p.committed_offset, p.committed_metadata) for p in data.topics[0].partitions}
    assert partitions == {0: (10, "meta"), 1: (20, "")}


def test_alter_consumer_group_offsets_retries_rebalance(env: AdminClientUnitTestEnv) -> None:
    """REBALANCE_IN_PROGRESS is retried on the same coordinator after the backoff."""
    client = env.kafka_client()
    client.prepare_response(_find_coordinator("g", _node(env, 0)))
    tp0 = TopicPartition("t", 0)

    def commit_response(error: Errors) -> OffsetCommitResponse:
        return OffsetCommitResponse(
            OffsetCommitResponseData(
                topics=[
                    OffsetCommitResponseData.OffsetCommitResponseTopic(
                        name="t",
                        partitions=[
                            OffsetCommitResponseData.OffsetCommitResponsePartition(
                                partition_index=0, error_code=error.code
                            )
                        ],
                    )
                ]
            )
        )

    client.prepare_response(commit_response(Errors.REBALANCE_IN_PROGRESS))
    result = env.admin_client.alter_consumer_group_offsets("g", {tp0: OffsetAndMetadata(1)})
    wait_until_true(lambda: env.admin_client.num_pending_calls() == 1, "the commit to wait for its retry")
    env.time.sleep(150)
    client.wait_for_requests(1, WAIT_MS)
    assert client.requests[0].destination == "0"
    client.respond(commit_response(Errors.NONE))
    assert result.all().get(WAIT_MS) is None


def test_delete_consumer_group_offsets(env: AdminClientUnitTestEnv) -> None:
    """deleteConsumerGroupOffsets reports each partition's error; a group error fails every partition."""
    client = env.kafka_client()
    client.prepare_response(_find_coordinator("g", _node(env, 0)))
    client.prepare_response(
        OffsetDeleteResponse(
            OffsetDeleteResponseData(
                topics=[
                    OffsetDeleteResponseData.OffsetDeleteResponseTopic(
                        name="t",
                        partitions=[
                            OffsetDeleteResponseData.OffsetDeleteResponsePartition(partition_index=0, error_code=0),
                            OffsetDeleteResponseData.OffsetDeleteResponsePartition(
                                partition_index=1, error_code=Errors.GROUP_SUBSCRIBED_TO_TOPIC.code
                            ),
                        ],
                    )
                ]
            )
        )
    )
    tp0, tp1 = TopicPartition("t", 0), TopicPartition("t", 1)
    result = env.admin_client.delete_consumer_group_offsets("g", [tp0, tp1])
    assert result.partition_result(tp0).get(WAIT_MS) is None
    assert type(_cause(result.partition_result(tp1))).__name__ == "GroupSubscribedToTopicException"
    with pytest.raises(ValueError):
        result.partition_result(TopicPartition("x", 0))

    client.prepare_response(_find_coordinator("h", _node(env, 0)))
    client.prepare_response(OffsetDeleteResponse(OffsetDeleteResponseData(error_code=Errors.GROUP_ID_NOT_FOUND.code)))
    missing = env.admin_client.delete_consumer_group_offsets("h", [tp0])
    assert isinstance(_cause(missing.all()), GroupIdNotFoundException)


def test_delete_consumer_groups(env: AdminClientUnitTestEnv) -> None:
    """deleteConsumerGroups reports each group's outcome."""
    from kafka.common.message import DeleteGroupsResponseData
    from kafka.common.requests.delete_groups_response import DeleteGroupsResponse

    client = env.kafka_client()
    from kafka.common.message import FindCoordinatorResponseData

    client.prepare_response(
        FindCoordinatorResponse(
            FindCoordinatorResponseData(
                coordinators=[
                    FindCoordinatorResponseData.Coordinator(key=g, node_id=1, host="localhost", port=8122)
                    for g in ("a", "b")
                ]
            )
        )
    )
    client.prepare_response_from(
        DeleteGroupsResponse(
            DeleteGroupsResponseData(
                results=[
                    DeleteGroupsResponseData.DeletableGroupResult(group_id="a", error_code=0),
                    DeleteGroupsResponseData.DeletableGroupResult(group_id="b", error_code=Errors.NON_EMPTY_GROUP.code),
                ]
            )
        ),
        _node(env, 1),
    )
    result = env.admin_client.delete_consumer_groups(["a", "b"])
    groups = result.deleted_groups()
    assert groups["a"].get(WAIT_MS) is None
    assert type(_cause(groups["b"])).__name__ == "GroupNotEmptyException"


# -- offsets, records, leaders ----------------------------------------------------------------------------------


def _leaders_metadata(env: AdminClientUnitTestEnv, leaders: dict[int, int | None]) -> MetadataResponse:
    partitions = [
        PartitionMetadata(
            Errors.NONE if leader is not None else Errors.LEADER_NOT_AVAILABLE,
            TopicPartition("t", p),
            leader,
            0,
            (0, 1),
            (0, 1),
            (),
        )
        for p, leader in leaders.items()
    ]
    return metadata_response(env.cluster.nodes, "c", 0, [TopicMetadata(Errors.NONE, "t", False, partitions)])


def _list_offsets_response(*partitions: tuple[int, Errors, int]) -> ListOffsetsResponse:
    return ListOffsetsResponse(
        ListOffsetsResponseData(
            topics=[
                ListOffsetsResponseData.ListOffsetsTopicResponse(
                    name="t",
                    partitions=[
                        ListOffsetsResponseData.ListOffsetsPartitionResponse(
                            partition_index=p, error_code=e.code, offset=o, timestamp=-1, leader_epoch=0
                        )
                        for p, e, o in partitions
                    ],
                )
            ]
        )
    )


def test_list_offsets_goes_to_each_leader_and_follows_leader_changes(env: AdminClientUnitTestEnv) -> None:
    """listOffsets asks each partition's leader; NOT_LEADER_OR_FOLLOWER looks the leader up again."""
    client = env.kafka_client()
    client.prepare_response(_is(ApiKeys.METADATA), _leaders_metadata(env, {0: 0, 1: 1}))
    client.prepare_response_from(_list_offsets_response((0, Errors.NONE, 42)), _node(env, 0))
    client.prepare_response_from(_list_offsets_response((1, Errors.NOT_LEADER_OR_FOLLOWER, -1)), _node(env, 1))
    client.prepare_response(_is(ApiKeys.METADATA), _leaders_metadata(env, {1: 2}))
    client.prepare_response_from(_list_offsets_response((1, Errors.NONE, 7)), _node(env, 2))
    tp0, tp1 = TopicPartition("t", 0), TopicPartition("t", 1)
    result = env.admin_client.list_offsets({tp0: OffsetSpec.latest(), tp1: OffsetSpec.earliest()})
    offsets = result.all().get(WAIT_MS)
    assert (offsets[tp0].offset, offsets[tp1].offset) == (42, 7)
    assert offsets[tp0].leader_epoch == 0


def test_list_offsets_for_unknown_topic_fails(env: AdminClientUnitTestEnv) -> None:
    """listOffsets of a topic the metadata does not know fails (it does not tolerate unknown topics)."""
    env.kafka_client().prepare_response(
        metadata_update_with(1, {}, topic_errors={"nope": Errors.UNKNOWN_TOPIC_OR_PARTITION})
    )
    result = env.admin_client.list_offsets({TopicPartition("nope", 0): OffsetSpec.latest()})
    assert isinstance(_cause(result.all()), UnknownTopicOrPartitionException)


def test_list_offsets_max_timestamp_unsupported_fails_only_those_partitions(env: AdminClientUnitTestEnv) -> None:
    """A broker without ListOffsets v7 fails the max-timestamp partitions; the others are asked again and succeed."""
    client = env.kafka_client()
    client.set_node_api_versions(NodeApiVersions.create(ApiKeys.LIST_OFFSETS.id, 0, 6))
    client.prepare_response(_is(ApiKeys.METADATA), _leaders_metadata(env, {0: 0, 1: 0}))
    # MockClient checks versions when it answers: this answer is used up by the failed v7 request.
    client.prepare_response(_list_offsets_response())
    tp0, tp1 = TopicPartition("t", 0), TopicPartition("t", 1)
    result = env.admin_client.list_offsets({tp0: OffsetSpec.max_timestamp(), tp1: OffsetSpec.for_timestamp(1000)})
    assert isinstance(_cause(result.partition_result(tp0)), UnsupportedVersionException)
    env.time.sleep(150)  # the retry of the other partition waits out the backoff
    client.wait_for_requests(1, WAIT_MS)
    retry = client.requests[0].request_builder.build(6)
    assert [(t.name, [p.partition_index for p in t.partitions]) for t in retry.data.topics] == [("t", [1])]
    client.respond(_list_offsets_response((1, Errors.NONE, 3)))
    assert result.partition_result(tp1).get(WAIT_MS).offset == 3


def test_delete_records(env: AdminClientUnitTestEnv) -> None:
    """deleteRecords goes to the leader with the offset and returns the new low watermark."""
    client = env.kafka_client()
    client.prepare_response(_is(ApiKeys.METADATA), _leaders_metadata(env, {0: 1}))
    seen: list[Any] = []

    def matcher(body: AbstractRequest[Any]) -> bool:
        seen.append(body.data)
        return True

    client.prepare_response_from(
        matcher,
        DeleteRecordsResponse(
            DeleteRecordsResponseData(
                topics=[
                    DeleteRecordsResponseData.DeleteRecordsTopicResult(
                        name="t",
                        partitions=[
                            DeleteRecordsResponseData.DeleteRecordsPartitionResult(
                                partition_index=0, low_watermark=5, error_code=0
                            )
                        ],
                    )
                ]
            )
        ),
        _node(env, 1),
    )
    tp = TopicPartition("t", 0)
    result = env.admin_client.delete_records({tp: RecordsToDelete.before_offset(5)})
    assert result.low_watermarks()[tp].get(WAIT_MS).low_watermark == 5
    (data,) = seen
    assert data.topics[0].partitions[0].offset == 5 and data.timeout_ms == 60_000


def _delete_records_response(partition: int, low_watermark: int) -> DeleteRecordsResponse:
    return DeleteRecordsResponse(
        DeleteRecordsResponseData(
            topics=[
                DeleteRecordsResponseData.DeleteRecordsTopicResult(
                    name="t",
                    partitions=[
                        DeleteRecordsResponseData.DeleteRecordsPartitionResult(
                            partition_index=partition, low_watermark=low_watermark, error_code=0
                        )
                    ],
                )
            ]
        )
    )


def test_delete_records_looks_an_unknown_topic_up_again_after_the_backoff(env: AdminClientUnitTestEnv) -> None:
    """While the topic is unknown, the next leader lookup waits retry.backoff.ms (100 ms, 20% jitter) instead of
    following the answer at once; once the topic exists, the records are deleted."""
    client = env.kafka_client()
    start_ms = env.time.milliseconds()
    lookups: list[int] = []

    def metadata(body: AbstractRequest[Any]) -> bool:
        lookups.append(env.time.milliseconds() - start_ms)
        return body.api_key is ApiKeys.METADATA

    unknown = metadata_response(
        env.cluster.nodes, "c", 0, [TopicMetadata(Errors.UNKNOWN_TOPIC_OR_PARTITION, "t", False, [])]
    )
    client.prepare_response(metadata, unknown)
    client.prepare_response(metadata, _leaders_metadata(env, {0: 1}))
    client.prepare_response_from(_delete_records_response(0, 5), _node(env, 1))
    tp = TopicPartition("t", 0)
    result = env.admin_client.delete_records({tp: RecordsToDelete.before_offset(5)})
    wait_until_true(lambda: _backing_off(env), "the second lookup to wait out its backoff")
    (retry,) = env.admin_client._runnable.pending_calls
    assert 80 <= retry.next_allowed_try_ms - env.time.milliseconds() <= 120
    assert lookups == [0]  # the mock clock has not moved: no second Metadata request yet
    env.time.sleep(150)
    assert result.low_watermarks()[tp].get(WAIT_MS).low_watermark == 5
    assert lookups == [0, 150]


def test_delete_records_of_missing_partitions_fail_with_unknown_topic_at_the_deadline(
    env: AdminClientUnitTestEnv,
) -> None:
    """When the call's time runs out, a partition of a topic that does not exist, or that its topic does not have,
    fails with UnknownTopicOrPartitionException; one that only lacked a leader fails with the timeout."""
    client = env.kafka_client()
    t0 = PartitionMetadata(Errors.NONE, TopicPartition("t", 0), 0, 0, (0,), (0,), ())
    t1 = PartitionMetadata(Errors.LEADER_NOT_AVAILABLE, TopicPartition("t", 1), None, 0, (0,), (), ())
    client.prepare_response(
        _is(ApiKeys.METADATA),
        metadata_response(
            env.cluster.nodes,
            "c",
            0,
            [
                TopicMetadata(Errors.UNKNOWN_TOPIC_OR_PARTITION, "nope", False, []),
                TopicMetadata(Errors.NONE, "t", False, [t0, t1]),
            ],
        ),
    )
    nope0, t_1, t_5 = TopicPartition("nope", 0), TopicPartition("t", 1), TopicPartition("t", 5)
    result = env.admin_client.delete_records(
        {tp: RecordsToDelete.before_offset(1) for tp in (nope0, t_1, t_5)}, DeleteRecordsOptions(timeout_ms=100)
    )
    wait_until_true(lambda: _backing_off(env), "the second lookup to wait out its backoff")
    env.time.sleep(200)
    futures = result.low_watermarks()
    unknown_topic = _cause(futures[nope0])
    assert isinstance(unknown_topic, UnknownTopicOrPartitionException)
    assert str(unknown_topic) == (
        "Failed to fetch metadata for partition nope-0 because metadata for topic `nope` could not be found"
    )
    unknown_partition = _cause(futures[t_5])
    assert isinstance(unknown_partition, UnknownTopicOrPartitionException)
    assert str(unknown_partition) == "Failed to fetch metadata for partition t-5: the partition does not exist"
    assert isinstance(_cause(futures[t_1]), TimeoutException)
    assert not client.future_responses  # one lookup only: the retry was still waiting when time ran out


def test_elect_leaders(env: AdminClientUnitTestEnv) -> None:
    """electLeaders goes to the controller; each partition's outcome is None or its error."""
    seen: list[Any] = []

    def matcher(body: AbstractRequest[Any]) -> bool:
        seen.append(body.data)
        return True

    env.kafka_client().prepare_response_from(
        matcher,
        ElectLeadersResponse(
            ElectLeadersResponseData(
                replica_election_results=[
                    ElectLeadersResponseData.ReplicaElectionResult(
                        topic="t",
                        partition_result=[
                            ElectLeadersResponseData.PartitionResult(partition_id=0, error_code=0),
                            ElectLeadersResponseData.PartitionResult(
                                partition_id=1, error_code=Errors.ELECTION_NOT_NEEDED.code
                            ),
                        ],
                    )
                ]
            )
        ),
        _node(env, 0),
    )
    tp0, tp1 = TopicPartition("t", 0), TopicPartition("t", 1)
    result = env.admin_client.elect_leaders(ElectionType.PREFERRED, [tp0, tp1])
    partitions = result.partitions().get(WAIT_MS)
    assert partitions[tp0] is None
    assert isinstance(partitions[tp1], ElectionNotNeededException)
    assert isinstance(_cause(result.all()), ElectionNotNeededException)
    (data,) = seen
    assert data.election_type == 0
    assert sorted(data.topic_partitions[0].partitions) == [0, 1]


def test_not_controller_from_elect_leaders_is_not_special(env: AdminClientUnitTestEnv) -> None:
    """A top-level NOT_CONTROLLER of ElectLeaders fails the call as Java's does (it has no controller retry)."""
    env.kafka_client().prepare_response(
        ElectLeadersResponse(ElectLeadersResponseData(error_code=Errors.NOT_CONTROLLER.code))
    )
    result = env.admin_client.elect_leaders(ElectionType.PREFERRED, None)
    assert isinstance(_cause(result.partitions()), NotControllerException)


def test_get_sub_level_error() -> None:
    """getSubLevelError gives the key's exception, None for NONE, and IllegalArgumentException for a missing key."""
    tp = TopicPartition("t", 0)
    assert KafkaAdminClient.get_sub_level_error({tp: Errors.NONE}, tp, "x") is None
    assert isinstance(
        KafkaAdminClient.get_sub_level_error({tp: Errors.UNKNOWN_TOPIC_OR_PARTITION}, tp, "x"),
        UnknownTopicOrPartitionException,
    )
    missing = KafkaAdminClient.get_sub_level_error({}, tp, "not there")
    assert isinstance(missing, ValueError) and str(missing) == "not there"


# -- client quotas --------------------------------------------------------------------------------------------------


def test_describe_client_quotas_sends_match_types_and_completes(env: AdminClientUnitTestEnv) -> None:
    """describeClientQuotas sends each component's match type (EXACT, DEFAULT, SPECIFIED) and strict, and
    completes with the entities and values of the response."""
    seen: list[Any] = []

    def matcher(body: AbstractRequest[Any]) -> bool:
        seen.append(body.data)
        return body.api_key is ApiKeys.DESCRIBE_CLIENT_QUOTAS

    entity = ClientQuotaEntity({ClientQuotaEntity.USER: "u", ClientQuotaEntity.CLIENT_ID: None})
    env.kafka_client().prepare_response(
        matcher, DescribeClientQuotasResponse.from_quota_entities({entity: {"producer_byte_rate": 10.0}}, 0)
    )
    quota_filter = ClientQuotaFilter.contains_only(
        [
            ClientQuotaFilterComponent.of_entity("user", "u"),
            ClientQuotaFilterComponent.of_default_entity("client-id"),
            ClientQuotaFilterComponent.of_entity_type("ip"),
        ]
    )
    entities = env.admin_client.describe_client_quotas(quota_filter).entities().get(WAIT_MS)
    assert entities == {entity: {"producer_byte_rate": 10.0}}
    assert [(c.entity_type, c.match_type, c.match) for c in seen[0].components] == [
        ("user", 0, "u"),
        ("client-id", 1, None),
        ("ip", 2, None),
    ]
    assert seen[0].strict is True


def test_describe_client_quotas_error(env: AdminClientUnitTestEnv) -> None:
    """A response error fails the future with the error's exception and message."""
    env.kafka_client().prepare_response(
        DescribeClientQuotasResponse(
            DescribeClientQuotasResponseData(error_code=Errors.INVALID_REQUEST.code, error_message="bad", entries=None)
        )
    )
    cause = _cause(env.admin_client.describe_client_quotas(ClientQuotaFilter.all()).entities())
    assert isinstance(cause, InvalidRequestException)
    assert str(cause) == "bad"


def test_alter_client_quotas_sends_ops_and_reports_per_entity(env: AdminClientUnitTestEnv) -> None:
    """alterClientQuotas sends set ops with their value and removals as remove=true, validate_only, and completes
    each entity's future with its own error."""
    seen: list[Any] = []

    def matcher(body: AbstractRequest[Any]) -> bool:
        seen.append(body.data)
        return body.api_key is ApiKeys.ALTER_CLIENT_QUOTAS

    good = ClientQuotaEntity({ClientQuotaEntity.CLIENT_ID: "c"})
    bad = ClientQuotaEntity({ClientQuotaEntity.USER: None})
    env.kafka_client().prepare_response(
        matcher,
        AlterClientQuotasResponse.from_quota_entities(
            {good: ApiError.NONE, bad: ApiError(Errors.INVALID_REQUEST, "Invalid configuration key foo")}, 0
        ),
    )
    result = env.admin_client.alter_client_quotas(
        [
            ClientQuotaAlteration(good, [ClientQuotaAlteration.Op("producer_byte_rate", 5.0)]),
            ClientQuotaAlteration(bad, [ClientQuotaAlteration.Op("foo", None)]),
        ],
        AlterClientQuotasOptions().validate_only(True),
    )
    assert result.values()[good].get(WAIT_MS) is None
    cause = _cause(result.values()[bad])
    assert isinstance(cause, InvalidRequestException)
    assert str(cause) == "Invalid configuration key foo"
    assert isinstance(_cause(result.all()), InvalidRequestException)
    assert seen[0].validate_only is True
    ops = [(op.key, op.value, op.remove) for entry in seen[0].entries for op in entry.ops]
    assert ops == [("producer_byte_rate", 5.0, False), ("foo", 0.0, True)]
    assert [[(e.entity_type, e.entity_name) for e in entry.entity] for entry in seen[0].entries] == [
        [("client-id", "c")],
        [("user", None)],
    ]
