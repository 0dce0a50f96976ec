"""Tests of kafka.server.fetch_session, after Kafka's FetchSessionTest."""

from __future__ import annotations

from functools import partial
from typing import Any

from kafka.common.message import FetchResponseData
from kafka.common.protocol.errors import Errors
from kafka.common.protocol.types import ZERO_UUID, Uuid
from kafka.common.record.compression_type import CompressionType
from kafka.common.record.memory_records import MemoryRecords
from kafka.common.record.simple_record import SimpleRecord
from kafka.common.requests.fetch_metadata import FINAL_EPOCH, INITIAL_EPOCH, INVALID_SESSION_ID, FetchMetadata
from kafka.common.requests.fetch_request import PartitionData
from kafka.common.topic_id_partition import TopicIdPartition
from kafka.common.utils.time import MockTime
from kafka.server.fetch_session import (
    CachedPartition,
    FetchManager,
    FetchSessionCache,
    FullFetchContext,
    IncrementalFetchContext,
    SessionErrorContext,
    SessionlessFetchContext,
)

FOO_ID = Uuid(1, 1)
BAR_ID = Uuid(2, 2)
FOO0: TopicIdPartition = TopicIdPartition.of(ZERO_UUID, 0, "foo")
FOO1: TopicIdPartition = TopicIdPartition.of(ZERO_UUID, 1, "foo")
BAR0: TopicIdPartition = TopicIdPartition.of(ZERO_UUID, 0, "bar")
V12 = 12  # last Fetch version naming topics by name
V13 = 13  # first Fetch version naming topics by id


def _req(offset: int, max_bytes: int = 100, topic_id: Uuid = ZERO_UUID) -> PartitionData:
    return PartitionData(topic_id, offset, 0, max_bytes, None)


def _resp(hw: int, log_start: int = 0, records: MemoryRecords | None = None, error: Errors = Errors.NONE) -> Any:
    return FetchResponseData.PartitionData(
        error_code=error.code, high_watermark=hw, last_stable_offset=hw, log_start_offset=log_start, records=records
    )


def _records() -> MemoryRecords:
    return MemoryRecords.with_records(CompressionType.NONE, SimpleRecord(value=b"v"))


def _cached(n: int) -> dict[tuple[Any, int], CachedPartition]:
    parts = [CachedPartition.of(TopicIdPartition.of(ZERO_UUID, i, "t"), _req(0)) for i in range(n)]
    return {p.key: p for p in parts}


def test_new_session_ids_are_positive_and_unique() -> None:
    """Session ids are positive, never INVALID_SESSION_ID, and not reused while a session holds them."""
    cache = FetchSessionCache(100, 1000)
    ids = {cache.maybe_create_session(0, False, 1, False, lambda: _cached(1)) for _ in range(50)}
    assert len(ids) == 50
    assert all(i > INVALID_SESSION_ID for i in ids)


def test_session_cache_evicts_stale_sessions_first() -> None:
    """With the cache full, a new session evicts the least recently used one once it is older than eviction_ms,
    and is refused while no session is stale or less valuable."""
    cache = FetchSessionCache(3, 100)
    ids = [cache.maybe_create_session(t, False, 10, False, lambda: _cached(10)) for t in (0, 10, 20)]
    assert cache.size == 3
    assert cache.maybe_create_session(30, False, 10, False, lambda: _cached(10)) == INVALID_SESSION_ID
    first = cache.get(ids[0])
    assert first is not None
    cache.touch(first, 40)  # now ids[1] is the least recently used
    new_id = cache.maybe_create_session(111, False, 10, False, lambda: _cached(10))
    assert new_id != INVALID_SESSION_ID
    assert cache.get(ids[1]) is None and cache.get(ids[0]) is not None
    assert cache.evictions == 1
    assert cache.total_partitions == 30


def test_privileged_sessions_evict_unprivileged_but_not_the_reverse() -> None:
    """A follower (privileged) session may evict a recent consumer session; a consumer may not evict a recent
    follower session, and may evict an older consumer session with fewer partitions."""
    cache = FetchSessionCache(2, 1000)
    consumer = cache.maybe_create_session(0, False, 5, False, lambda: _cached(5))
    follower = cache.maybe_create_session(0, True, 5, False, lambda: _cached(5))
    assert cache.maybe_create_session(10, False, 50, False, lambda: _cached(50)) == INVALID_SESSION_ID
    follower2 = cache.maybe_create_session(10, True, 1, False, lambda: _cached(1))
    assert follower2 != INVALID_SESSION_ID
    assert cache.get(consumer) is None and cache.get(follower) is not None

    small = FetchSessionCache(1, 100)
    old = small.maybe_create_session(0, False, 2, False, lambda: _cached(2))
    session = small.get(old)
    assert session is not None
    small.touch(session, 50)  # used recently, but created long enough ago to be evictable by anyone
    small.touch(session, 101)
    assert small.maybe_create_session(102, False, 1, False, lambda: _cached(1)) == INVALID_SESSION_ID
    bigger = small.maybe_create_session(102, False, 3, False, lambda: _cached(3))
    assert bigger != INVALID_SESSION_ID and small.get(old) is None


def test_full_then_incremental_fetch_only_returns_changed_partitions() -> None:
    """A full fetch creates a session; an incremental fetch reads every cached partition but answers only those
    with new records, a moved high watermark or log start offset, or an error."""
    time = MockTime()
    manager = FetchManager(time, FetchSessionCache(10, 1000))
    full = manager.new_context(
        V12, FetchMetadata.INITIAL, False, {FOO0: _req(0), FOO1: _req(10), BAR0: _req(20)}, [], {}
    )
    assert isinstance(full, FullFetchContext)
    response = full.update_and_generate_response_data({FOO0: _resp(5), FOO1: _resp(10), BAR0: _resp(20)})
    session_id = response.session_id()
    assert response.error() == Errors.NONE and session_id != INVALID_SESSION_ID
    assert full.get_fetch_offset(FOO1) == 10

    incremental = manager.new_context(V12, FetchMetadata(session_id, 1), False, {FOO0: _req(5)}, [], {})
    assert isinstance(incremental, IncrementalFetchContext)
    seen: list[tuple[TopicIdPartition, int]] = []
    incremental.foreach_partition(lambda tp, data: seen.append((tp, data.fetch_offset)))
    assert seen == [(FOO0, 5), (FOO1, 10), (BAR0, 20)]

    updates = {FOO0: _resp(5), FOO1: _resp(11), BAR0: _resp(20, records=_records())}
    size_before = incremental.get_response_size(dict(updates), V12)
    response2 = incremental.update_and_generate_response_data(updates)
    assert response2.session_id() == session_id
    assert list(response2.response_data({}, V12)) == [("foo", 1), ("bar", 0)]
    assert size_before == response2.data.size(V12) + 4
    # BAR0 got records, so it moved to the end of the session's order.
    order: list[TopicIdPartition] = []
    manager.new_context(V12, FetchMetadata(session_id, 2), False, {}, [], {}).foreach_partition(
        lambda tp, _: order.append(tp)
    )
    assert order == [FOO0, FOO1, BAR0]


def test_incremental_fetch_adds_and_removes_partitions_and_closes_when_empty() -> None:
    """Incremental requests add new partitions, update known ones and forget others; forgetting the last one
    closes the session into a sessionless fetch."""
    manager = FetchManager(MockTime(), FetchSessionCache(10, 1000))
    full = manager.new_context(V12, FetchMetadata.INITIAL, False, {FOO0: _req(0)}, [], {})
    session_id = full.update_and_generate_response_data({FOO0: _resp(0)}).session_id()

    ctx = manager.new_context(V12, FetchMetadata(session_id, 1), False, {BAR0: _req(7)}, [], {})
    assert isinstance(ctx, IncrementalFetchContext)
    assert ctx.get_fetch_offset(BAR0) == 7
    ctx.update_and_generate_response_data({FOO0: _resp(0), BAR0: _resp(7)})

    ctx2 = manager.new_context(V12, FetchMetadata(session_id, 2), False, {}, [FOO0], {})
    parts: list[TopicIdPartition] = []
    ctx2.foreach_partition(lambda tp, _: parts.append(tp))
    assert parts == [BAR0]
    ctx2.update_and_generate_response_data({BAR0: _resp(7)})

    ctx3 = manager.new_context(V12, FetchMetadata(session_id, 3), False, {}, [BAR0], {})
    assert isinstance(ctx3, SessionlessFetchContext)
    assert manager.cache.get(session_id) is None


def test_session_errors_for_unknown_session_wrong_epoch_and_topic_id_mismatch() -> None:
    """An unknown session id, an epoch out of sequence, and a request version that disagrees with the session's
    use of topic ids each answer with the session error only."""
    manager = FetchManager(MockTime(), FetchSessionCache(10, 1000))
    unknown = manager.new_context(V12, FetchMetadata(12345, 1), False, {FOO0: _req(0)}, [], {})
    assert isinstance(unknown, SessionErrorContext)
    assert unknown.update_and_generate_response_data({}).error() == Errors.FETCH_SESSION_ID_NOT_FOUND

    full = manager.new_context(V12, FetchMetadata.INITIAL, False, {FOO0: _req(0)}, [], {})
    session_id = full.update_and_generate_response_data({FOO0: _resp(0)}).session_id()
    stale = manager.new_context(V12, FetchMetadata(session_id, 5), False, {}, [], {})
    assert stale.update_and_generate_response_data({}).error() == Errors.INVALID_FETCH_SESSION_EPOCH
    mismatch = manager.new_context(V13, FetchMetadata(session_id, 1), False, {}, [], {})
    assert mismatch.update_and_generate_response_data({}).error() == Errors.FETCH_SESSION_TOPIC_ID_ERROR


def test_duplicate_incremental_request_is_rejected_at_response_time() -> None:
    """Two contexts made for the same epoch: the first answers, the second finds the session moved on."""
    manager = FetchManager(MockTime(), FetchSessionCache(10, 1000))
    full = manager.new_context(V12, FetchMetadata.INITIAL, False, {FOO0: _req(0)}, [], {})
    session_id = full.update_and_generate_response_data({FOO0: _resp(0)}).session_id()
    first = manager.new_context(V12, FetchMetadata(session_id, 1), False, {}, [], {})
    session = manager.cache.get(session_id)
    assert session is not None
    second = IncrementalFetchContext(MockTime(), FetchMetadata(session_id, 1), session, {})
    manager.new_context(V12, FetchMetadata(session_id, 2), False, {}, [], {})
    assert first.update_and_generate_response_data({}).error() == Errors.INVALID_FETCH_SESSION_EPOCH
    assert second.get_throttled_response(10).error() == Errors.INVALID_FETCH_SESSION_EPOCH


def test_final_epoch_closes_session_and_fetches_without_one() -> None:
    """A full request with epoch FINAL closes the session it names and uses no session."""
    manager = FetchManager(MockTime(), FetchSessionCache(10, 1000))
    full = manager.new_context(V12, FetchMetadata.INITIAL, False, {FOO0: _req(0)}, [], {})
    session_id = full.update_and_generate_response_data({FOO0: _resp(0)}).session_id()
    ctx = manager.new_context(V12, FetchMetadata(session_id, FINAL_EPOCH), False, {FOO0: _req(3)}, [], {})
    assert isinstance(ctx, SessionlessFetchContext)
    assert manager.cache.get(session_id) is None
    assert ctx.update_and_generate_response_data({FOO0: _resp(3)}).session_id() == INVALID_SESSION_ID
    assert FetchMetadata(0, INITIAL_EPOCH).is_full()


def test_topic_id_session_resolves_names_and_forgets_by_id() -> None:
    """A v13 session keys partitions by topic id: a partition added while its name was unknown gets its name
    once the id is known, and forgetting by id removes it whatever name the request carries."""
    manager = FetchManager(MockTime(), FetchSessionCache(10, 1000))
    unknown_bar: TopicIdPartition = TopicIdPartition.of(BAR_ID, 0, None)
    foo: TopicIdPartition = TopicIdPartition.of(FOO_ID, 0, "foo")
    full = manager.new_context(
        V13,
        FetchMetadata.INITIAL,
        False,
        {foo: _req(0, topic_id=FOO_ID), unknown_bar: _req(0, topic_id=BAR_ID)},
        [],
        {},
    )
    error_resp = _resp(-1, error=Errors.UNKNOWN_TOPIC_ID)
    session_id = full.update_and_generate_response_data({foo: _resp(0), unknown_bar: error_resp}).session_id()

    ctx = manager.new_context(V13, FetchMetadata(session_id, 1), False, {}, [], {BAR_ID: "bar"})
    parts: list[TopicIdPartition] = []
    ctx.foreach_partition(lambda tp, _: parts.append(tp))
    assert parts == [foo, TopicIdPartition.of(BAR_ID, 0, "bar")]
    ctx.update_and_generate_response_data({foo: _resp(0), TopicIdPartition.of(BAR_ID, 0, "bar"): _resp(0)})

    ctx2 = manager.new_context(V13, FetchMetadata(session_id, 2), False, {}, [TopicIdPartition.of(BAR_ID, 0, None)], {})
    parts2: list[TopicIdPartition] = []
    ctx2.foreach_partition(lambda tp, _: parts2.append(tp))
    assert parts2 == [foo]


def _touch_as_kafka(cache: FetchSessionCache, session: Any, now: int) -> None:
    """FetchSessionCache.touch as Kafka writes it: the session removed from every map and filed again."""
    with cache.lock, session.lock:
        cache._last_used.pop(session.last_used_key(), None)
        session.last_used_ms = now
        cache._last_used[session.last_used_key()] = session
        old_size = session.cached_size
        if old_size != -1:
            old_key = session.evictable_key()
            cache._evictable_by_privileged.pop(old_key, None)
            cache._evictable_by_all.pop(old_key, None)
            cache._num_partitions -= old_size
        session.cached_size = session.size
        new_key = session.evictable_key()
        if not session.privileged or now - session.creation_ms > cache._eviction_ms:
            cache._evictable_by_privileged[new_key] = session
        if now - session.creation_ms > cache._eviction_ms:
            cache._evictable_by_all[new_key] = session
        cache._num_partitions += session.cached_size


def test_touch_files_sessions_as_kafka_does() -> None:
    """touch leaves an unchanged session where it is filed; after any sequence of creations, touches at the same
    or later times, partition changes and evictions, the cache's maps are those Kafka's touch makes."""
    import random

    rng = random.Random(7)
    ours, reference = FetchSessionCache(6, 50), FetchSessionCache(6, 50)
    reference.touch = lambda session, now: _touch_as_kafka(reference, session, now)  # type: ignore[method-assign]

    def state(cache: FetchSessionCache) -> Any:
        ids = {id(s): s.id for s in cache._sessions.values()}
        return (
            [(k, ids[id(s)]) for k, s in cache._last_used.items()],
            list(cache._evictable_by_all),
            list(cache._evictable_by_privileged),
            cache._num_partitions,
            sorted(cache._sessions),
        )

    now = 0
    for _ in range(3000):
        now += rng.choice([0, 0, 1, 7, 30])
        op = rng.random()
        if op < 0.15:
            privileged = rng.random() < 0.3
            size = rng.randrange(1, 5)
            new_id = rng.randrange(1, 10**6)
            ours.new_session_id = reference.new_session_id = lambda n=new_id: n  # type: ignore[method-assign,misc]
            created = ours.maybe_create_session(now, privileged, size, False, partial(_cached, size))
            again = reference.maybe_create_session(now, privileged, size, False, partial(_cached, size))
            assert created == again
        elif ours._sessions:
            session_id = rng.choice(sorted(ours._sessions))
            session, twin = ours.get(session_id), reference.get(session_id)
            assert session is not None and twin is not None
            if op < 0.3:
                add = rng.random() < 0.5
                for s in (session, twin):  # a partition added or dropped before the touch
                    if add:
                        tip = TopicIdPartition.of(ZERO_UUID, now, "x")
                        s.partition_map[("x", now)] = CachedPartition.of(tip, _req(0))
                    elif s.partition_map:
                        del s.partition_map[next(iter(s.partition_map))]
            ours.touch(session, now)
            reference.touch(twin, now)
        assert state(ours) == state(reference)
