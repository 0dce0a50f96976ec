"""Port of clients/src/main/java/org/apache/kafka/clients/admin/ListConsumerGroupsResult.java (Kafka 3.7).

The outcome of listConsumerGroups, which asks every broker: the listings of the brokers that answered
(valid), the errors of those that did not (errors), and all(), which fails with the first error if any.
"""

from __future__ import annotations

from typing import Any

from kafka.clients.admin.consumer_group_listing import ConsumerGroupListing
from kafka.common.kafka_future import KafkaFuture, KafkaFutureImpl

__all__ = ["ListConsumerGroupsResult"]


class ListConsumerGroupsResult:
    def __init__(self, future: KafkaFuture[list[Any]]) -> None:
        """`future` holds a list of ConsumerGroupListings and exceptions, as Java's Collection<Object>."""
        self._all: KafkaFutureImpl[list[ConsumerGroupListing]] = KafkaFutureImpl()
        self._valid: KafkaFutureImpl[list[ConsumerGroupListing]] = KafkaFutureImpl()
        self._errors: KafkaFutureImpl[list[BaseException]] = KafkaFutureImpl()

        def split(results: list[Any]) -> None:
            cur_errors = [r for r in results if isinstance(r, BaseException)]
            cur_valid = [r for r in results if not isinstance(r, BaseException)]
            if cur_errors:
                self._all.complete_exceptionally(cur_errors[0])
            else:
                self._all.complete(cur_valid)
            self._valid.complete(cur_valid)
            self._errors.complete(cur_errors)

        future.then_apply(split)

    def all(self) -> KafkaFuture[list[ConsumerGroupListing]]:
        return self._all

    def valid(self) -> KafkaFuture[list[ConsumerGroupListing]]:
        return self._valid

    def errors(self) -> KafkaFuture[list[BaseException]]:
        return self._errors
