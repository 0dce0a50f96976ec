"""Port of core/src/main/scala/kafka/server/FetchSession.scala (Kafka 2.8).

Incremental fetch sessions (KIP-227). A fetcher that keeps fetching the same partitions may ask the broker to
remember them in a session: later requests then name only the partitions that changed, and responses carry only
the partitions with something new (records, a moved high watermark or log start offset, an error). The
`FetchManager` turns each Fetch request into a `FetchContext` that knows which partitions to read and how to
build the response; `FetchSessionCache` holds the sessions within `max.incremental.fetch.session.cache.slots`,
evicting stale or less valuable ones.

# PORT: the protocol we serve is 3.7's, whose Fetch v13+ names topics by id. So partitions are keyed as the
# requests layer keys them, by TopicIdPartition (the topic name None while unknown), sessions remember whether
# they use topic ids, and `FetchManager.new_context` takes the request version and the id-to-name map: all as
# Kafka 3.7's FetchSession.scala, which is 2.8's plus this. Metrics (gauges and the evictions meter) are not
# ported yet; `FetchSessionCache.evictions` counts evictions instead.
"""

from __future__ import annotations

import random
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, MutableMapping
from typing import Any

from sortedcontainers import SortedDict

from kafka.common.protocol.errors import Errors
from kafka.common.protocol.types import ZERO_UUID, Uuid
from kafka.common.requests.fetch_metadata import FINAL_EPOCH, INITIAL_EPOCH, INVALID_SESSION_ID, FetchMetadata
from kafka.common.requests.fetch_request import PartitionData
from kafka.common.requests.fetch_response import INVALID_PREFERRED_REPLICA_ID, FetchResponse
from kafka.common.topic_id_partition import TopicIdPartition
from kafka.common.utils.time import Time
from kafka.utils.logging import Logging

REQ_MAP = Mapping[TopicIdPartition, PartitionData]
RESP_MAP = MutableMapping[TopicIdPartition, Any]  # values: FetchResponseData.PartitionData
TOPIC_NAME_MAP = Mapping[Uuid, str]

NUM_INCREMENTAL_FETCH_SESSIONS = "NumIncrementalFetchSessions"
NUM_INCREMENTAL_FETCH_PARTITIONS_CACHED = "NumIncrementalFetchPartitionsCached"
INCREMENTAL_FETCH_SESSIONS_EVICTIONS_PER_SEC = "IncrementalFetchSessionEvictionsPerSec"
EVICTIONS = "evictions"

_INT32_MAX = 2**31 - 1
_NONE_CODE = Errors.NONE.code


def partitions_to_log_string(partitions: Collection[TopicIdPartition], trace_enabled: bool) -> str:
    if trace_enabled:
        return "(" + ", ".join(map(str, partitions)) + ")"
    return f"{len(partitions)} partition(s)"


def _response(error: Errors, throttle_time_ms: int, session_id: int, updates: RESP_MAP) -> FetchResponse:
    return FetchResponse.of(error, throttle_time_ms, session_id, updates)


def _size_of(version: int, partitions: Iterable[tuple[TopicIdPartition, Any]]) -> int:
    return FetchResponse.size_of(version, partitions)


class CachedPartition:
    """One partition of a session: what the fetcher last asked for and what it was last told.

    Two cached partitions are the same partition when their topic ids match (sessions using ids) or, with a zero
    id, when their topic names match; `key` is that identity. `fetcher_log_start_offset` is the fetcher's own
    log start offset, `local_log_start_offset` this broker's.
    """

    __slots__ = (
        "_topic_id_partition",
        "fetch_offset",
        "fetcher_log_start_offset",
        "high_watermark",
        "last_fetched_epoch",
        "leader_epoch",
        "local_log_start_offset",
        "max_bytes",
        "partition",
        "topic",
        "topic_id",
    )

    def __init__(
        self,
        topic: str | None,
        topic_id: Uuid,
        partition: int,
        max_bytes: int = -1,
        fetch_offset: int = -1,
        high_watermark: int = -1,
        leader_epoch: int | None = None,
        fetcher_log_start_offset: int = -1,
        local_log_start_offset: int = -1,
        last_fetched_epoch: int | None = None,
    ) -> None:
        self.topic = topic
        self.topic_id = topic_id
        self.partition = partition
        self.max_bytes = max_bytes
        self.fetch_offset = fetch_offset
        self.high_watermark = high_watermark
        self.leader_epoch = leader_epoch
        self.fetcher_log_start_offset = fetcher_log_start_offset
        self.local_log_start_offset = local_log_start_offset
        self.last_fetched_epoch = last_fetched_epoch
        # Built once and handed out on every fetch of the session; rebuilt when an unknown name is resolved.
        self._topic_id_partition: TopicIdPartition | None = None

    @classmethod
    def of(
        cls, part: TopicIdPartition, req_data: PartitionData | None = None, resp_data: Any = None
    ) -> CachedPartition:
        """From a partition key alone, with its request data, or with request and response data."""
        tp = part.topic_partition
        if req_data is None:
            cached = cls(tp.topic, part.topic_id, tp.partition)
            cached._topic_id_partition = part
            return cached
        cached = cls(
            tp.topic,
            part.topic_id,
            tp.partition,
            req_data.max_bytes,
            req_data.fetch_offset,
            -1 if resp_data is None else resp_data.high_watermark,
            req_data.current_leader_epoch,
            req_data.log_start_offset,
            -1 if resp_data is None else resp_data.log_start_offset,
            req_data.last_fetched_epoch,
        )
        cached._topic_id_partition = part
        return cached

    @staticmethod
    def key_of(part: TopicIdPartition) -> tuple[Any, int]:
        topic_id = part.topic_id
        tp = part.topic_partition
        # The zero id is mostly the constant itself: `is` spares Uuid.__eq__ then.
        if topic_id is ZERO_UUID or topic_id == ZERO_UUID:
            return (tp.topic, tp.partition)
        return (topic_id, tp.partition)

    @property
    def key(self) -> tuple[Any, int]:
        return (self.topic_id, self.partition) if self.topic_id != ZERO_UUID else (self.topic, self.partition)

    @property
    def topic_id_partition(self) -> TopicIdPartition:
        tip = self._topic_id_partition
        if tip is None:
            tip = self._topic_id_partition = TopicIdPartition.of(self.topic_id, self.partition, self.topic)
        return tip

    def req_data(self) -> PartitionData:
        return PartitionData(
            self.topic_id,
            self.fetch_offset,
            self.fetcher_log_start_offset,
            self.max_bytes,
            self.leader_epoch,
            self.last_fetched_epoch,
        )

    def update_request_params(self, req_data: PartitionData) -> None:
        self.max_bytes = req_data.max_bytes
        self.fetch_offset = req_data.fetch_offset
        self.fetcher_log_start_offset = req_data.log_start_offset
        self.leader_epoch = req_data.current_leader_epoch
        self.last_fetched_epoch = req_data.last_fetched_epoch

    def maybe_resolve_unknown_name(self, topic_names: TOPIC_NAME_MAP) -> None:
        if self.topic is None:
            self.topic = topic_names.get(self.topic_id)
            if self.topic is not None:
                self._topic_id_partition = None

    def maybe_update_response_data(self, resp_data: Any, update_response_data: bool) -> bool:
        """Whether the partition must appear in an incremental response; with `update_response_data`, also
        remembers what the response tells the fetcher. Call it holding the session's lock."""
        # Every fetch of a session runs this twice for each partition (sizing, then answering): the record size
        # and the checks below are read off the partition data directly.
        must_respond = False
        records = resp_data.records
        if records is not None and (
            len(records) if isinstance(records, (bytes, bytearray, memoryview)) else records.size_in_bytes()
        ):
            must_respond = True  # new data always goes out
        if self.high_watermark != resp_data.high_watermark:
            must_respond = True
            if update_response_data:
                self.high_watermark = resp_data.high_watermark
        if self.local_log_start_offset != resp_data.log_start_offset:
            must_respond = True
            if update_response_data:
                self.local_log_start_offset = resp_data.log_start_offset
        if resp_data.preferred_read_replica != INVALID_PREFERRED_REPLICA_ID:
            must_respond = True
        if resp_data.error_code != _NONE_CODE:
            # Errors always go out; forgetting the high watermark makes the partition go out again once the
            # error clears.
            if update_response_data:
                self.high_watermark = -1
            must_respond = True
        if resp_data.diverging_epoch.epoch >= 0:
            must_respond = True  # the fetcher has to truncate
        return must_respond

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CachedPartition) and self.key == other.key

    def __hash__(self) -> int:
        return hash(self.key)

    def __str__(self) -> str:
        return (
            f"CachedPartition(topic={self.topic}, topicId={self.topic_id}, partition={self.partition}, "
            f"maxBytes={self.max_bytes}, fetchOffset={self.fetch_offset}, highWatermark={self.high_watermark}, "
            f"fetcherLogStartOffset={self.fetcher_log_start_offset}, "
            f"localLogStartOffset={self.local_log_start_offset})"
        )


class FetchSession:
    """A session: its id, whether a follower made it (privileged), its cached partitions in fetch order, and its
    epoch. Mutable fields are read and written holding `lock`.

    # PORT: Java synchronizes on the session object; `lock` is that monitor (an RLock)."""

    def __init__(
        self,
        id: int,
        privileged: bool,
        partition_map: dict[tuple[Any, int], CachedPartition],
        uses_topic_ids: bool,
        creation_ms: int,
        last_used_ms: int,
        epoch: int,
    ) -> None:
        self.id = id
        self.privileged = privileged
        self.partition_map = partition_map
        self.uses_topic_ids = uses_topic_ids
        self.creation_ms = creation_ms
        self.last_used_ms = last_used_ms
        self.epoch = epoch
        # The size the cache last accounted for this session; -1 while it is not in the cache.
        self.cached_size = -1
        self.lock = threading.RLock()

    @property
    def size(self) -> int:
        with self.lock:
            return len(self.partition_map)

    def is_empty(self) -> bool:
        with self.lock:
            return not self.partition_map

    def last_used_key(self) -> tuple[int, int]:
        """Java's LastUsedKey(lastUsedMs, id), ordered the same way."""
        with self.lock:
            return (self.last_used_ms, self.id)

    def evictable_key(self) -> tuple[bool, int, int]:
        """Java's EvictableKey(privileged, size, id): unprivileged, then smaller, sessions sort first."""
        with self.lock:
            return (self.privileged, self.cached_size, self.id)

    def metadata(self) -> FetchMetadata:
        with self.lock:
            return FetchMetadata(self.id, self.epoch)

    def get_fetch_offset(self, topic_id_partition: TopicIdPartition) -> int | None:
        with self.lock:
            cached = self.partition_map.get(CachedPartition.key_of(topic_id_partition))
            return None if cached is None else cached.fetch_offset

    def update(
        self, fetch_data: REQ_MAP, to_forget: Iterable[TopicIdPartition], req_metadata: FetchMetadata
    ) -> tuple[list[TopicIdPartition], list[TopicIdPartition], list[TopicIdPartition]]:
        """Applies an incremental request: new partitions are added, known ones get the new request parameters,
        forgotten ones are dropped. Returns (added, updated, removed)."""
        added: list[TopicIdPartition] = []
        updated: list[TopicIdPartition] = []
        removed: list[TopicIdPartition] = []
        with self.lock:
            for topic_part, req_data in fetch_data.items():
                key = CachedPartition.key_of(topic_part)
                cached = self.partition_map.get(key)
                if cached is None:
                    self.partition_map[key] = CachedPartition.of(topic_part, req_data)
                    added.append(topic_part)
                else:
                    cached.update_request_params(req_data)
                    updated.append(topic_part)
            for p in to_forget:
                if self.partition_map.pop(CachedPartition.key_of(p), None) is not None:
                    removed.append(p)
        return added, updated, removed

    def __str__(self) -> str:
        with self.lock:
            return (
                f"FetchSession(id={self.id}, privileged={self.privileged}, "
                f"partitionMap.size={len(self.partition_map)}, usesTopicIds={self.uses_topic_ids}, "
                f"creationMs={self.creation_ms}, lastUsedMs={self.last_used_ms}, epoch={self.epoch})"
            )


class FetchContext(ABC, Logging):
    """How one Fetch request is served: which partitions to read, and how to turn the reads into a response."""

    logger_name = "kafka.server.FetchContext"

    @abstractmethod
    def get_fetch_offset(self, part: TopicIdPartition) -> int | None: ...

    @abstractmethod
    def foreach_partition(self, fun: Callable[[TopicIdPartition, PartitionData], None]) -> None:
        """Calls `fun` with every partition to read and its request data."""

    @abstractmethod
    def get_response_size(self, updates: RESP_MAP, version_id: int) -> int:
        """The size of the response for quota purposes, without changing the session."""

    @abstractmethod
    def update_and_generate_response_data(self, updates: RESP_MAP) -> FetchResponse:
        """Records the response in the session (if any) and builds it; `updates` may be pruned in place."""

    def partitions_to_log_string(self, partitions: Collection[TopicIdPartition]) -> str:
        return partitions_to_log_string(partitions, self.is_trace_enabled())

    def get_throttled_response(self, throttle_time_ms: int) -> FetchResponse:
        """An empty response for a throttled request."""
        return _response(Errors.NONE, throttle_time_ms, INVALID_SESSION_ID, {})


class SessionErrorContext(FetchContext):
    """A request whose session could not be used: the response carries only the error."""

    logger_name = "kafka.server.SessionErrorContext"

    def __init__(self, error: Errors, req_metadata: FetchMetadata) -> None:
        # PORT: Kafka's field is `error`, which would hide Logging.error here.
        self.session_error = error
        self.req_metadata = req_metadata

    def get_fetch_offset(self, part: TopicIdPartition) -> int | None:
        return None

    def foreach_partition(self, fun: Callable[[TopicIdPartition, PartitionData], None]) -> None:
        pass

    def get_response_size(self, updates: RESP_MAP, version_id: int) -> int:
        return _size_of(version_id, ())

    def update_and_generate_response_data(self, updates: RESP_MAP) -> FetchResponse:
        # The session is unknown, so so are the partitions it was meant to fetch.
        self.debug(f"Session error fetch context returning {self.session_error}")
        return _response(self.session_error, 0, INVALID_SESSION_ID, {})


class SessionlessFetchContext(FetchContext):
    """A full fetch that neither uses nor creates a session (older clients, or epoch FINAL)."""

    logger_name = "kafka.server.SessionlessFetchContext"

    def __init__(self, fetch_data: REQ_MAP) -> None:
        self.fetch_data = fetch_data

    def get_fetch_offset(self, part: TopicIdPartition) -> int | None:
        data = self.fetch_data.get(part)
        return None if data is None else data.fetch_offset

    def foreach_partition(self, fun: Callable[[TopicIdPartition, PartitionData], None]) -> None:
        for tp, data in self.fetch_data.items():
            fun(tp, data)

    def get_response_size(self, updates: RESP_MAP, version_id: int) -> int:
        return _size_of(version_id, updates.items())

    def update_and_generate_response_data(self, updates: RESP_MAP) -> FetchResponse:
        self.debug(f"Sessionless fetch context returning {self.partitions_to_log_string(list(updates))}")
        return _response(Errors.NONE, 0, INVALID_SESSION_ID, updates)


class FullFetchContext(FetchContext):
    """A full fetch that asks for a new session (epoch INITIAL): the response carries the new session id, or
    INVALID_SESSION_ID when the cache had no room."""

    logger_name = "kafka.server.FullFetchContext"

    def __init__(
        self,
        time: Time,
        cache: FetchSessionCache,
        req_metadata: FetchMetadata,
        fetch_data: REQ_MAP,
        uses_topic_ids: bool,
        is_from_follower: bool,
    ) -> None:
        self._time = time
        self._cache = cache
        self._req_metadata = req_metadata
        self._fetch_data = fetch_data
        self._uses_topic_ids = uses_topic_ids
        self._is_from_follower = is_from_follower

    def get_fetch_offset(self, part: TopicIdPartition) -> int | None:
        data = self._fetch_data.get(part)
        return None if data is None else data.fetch_offset

    def foreach_partition(self, fun: Callable[[TopicIdPartition, PartitionData], None]) -> None:
        for tp, data in self._fetch_data.items():
            fun(tp, data)

    def get_response_size(self, updates: RESP_MAP, version_id: int) -> int:
        return _size_of(version_id, updates.items())

    def update_and_generate_response_data(self, updates: RESP_MAP) -> FetchResponse:
        def create_new_session() -> dict[tuple[Any, int], CachedPartition]:
            cached: dict[tuple[Any, int], CachedPartition] = {}
            for part, resp_data in updates.items():
                req_data = self._fetch_data[part]
                cp = CachedPartition.of(part, req_data, resp_data)
                cached[cp.key] = cp
            return cached

        response_session_id = self._cache.maybe_create_session(
            self._time.milliseconds(), self._is_from_follower, len(updates), self._uses_topic_ids, create_new_session
        )
        if self.is_debug_enabled():
            self.debug(
                f"Full fetch context with session id {response_session_id} returning "
                f"{self.partitions_to_log_string(list(updates))}"
            )
        return _response(Errors.NONE, 0, response_session_id, updates)


class IncrementalFetchContext(FetchContext):
    """A fetch within an existing session: reads every cached partition, answers with only those that changed."""

    logger_name = "kafka.server.IncrementalFetchContext"

    def __init__(
        self, time: Time, req_metadata: FetchMetadata, session: FetchSession, topic_names: TOPIC_NAME_MAP
    ) -> None:
        self._time = time
        self._req_metadata = req_metadata
        self._session = session
        self._topic_names = topic_names

    def get_fetch_offset(self, part: TopicIdPartition) -> int | None:
        return self._session.get_fetch_offset(part)

    def foreach_partition(self, fun: Callable[[TopicIdPartition, PartitionData], None]) -> None:
        session = self._session
        with session.lock:
            for part in list(session.partition_map.values()):
                # A partition cached under an id whose name was unknown may be resolvable now.
                if session.uses_topic_ids:
                    part.maybe_resolve_unknown_name(self._topic_names)
                fun(part.topic_id_partition, part.req_data())

    def _selected(self, updates: RESP_MAP, update_and_remove: bool) -> Iterator[tuple[TopicIdPartition, Any]]:
        """The entries of `updates` that must be sent. With `update_and_remove`, the session records them, moves
        the partitions that got records to the end of its order (so others get their turn first next time), and
        entries that need not be sent are deleted from `updates`. Holds the session's lock (caller)."""
        partition_map = self._session.partition_map
        for topic_part, resp_data in list(updates.items()):
            key = CachedPartition.key_of(topic_part)
            cached = partition_map[key]
            if cached.maybe_update_response_data(resp_data, update_and_remove):
                if update_and_remove and FetchResponse.records_size(resp_data) > 0:
                    del partition_map[key]
                    partition_map[key] = cached
                yield topic_part, resp_data
            elif update_and_remove:
                del updates[topic_part]

    def get_response_size(self, updates: RESP_MAP, version_id: int) -> int:
        session = self._session
        with session.lock:
            expected_epoch = FetchMetadata.next_epoch(self._req_metadata.epoch)
            if session.epoch != expected_epoch:
                return _size_of(version_id, ())
            return _size_of(version_id, list(self._selected(updates, False)))

    def update_and_generate_response_data(self, updates: RESP_MAP) -> FetchResponse:
        session = self._session
        with session.lock:
            # The epoch must not have moved between creating this context and answering.
            expected_epoch = FetchMetadata.next_epoch(self._req_metadata.epoch)
            if session.epoch != expected_epoch:
                self.info(
                    f"Incremental fetch session {session.id} expected epoch {expected_epoch}, but got "
                    f"{session.epoch}.  Possible duplicate request."
                )
                return _response(Errors.INVALID_FETCH_SESSION_EPOCH, 0, session.id, {})
            for _ in self._selected(updates, True):
                pass
            if self.is_debug_enabled():
                self.debug(
                    f"Incremental fetch context with session id {session.id} returning "
                    f"{self.partitions_to_log_string(list(updates))}"
                )
            return _response(Errors.NONE, 0, session.id, updates)

    def get_throttled_response(self, throttle_time_ms: int) -> FetchResponse:
        session = self._session
        with session.lock:
            expected_epoch = FetchMetadata.next_epoch(self._req_metadata.epoch)
            if session.epoch != expected_epoch:
                self.info(
                    f"Incremental fetch session {session.id} expected epoch {expected_epoch}, but got "
                    f"{session.epoch}.  Possible duplicate request."
                )
                return _response(Errors.INVALID_FETCH_SESSION_EPOCH, throttle_time_ms, session.id, {})
            return _response(Errors.NONE, throttle_time_ms, session.id, {})


class FetchSessionCache(Logging):
    """The broker's fetch sessions, at most `max_entries` of them.

    A new session may take the place of an existing one when that one is stale (unused for more than
    `eviction_ms`), or when the new one is more valuable: privileged over unprivileged, then more partitions
    over fewer; sessions younger than `eviction_ms` are only evictable by privileged newcomers if unprivileged.

    Lock order: the cache's lock, then a session's lock; never the other way round.
    """

    logger_name = "kafka.server.FetchSessionCache"

    def __init__(self, max_entries: int, eviction_ms: int) -> None:
        self._max_entries = max_entries
        self._eviction_ms = eviction_ms
        self.lock = threading.RLock()
        self._num_partitions = 0
        self._sessions: dict[int, FetchSession] = {}
        # (last used ms, id) -> session
        self._last_used: SortedDict = SortedDict()
        # (privileged, size, id) -> session: evictable by any newcomer / by privileged newcomers.
        self._evictable_by_all: SortedDict = SortedDict()
        self._evictable_by_privileged: SortedDict = SortedDict()
        self.evictions = 0

    def get(self, session_id: int) -> FetchSession | None:
        with self.lock:
            return self._sessions.get(session_id)

    @property
    def size(self) -> int:
        with self.lock:
            return len(self._sessions)

    @property
    def total_partitions(self) -> int:
        with self.lock:
            return self._num_partitions

    def new_session_id(self) -> int:
        """A random positive id not in use."""
        with self.lock:
            while True:
                session_id = random.randint(1, _INT32_MAX - 1)
                if session_id not in self._sessions and session_id != INVALID_SESSION_ID:
                    return session_id

    def maybe_create_session(
        self,
        now: int,
        privileged: bool,
        size: int,
        uses_topic_ids: bool,
        create_partitions: Callable[[], dict[tuple[Any, int], CachedPartition]],
    ) -> int:
        """Creates a session if there is room (evicting one if allowed); returns its id or INVALID_SESSION_ID."""
        with self.lock:
            if len(self._sessions) < self._max_entries or self.try_evict(privileged, (privileged, size, 0), now):
                partition_map = create_partitions()
                session = FetchSession(
                    self.new_session_id(),
                    privileged,
                    partition_map,
                    uses_topic_ids,
                    now,
                    now,
                    FetchMetadata.next_epoch(INITIAL_EPOCH),
                )
                self.debug(f"Created fetch session {session}")
                self._sessions[session.id] = session
                self.touch(session, now)
                return session.id
            self.debug(f"No fetch session created for privileged={privileged}, size={size}.")
            return INVALID_SESSION_ID

    def try_evict(self, privileged: bool, key: tuple[bool, int, int], now: int) -> bool:
        """Evicts the stalest session if it is stale, else the least valuable evictable one if `key` is worth
        more; True if a session was evicted."""
        with self.lock:
            if not self._last_used:
                self.trace("There are no cache entries to evict.")
                return False
            last_used_key, last_used_session = self._last_used.peekitem(0)
            if now - last_used_key[0] > self._eviction_ms:
                self.trace(f"Evicting stale FetchSession {last_used_session.id}.")
                self.remove(last_used_session)
                self.evictions += 1
                return True
            candidates = self._evictable_by_privileged if privileged else self._evictable_by_all
            if not candidates:
                self.trace("No evictable entries found.")
                return False
            evictable_key, evictable_session = candidates.peekitem(0)
            if key < evictable_key:
                self.trace(f"Can't evict {evictable_key} with {key}")
                return False
            self.trace(f"Evicting {evictable_key} with {key}.")
            self.remove(evictable_session)
            self.evictions += 1
            return True

    def remove(self, session: FetchSession | int) -> FetchSession | None:
        """Removes a session (given or by id); returns it, or None if it was not cached."""
        with self.lock:
            if isinstance(session, int):
                found = self._sessions.get(session)
                if found is None:
                    return None
                session = found
            with session.lock:
                self._last_used.pop(session.last_used_key(), None)
                evictable_key = session.evictable_key()
            self._evictable_by_all.pop(evictable_key, None)
            self._evictable_by_privileged.pop(evictable_key, None)
            removed = self._sessions.pop(session.id, None)
            if removed is not None:
                self._num_partitions -= session.cached_size
            return removed

    def touch(self, session: FetchSession, now: int) -> None:
        """Marks the session used at `now` and re-files it under its current size."""
        with self.lock, session.lock:
            if now != session.last_used_ms or session.cached_size == -1:  # -1: never filed yet
                self._last_used.pop(session.last_used_key(), None)
                session.last_used_ms = now
                self._last_used[session.last_used_key()] = session

            old_size = session.cached_size
            new_size = session.size
            if old_size == new_size:
                # PORT: the common case (every fetch of a session whose partitions did not change): the session
                # stays filed under the same key, and only its place in each evictable map follows the same
                # conditions as below; the sorted maps are left alone (Kafka removes and re-adds it).
                key = session.evictable_key()
                by_privileged = self._evictable_by_privileged
                by_all = self._evictable_by_all
                old_enough = now - session.creation_ms > self._eviction_ms
                if not session.privileged or old_enough:
                    if key not in by_privileged:
                        by_privileged[key] = session
                elif key in by_privileged:
                    del by_privileged[key]
                if old_enough:
                    if key not in by_all:
                        by_all[key] = session
                elif key in by_all:
                    del by_all[key]
                return
            if old_size != -1:
                old_key = session.evictable_key()
                self._evictable_by_privileged.pop(old_key, None)
                self._evictable_by_all.pop(old_key, None)
                self._num_partitions -= old_size
            session.cached_size = new_size
            new_key = session.evictable_key()
            if not session.privileged or now - session.creation_ms > self._eviction_ms:
                self._evictable_by_privileged[new_key] = session
            if now - session.creation_ms > self._eviction_ms:
                self._evictable_by_all[new_key] = session
            self._num_partitions += session.cached_size


class FetchManager(Logging):
    """Makes the FetchContext of each Fetch request, creating, using or closing sessions as it asks."""

    logger_name = "kafka.server.FetchManager"

    def __init__(self, time: Time, cache: FetchSessionCache) -> None:
        self._time = time
        self.cache = cache

    def new_context(
        self,
        req_version: int,
        req_metadata: FetchMetadata,
        is_follower: bool,
        fetch_data: REQ_MAP,
        to_forget: list[TopicIdPartition],
        topic_names: TOPIC_NAME_MAP,
    ) -> FetchContext:
        cache = self.cache
        if req_metadata.is_full():
            removed_str = ""
            if req_metadata.session_id != INVALID_SESSION_ID:
                # A full request closes whatever session it names.
                if cache.remove(req_metadata.session_id) is not None:
                    removed_str = f" Removed fetch session {req_metadata.session_id}."
            suffix = ""
            context: FetchContext
            if req_metadata.epoch == FINAL_EPOCH:
                suffix = " Will not try to create a new session."
                context = SessionlessFetchContext(fetch_data)
            else:
                context = FullFetchContext(self._time, cache, req_metadata, fetch_data, req_version >= 13, is_follower)
            if self.is_debug_enabled():
                self.debug(
                    f"Created a new full FetchContext with {self.partitions_to_log_string(list(fetch_data))}."
                    f"{removed_str}{suffix}"
                )
            return context

        with cache.lock:
            session = cache.get(req_metadata.session_id)
            if session is None:
                self.debug(f"Session error for {req_metadata.session_id}: no such session ID found.")
                return SessionErrorContext(Errors.FETCH_SESSION_ID_NOT_FOUND, req_metadata)
            with session.lock:
                if session.epoch != req_metadata.epoch:
                    self.debug(
                        f"Session error for {req_metadata.session_id}: expected epoch {session.epoch}, but got "
                        f"{req_metadata.epoch} instead."
                    )
                    return SessionErrorContext(Errors.INVALID_FETCH_SESSION_EPOCH, req_metadata)
                if session.uses_topic_ids != (req_version >= 13):
                    self.debug(
                        f"Session error for {req_metadata.session_id}: expected  "
                        f"{'to use topic IDs' if session.uses_topic_ids else 'to not use topic IDs'}"
                        f", but request version {req_version} means that we can not."
                    )
                    return SessionErrorContext(Errors.FETCH_SESSION_TOPIC_ID_ERROR, req_metadata)
                added, updated, removed = session.update(fetch_data, to_forget, req_metadata)
                if session.is_empty():
                    self.debug(
                        f"Created a new sessionless FetchContext and closing session id {session.id}, epoch "
                        f"{session.epoch}: after removing {self.partitions_to_log_string(removed)}, there are no "
                        "more partitions left."
                    )
                    cache.remove(session)
                    return SessionlessFetchContext(fetch_data)
                cache.touch(session, self._time.milliseconds())
                session.epoch = FetchMetadata.next_epoch(session.epoch)
                if self.is_debug_enabled():  # every follower fetch comes here: the message only when logged
                    self.debug(
                        f"Created a new incremental FetchContext for session id {session.id}, epoch "
                        f"{session.epoch}: added {self.partitions_to_log_string(added)}, updated "
                        f"{self.partitions_to_log_string(updated)}, removed {self.partitions_to_log_string(removed)}"
                    )
                return IncrementalFetchContext(self._time, req_metadata, session, topic_names)

    def partitions_to_log_string(self, partitions: Collection[TopicIdPartition]) -> str:
        return partitions_to_log_string(partitions, self.is_trace_enabled())
