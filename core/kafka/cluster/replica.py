"""Port of core/src/main/scala/kafka/cluster/Replica.scala (Kafka 2.8).

What a partition leader knows about one follower: the offsets it reported in its last fetch (log start, log
end with its segment position) and the last time it was caught up with the leader, which decides whether it
stays in the ISR.
"""

from __future__ import annotations

from kafka.common.topic_partition import TopicPartition
from kafka.server.log_offset_metadata import LogOffsetMetadata
from kafka.utils.logging import Logging

# Kafka's Log.UnknownOffset.
UNKNOWN_OFFSET = -1


class Replica(Logging):
    """A remote replica of a partition as seen by the leader; updated only by that follower's fetches.

    # PORT: Kafka's fields are @volatile and written by one request handler at a time (the follower's fetch);
    # plain attributes give the same visibility under the GIL.
    """

    logger_name = "kafka.cluster.Replica"

    def __init__(self, broker_id: int, topic_partition: TopicPartition) -> None:
        self.broker_id = broker_id
        self.topic_partition = topic_partition
        # The follower's log end offset, known only from its fetches.
        self._log_end_offset_metadata: LogOffsetMetadata = LogOffsetMetadata.UNKNOWN_OFFSET_METADATA
        # The follower's log start offset, known only from its fetches.
        self._log_start_offset: int = UNKNOWN_OFFSET
        # The leader's log end offset when the follower last fetched, and the time of that fetch.
        self._last_fetch_leader_log_end_offset: int = 0
        self._last_fetch_time_ms: int = 0
        # The latest time at which the follower had read everything the leader had at that time.
        self._last_caught_up_time_ms: int = 0

    @property
    def log_start_offset(self) -> int:
        return self._log_start_offset

    @property
    def log_end_offset_metadata(self) -> LogOffsetMetadata:
        return self._log_end_offset_metadata

    @property
    def log_end_offset(self) -> int:
        return self._log_end_offset_metadata.message_offset

    @property
    def last_caught_up_time_ms(self) -> int:
        return self._last_caught_up_time_ms

    def update_fetch_state(
        self,
        follower_fetch_offset_metadata: LogOffsetMetadata,
        follower_start_offset: int,
        follower_fetch_time_ms: int,
        leader_end_offset: int,
    ) -> None:
        """Records a fetch by this follower.

        A fetch that reaches the leader's current log end makes the follower caught up as of this fetch; one
        that reaches the leader's log end as it was at the previous fetch makes it caught up as of that previous
        fetch. So a follower chasing a steady trickle of small produces still counts as in sync.
        """
        fetch_offset = follower_fetch_offset_metadata.message_offset
        if fetch_offset >= leader_end_offset:
            self._last_caught_up_time_ms = max(self._last_caught_up_time_ms, follower_fetch_time_ms)
        elif fetch_offset >= self._last_fetch_leader_log_end_offset:
            self._last_caught_up_time_ms = max(self._last_caught_up_time_ms, self._last_fetch_time_ms)

        self._log_start_offset = follower_start_offset
        self._log_end_offset_metadata = follower_fetch_offset_metadata
        self._last_fetch_leader_log_end_offset = leader_end_offset
        self._last_fetch_time_ms = follower_fetch_time_ms

    def reset_last_caught_up_time(
        self, cur_leader_log_end_offset: int, cur_time_ms: int, last_caught_up_time_ms: int
    ) -> None:
        """Starts the caught-up bookkeeping afresh (when this broker becomes leader)."""
        self._last_fetch_leader_log_end_offset = cur_leader_log_end_offset
        self._last_fetch_time_ms = cur_time_ms
        self._last_caught_up_time_ms = last_caught_up_time_ms
        self.trace(f"Reset state of replica to {self}")

    def __str__(self) -> str:
        return (
            f"Replica(replicaId={self.broker_id}, topic={self.topic_partition.topic}, "
            f"partition={self.topic_partition.partition}, lastCaughtUpTimeMs={self._last_caught_up_time_ms}, "
            f"logStartOffset={self._log_start_offset}, logEndOffset={self.log_end_offset}, "
            f"logEndOffsetMetadata={self._log_end_offset_metadata}, "
            f"lastFetchLeaderLogEndOffset={self._last_fetch_leader_log_end_offset}, "
            f"lastFetchTimeMs={self._last_fetch_time_ms})"
        )

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Replica)
            and self.broker_id == other.broker_id
            and self.topic_partition == other.topic_partition
        )

    def __hash__(self) -> int:
        return hash((self.topic_partition, self.broker_id))
