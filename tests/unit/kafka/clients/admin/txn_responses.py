"""What the brokers answer in the unit tests of the admin client's transaction calls and of kafka-transactions.sh:
ListTransactions, DescribeProducers and WriteTxnMarkers responses, a Metadata response with the leader of topic
`t`, and a MockClient matcher that records the requests it accepts."""

from __future__ import annotations

from typing import Any

from kafka.common.message import (
    DescribeProducersResponseData,
    ListTransactionsResponseData,
    WriteTxnMarkersResponseData,
)
from kafka.common.node import Node
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.describe_producers_response import DescribeProducersResponse
from kafka.common.requests.list_transactions_response import ListTransactionsResponse
from kafka.common.requests.metadata_response import MetadataResponse
from kafka.common.requests.write_txn_markers_response import WriteTxnMarkersResponse
from kafka.common.topic_partition import TopicPartition
from tests.unit.kafka.clients.admin.admin_client_unit_test_env import AdminClientUnitTestEnv
from tests.unit.kafka.common.requests.request_test_utils import metadata_response

# (producer id, epoch, last sequence, last timestamp, coordinator epoch, current transaction start offset)
ProducerRow = tuple[int, int, int, int, int, int]


def node(env: AdminClientUnitTestEnv, node_id: int) -> Node:
    found = env.cluster.node_by_id(node_id)
    assert found is not None
    return found


def recording(api_key: ApiKeys, seen: list[Any]) -> Any:
    """A matcher for requests of `api_key` that keeps each request's data in `seen`."""

    def matcher(body: AbstractRequest[Any]) -> bool:
        if body.api_key is not api_key:
            return False
        seen.append(body.data)
        return True

    return matcher


def leader_metadata(env: AdminClientUnitTestEnv, leader: int) -> MetadataResponse:
    """Metadata of topic `t`, its partition 0 led by `leader`."""
    partition = MetadataResponse.PartitionMetadata(Errors.NONE, TopicPartition("t", 0), leader, 0, (0, 1), (0, 1), ())
    topic = MetadataResponse.TopicMetadata(Errors.NONE, "t", False, [partition])
    return metadata_response(env.cluster.nodes, "c", 0, [topic])


def list_transactions_response(*states: tuple[str, int, str], error: Errors = Errors.NONE) -> ListTransactionsResponse:
    """(transactional id, producer id, state name) listings."""
    return ListTransactionsResponse(
        ListTransactionsResponseData(
            error_code=error.code,
            transaction_states=[
                ListTransactionsResponseData.TransactionState(transactional_id=t, producer_id=p, transaction_state=s)
                for t, p, s in states
            ],
        )
    )


def producers_response(*producers: ProducerRow, error: Errors = Errors.NONE) -> DescribeProducersResponse:
    """The active producers of t-0."""
    return DescribeProducersResponse(
        DescribeProducersResponseData(
            topics=[
                DescribeProducersResponseData.TopicResponse(
                    name="t",
                    partitions=[
                        DescribeProducersResponseData.PartitionResponse(
                            partition_index=0,
                            error_code=error.code,
                            active_producers=[
                                DescribeProducersResponseData.ProducerState(
                                    producer_id=pid,
                                    producer_epoch=epoch,
                                    last_sequence=seq,
                                    last_timestamp=ts,
                                    coordinator_epoch=ce,
                                    current_txn_start_offset=start,
                                )
                                for pid, epoch, seq, ts, ce, start in producers
                            ],
                        )
                    ],
                )
            ]
        )
    )


def markers_response(producer_id: int, error: Errors = Errors.NONE) -> WriteTxnMarkersResponse:
    """The outcome of a marker for `producer_id` on t-0."""
    return WriteTxnMarkersResponse(
        WriteTxnMarkersResponseData(
            markers=[
                WriteTxnMarkersResponseData.WritableTxnMarkerResult(
                    producer_id=producer_id,
                    topics=[
                        WriteTxnMarkersResponseData.WritableTxnMarkerTopicResult(
                            name="t",
                            partitions=[
                                WriteTxnMarkersResponseData.WritableTxnMarkerPartitionResult(
                                    partition_index=0, error_code=error.code
                                )
                            ],
                        )
                    ],
                )
            ]
        )
    )
