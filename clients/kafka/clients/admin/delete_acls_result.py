"""Port of clients/src/main/java/org/apache/kafka/clients/admin/DeleteAclsResult.java (Kafka 3.7).

A future per delete filter, with the bindings the filter matched (each deleted, or failed with its exception).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from kafka.common.acl.acl_binding import AclBinding
from kafka.common.acl.acl_binding_filter import AclBindingFilter
from kafka.common.errors import ApiException
from kafka.common.kafka_future import KafkaFuture

__all__ = ["DeleteAclsResult", "FilterResult", "FilterResults"]


@dataclass(frozen=True, slots=True)
class FilterResult:
    """One binding a filter matched: deleted when `exception` is None."""

    binding: AclBinding | None
    exception: ApiException | None


class FilterResults:
    def __init__(self, values: list[FilterResult]) -> None:
        self._values = values

    def values(self) -> list[FilterResult]:
        return self._values


class DeleteAclsResult:
    def __init__(self, futures: Mapping[AclBindingFilter, KafkaFuture[FilterResults]]) -> None:
        self._futures = dict(futures)

    def values(self) -> dict[AclBindingFilter, KafkaFuture[FilterResults]]:
        return dict(self._futures)

    def all(self) -> KafkaFuture[list[AclBinding]]:
        """The deleted bindings of every filter; fails with the first failure of a filter or of a binding."""

        def collect(_: None) -> list[AclBinding]:
            deleted: list[AclBinding] = []
            for future in self._futures.values():
                for r in future.get().values():
                    if r.exception is not None:
                        raise r.exception
                    if r.binding is not None:
                        deleted.append(r.binding)
            return deleted

        return KafkaFuture.all_of(self._futures.values()).then_apply(collect)
