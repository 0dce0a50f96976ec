"""Port of clients/src/main/java/org/apache/kafka/clients/admin/internals/ListTransactionsHandler.java (Kafka 3.7).

listTransactions: a ListTransactions request to every broker (each coordinates its own share of the
transactional ids), with the options' state and producer id filters.
"""

from __future__ import annotations

from collections.abc import Set
from typing import Any

from kafka.clients.admin.internals.admin_api_handler import ApiResult, Batched
from kafka.clients.admin.internals.admin_api_lookup_strategy import AdminApiLookupStrategy
from kafka.clients.admin.internals.all_brokers_strategy import AllBrokersFuture, AllBrokersStrategy, BrokerKey
from kafka.clients.admin.list_transactions_options import ListTransactionsOptions
from kafka.clients.admin.transaction_listing import TransactionListing
from kafka.clients.admin.transaction_state import TransactionState
from kafka.common.errors import CoordinatorNotAvailableException
from kafka.common.message import ListTransactionsRequestData
from kafka.common.node import Node
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_request import DataBuilder
from kafka.common.requests.abstract_response import AbstractResponse
from kafka.common.requests.list_transactions_request import ListTransactionsRequest
from kafka.common.requests.list_transactions_response import ListTransactionsResponse
from kafka.common.utils.log_context import LogContext

__all__ = ["ListTransactionsHandler"]


class ListTransactionsHandler(Batched[BrokerKey, list[TransactionListing]]):
    def __init__(self, options: ListTransactionsOptions, log_context: LogContext) -> None:
        self._options = options
        self._log = log_context.logger("org.apache.kafka.clients.admin.internals.ListTransactionsHandler")
        self._lookup_strategy = AllBrokersStrategy(log_context)

    @staticmethod
    def new_future() -> AllBrokersFuture[list[TransactionListing]]:
        return AllBrokersFuture()

    def api_name(self) -> str:
        return "listTransactions"

    def lookup_strategy(self) -> AdminApiLookupStrategy[BrokerKey]:
        return self._lookup_strategy

    def build_batched_request(self, broker_id: int, keys: Set[BrokerKey]) -> DataBuilder[Any]:
        data = ListTransactionsRequestData(
            producer_id_filters=list(self._options.filtered_producer_ids()),
            state_filters=[str(state) for state in self._options.filtered_states()],
        )
        return DataBuilder(ListTransactionsRequest, data)

    def handle_response(
        self, broker: Node, keys: Set[BrokerKey], response: AbstractResponse
    ) -> ApiResult[BrokerKey, list[TransactionListing]]:
        broker_id = broker.id
        key = self._require_singleton(keys, broker_id)
        assert isinstance(response, ListTransactionsResponse)
        error = Errors.for_code(response.data.error_code)
        if error is Errors.COORDINATOR_LOAD_IN_PROGRESS:
            self._log.debug(
                f"The `ListTransactions` request sent to broker {broker_id} failed because the coordinator is still "
                "loading state. Will try again after backing off"
            )
            return ApiResult.empty()
        if error is Errors.COORDINATOR_NOT_AVAILABLE:
            self._log.debug(
                f"The `ListTransactions` request sent to broker {broker_id} failed because the coordinator is "
                "shutting down"
            )
            return ApiResult.failed(
                key,
                CoordinatorNotAvailableException(
                    f"ListTransactions request sent to broker {broker_id} failed because the coordinator is "
                    "shutting down"
                ),
            )
        if error is not Errors.NONE:
            self._log.error(
                f"The `ListTransactions` request sent to broker {broker_id} failed because of an unexpected error "
                f"{error.name}"
            )
            exc = error.exception(
                f"ListTransactions request sent to broker {broker_id} failed with an unexpected exception"
            )
            assert exc is not None
            return ApiResult.failed(key, exc)
        listings = [
            TransactionListing(
                state.transactional_id, state.producer_id, TransactionState.parse(state.transaction_state)
            )
            for state in response.data.transaction_states
        ]
        return ApiResult.completed(key, listings)

    @staticmethod
    def _require_singleton(keys: Set[BrokerKey], broker_id: int) -> BrokerKey:
        if len(keys) != 1:
            raise ValueError(f"Unexpected key set: {set(keys)}")
        key = next(iter(keys))
        if key.broker_id is None or key.broker_id != broker_id:
            raise ValueError(f"Unexpected broker key: {key}")
        return key
