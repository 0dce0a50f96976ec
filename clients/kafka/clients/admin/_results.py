"""Helpers shared by the result classes of this package (Java repeats them in each class).

`all_values` is the `allOf(...).thenApply(...)` that most results' all() build: a future of the map of every
value, failing with the first failure.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

from kafka.common.kafka_future import KafkaFuture
from kafka.common.protocol.errors import Errors

K = TypeVar("K")
V = TypeVar("V")


def all_values(futures: Mapping[K, KafkaFuture[V]]) -> KafkaFuture[dict[K, V]]:
    """A future of {key: value} once every future has succeeded; fails as soon as all are done if any failed."""
    snapshot = dict(futures)
    return KafkaFuture.all_of(snapshot.values()).then_apply(lambda _v: {k: f.get() for k, f in snapshot.items()})


def get_sub_level_error(
    sub_level_errors: Mapping[K, Errors], sub_key: K, key_not_found_msg: str
) -> BaseException | None:
    """The exception of `sub_key`'s error in a batched answer (None for NONE); an IllegalArgumentException
    (ValueError) with `key_not_found_msg` when the answer left the key out (KafkaAdminClient.getSubLevelError)."""
    if sub_key not in sub_level_errors:
        return ValueError(key_not_found_msg)
    return sub_level_errors[sub_key].exception()
