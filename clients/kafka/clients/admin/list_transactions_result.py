"""Port of clients/src/main/java/org/apache/kafka/clients/admin/ListTransactionsResult.java (Kafka 3.7).

The outcome of listTransactions: a future of the brokers found, each with a future of its listings (every
broker is a transaction coordinator for some transactional ids).
"""

from __future__ import annotations

import threading
from collections.abc import Mapping

from kafka.clients.admin.transaction_listing import TransactionListing
from kafka.common.kafka_future import KafkaFuture, KafkaFutureImpl

__all__ = ["ListTransactionsResult"]


class ListTransactionsResult:
    def __init__(self, future: KafkaFuture[dict[int, KafkaFutureImpl[list[TransactionListing]]]]) -> None:
        self._future = future

    def all(self) -> KafkaFuture[list[TransactionListing]]:
        """Every listing of every broker; fails if the brokers could not be found or any broker failed."""
        return self.all_by_broker_id().then_apply(
            lambda by_broker: [listing for listings in by_broker.values() for listing in listings]
        )

    def by_broker_id(self) -> KafkaFuture[dict[int, KafkaFuture[list[TransactionListing]]]]:
        """The future of each broker's listings, once the brokers are known."""
        result: KafkaFutureImpl[dict[int, KafkaFuture[list[TransactionListing]]]] = KafkaFutureImpl()

        def on_brokers(
            broker_futures: Mapping[int, KafkaFutureImpl[list[TransactionListing]]] | None, exc: BaseException | None
        ) -> None:
            if broker_futures is not None:
                result.complete(dict(broker_futures))
            else:
                assert exc is not None
                result.complete_exceptionally(exc)

        self._future.when_complete(on_brokers)
        return result

    def all_by_broker_id(self) -> KafkaFuture[dict[int, list[TransactionListing]]]:
        """Each broker's listings; fails with the first broker failure."""
        all_future: KafkaFutureImpl[dict[int, list[TransactionListing]]] = KafkaFutureImpl()
        all_listings: dict[int, list[TransactionListing]] = {}
        lock = threading.Lock()

        def on_brokers(
            broker_futures: Mapping[int, KafkaFutureImpl[list[TransactionListing]]] | None,
            top_level_exception: BaseException | None,
        ) -> None:
            if top_level_exception is not None or broker_futures is None:
                assert top_level_exception is not None
                all_future.complete_exceptionally(top_level_exception)
                return
            remaining = set(broker_futures)
            if not remaining:
                all_future.complete(all_listings)
                return
            for broker_id, future in broker_futures.items():

                def on_broker(
                    listings: list[TransactionListing] | None,
                    broker_exception: BaseException | None,
                    broker_id: int = broker_id,
                ) -> None:
                    with lock:
                        if broker_exception is not None:
                            all_future.complete_exceptionally(broker_exception)
                        elif not all_future.is_done():
                            all_listings[broker_id] = list(listings or [])
                            remaining.discard(broker_id)
                            if not remaining:
                                all_future.complete(all_listings)

                future.when_complete(on_broker)

        self._future.when_complete(on_brokers)
        return all_future
