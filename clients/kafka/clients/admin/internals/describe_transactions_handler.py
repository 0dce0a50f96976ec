"""Port of clients/src/main/java/org/apache/kafka/clients/admin/internals/DescribeTransactionsHandler.java
(Kafka 3.7).

describeTransactions: each transactional id's coordinator is found with FindCoordinator (key type TRANSACTION),
then asked with one DescribeTransactions request for all its ids.
"""

from __future__ import annotations

from collections.abc import Iterable, Set
from typing import Any

from kafka.clients.admin.internals.admin_api_future import AdminApiFuture, SimpleAdminApiFuture
from kafka.clients.admin.internals.admin_api_handler import ApiResult, Batched
from kafka.clients.admin.internals.admin_api_lookup_strategy import AdminApiLookupStrategy
from kafka.clients.admin.internals.coordinator_key import CoordinatorKey
from kafka.clients.admin.internals.coordinator_strategy import CoordinatorStrategy
from kafka.clients.admin.transaction_description import TransactionDescription
from kafka.clients.admin.transaction_state import TransactionState
from kafka.common.errors import TransactionalIdAuthorizationException, TransactionalIdNotFoundException
from kafka.common.message import DescribeTransactionsRequestData
from kafka.common.node import Node
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_request import DataBuilder
from kafka.common.requests.abstract_response import AbstractResponse
from kafka.common.requests.describe_transactions_request import DescribeTransactionsRequest
from kafka.common.requests.describe_transactions_response import DescribeTransactionsResponse
from kafka.common.requests.find_coordinator_request import CoordinatorType
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.log_context import LogContext

__all__ = ["DescribeTransactionsHandler"]


class DescribeTransactionsHandler(Batched[CoordinatorKey, TransactionDescription]):
    def __init__(self, log_context: LogContext) -> None:
        self._log = log_context.logger("org.apache.kafka.clients.admin.internals.DescribeTransactionsHandler")
        self._lookup_strategy = CoordinatorStrategy(CoordinatorType.TRANSACTION, log_context)

    @staticmethod
    def new_future(
        transactional_ids: Iterable[str],
    ) -> SimpleAdminApiFuture[CoordinatorKey, TransactionDescription]:
        return AdminApiFuture.for_keys({CoordinatorKey.by_transactional_id(t) for t in transactional_ids})

    def api_name(self) -> str:
        return "describeTransactions"

    def lookup_strategy(self) -> AdminApiLookupStrategy[CoordinatorKey]:
        return self._lookup_strategy

    def build_batched_request(self, broker_id: int, keys: Set[CoordinatorKey]) -> DataBuilder[Any]:
        transactional_ids: list[str] = []
        for key in keys:
            if key.type is not CoordinatorType.TRANSACTION:
                raise ValueError(f"Invalid group coordinator key {key} when building `DescribeTransaction` request")
            transactional_ids.append(key.id_value)
        data = DescribeTransactionsRequestData(transactional_ids=transactional_ids)
        return DataBuilder(DescribeTransactionsRequest, data)

    def handle_response(
        self, broker: Node, keys: Set[CoordinatorKey], response: AbstractResponse
    ) -> ApiResult[CoordinatorKey, TransactionDescription]:
        assert isinstance(response, DescribeTransactionsResponse)
        completed: dict[CoordinatorKey, TransactionDescription] = {}
        failed: dict[CoordinatorKey, BaseException] = {}
        unmapped: list[CoordinatorKey] = []
        for transaction_state in response.data.transaction_states:
            key = CoordinatorKey.by_transactional_id(transaction_state.transactional_id)
            if key not in keys:
                self._log.warn(
                    f"Response included transactionalId `{transaction_state.transactional_id}`, which was not requested"
                )
                continue
            error = Errors.for_code(transaction_state.error_code)
            if error is not Errors.NONE:
                self._handle_error(key, error, failed, unmapped)
                continue
            start_ms = transaction_state.transaction_start_time_ms
            completed[key] = TransactionDescription(
                broker.id,
                TransactionState.parse(transaction_state.transaction_state),
                transaction_state.producer_id,
                transaction_state.producer_epoch,
                transaction_state.transaction_timeout_ms,
                None if start_ms < 0 else start_ms,
                frozenset(
                    TopicPartition(topic_data.topic, partition)
                    for topic_data in transaction_state.topics
                    for partition in topic_data.partitions
                ),
            )
        return ApiResult(completed, failed, tuple(unmapped))

    def _handle_error(
        self,
        key: CoordinatorKey,
        error: Errors,
        failed: dict[CoordinatorKey, BaseException],
        unmapped: list[CoordinatorKey],
    ) -> None:
        transactional_id = key.id_value
        if error is Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED:
            failed[key] = TransactionalIdAuthorizationException(
                f"DescribeTransactions request for transactionalId `{transactional_id}` failed due to authorization "
                "failure"
            )
        elif error is Errors.TRANSACTIONAL_ID_NOT_FOUND:
            failed[key] = TransactionalIdNotFoundException(
                f"DescribeTransactions request for transactionalId `{transactional_id}` failed because the ID could "
                "not be found"
            )
        elif error is Errors.COORDINATOR_LOAD_IN_PROGRESS:
            # Asked again (the key stays mapped) once the coordinator has loaded.
            self._log.debug(
                f"DescribeTransactions request for transactionalId `{transactional_id}` failed because the "
                "coordinator is still in the process of loading state. Will retry"
            )
        elif error in (Errors.NOT_COORDINATOR, Errors.COORDINATOR_NOT_AVAILABLE):
            # The coordinator moved or is gone: find it again.
            unmapped.append(key)
            self._log.debug(
                f"DescribeTransactions request for transactionalId `{transactional_id}` returned error "
                f"{error.name}. Will attempt to find the coordinator again and retry"
            )
        else:
            exc = error.exception(
                f"DescribeTransactions request for transactionalId `{transactional_id}` failed due to unexpected error"
            )
            assert exc is not None
            failed[key] = exc
