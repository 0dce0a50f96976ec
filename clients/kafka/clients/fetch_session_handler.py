"""Port of clients/src/main/java/org/apache/kafka/clients/FetchSessionHandler.java (Kafka 3.7).

The client side of an incremental fetch session (KIP-227) with one broker. The first request of a session
is full: it names every partition, and the broker answers with a session id. Later requests send only the
partitions that were added or whose fetch data changed, and the ones to forget; the broker answers with
only the partitions that have something new. When the broker loses the session, or a response does not fit
the session, the next request starts a new one. With topic ids known for every partition (Fetch v13+),
partitions are named by topic id, and a topic re-created under the same name is "replaced".
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from kafka.common.protocol.errors import Errors
from kafka.common.protocol.types import ZERO_UUID, Uuid
from kafka.common.requests.fetch_metadata import INVALID_SESSION_ID, FetchMetadata
from kafka.common.requests.fetch_request import PartitionData
from kafka.common.requests.fetch_response import FetchResponse
from kafka.common.topic_id_partition import TopicIdPartition
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.log_context import LogContext

__all__ = ["FetchRequestData", "FetchSessionHandler"]


class FetchRequestData:
    """What the next fetch request of a session sends: the partitions to send (all of them for a full
    request), those to forget and to replace, every partition of the session, and the session metadata."""

    __slots__ = ("_to_send", "_to_forget", "_to_replace", "_session_partitions", "_metadata", "_can_use_topic_ids")

    def __init__(
        self,
        to_send: Mapping[TopicPartition, PartitionData],
        to_forget: list[TopicIdPartition],
        to_replace: list[TopicIdPartition],
        session_partitions: Mapping[TopicPartition, PartitionData],
        metadata: FetchMetadata,
        can_use_topic_ids: bool,
    ) -> None:
        self._to_send = to_send
        self._to_forget = to_forget
        self._to_replace = to_replace
        self._session_partitions = session_partitions
        self._metadata = metadata
        self._can_use_topic_ids = can_use_topic_ids

    def to_send(self) -> Mapping[TopicPartition, PartitionData]:
        return self._to_send

    def to_forget(self) -> list[TopicIdPartition]:
        return self._to_forget

    def to_replace(self) -> list[TopicIdPartition]:
        return self._to_replace

    def session_partitions(self) -> Mapping[TopicPartition, PartitionData]:
        return self._session_partitions

    def metadata(self) -> FetchMetadata:
        return self._metadata

    def can_use_topic_ids(self) -> bool:
        return self._can_use_topic_ids

    def __str__(self) -> str:
        if self._metadata.is_full():
            text = "FullFetchRequest(toSend=(" + ", ".join(map(str, self._to_send))
        else:
            implied = [tp for tp in self._session_partitions if tp not in self._to_send]
            text = (
                "IncrementalFetchRequest(toSend=("
                + ", ".join(map(str, self._to_send))
                + "), toForget=("
                + ", ".join(map(str, self._to_forget))
                + "), toReplace=("
                + ", ".join(map(str, self._to_replace))
                + "), implied=("
                + ", ".join(map(str, implied))
            )
        text += "), canUseTopicIds=True" if self._can_use_topic_ids else "), canUseTopicIds=False"
        return text + ")"


class FetchSessionHandler:
    """The fetch session with one node. Used under the Fetcher's lock."""

    def __init__(self, log_context: LogContext, node: int) -> None:
        self._log = log_context.logger("org.apache.kafka.clients.FetchSessionHandler")
        self._node = node
        self._next_metadata = FetchMetadata.INITIAL
        # The partitions of the session, in the order they were added (the broker keeps the same order).
        self._session_partitions: dict[TopicPartition, PartitionData] = {}
        self._session_topic_names: dict[Uuid, str] = {}

    def session_id(self) -> int:
        return self._next_metadata.session_id

    def session_topic_names(self) -> dict[Uuid, str]:
        return self._session_topic_names

    def session_topic_partitions(self) -> list[TopicPartition]:
        return list(self._session_partitions)

    class Builder:
        """Collects the partitions of the next request, then works out what to send."""

        def __init__(self, handler: FetchSessionHandler, copy_session_partitions: bool = True) -> None:
            self._handler = handler
            self._next: dict[TopicPartition, PartitionData] | None = {}
            self._topic_names: dict[Uuid, str] = {}
            self._copy_session_partitions = copy_session_partitions
            self._partitions_without_topic_ids = 0

        def add(self, topic_partition: TopicPartition, data: PartitionData) -> None:
            assert self._next is not None
            self._next[topic_partition] = data
            # A topic's id does not change between add and build.
            if data.topic_id == ZERO_UUID:
                self._partitions_without_topic_ids += 1
            else:
                self._topic_names.setdefault(data.topic_id, topic_partition.topic)

        def build(self) -> FetchRequestData:
            handler = self._handler
            log = handler._log
            nxt = self._next
            assert nxt is not None
            can_use_topic_ids = self._partitions_without_topic_ids == 0
            if handler._next_metadata.is_full():
                if log.is_debug_enabled():
                    log.debug(
                        f"Built full fetch {handler._next_metadata} for node {handler._node} with "
                        f"{handler._topic_partitions_to_log_string(nxt)}."
                    )
                handler._session_partitions = nxt
                self._next = None
                # Topic ids join the session only when every partition has one.
                handler._session_topic_names = self._topic_names if can_use_topic_ids else {}
                to_send = dict(handler._session_partitions)
                return FetchRequestData(to_send, [], [], to_send, handler._next_metadata, can_use_topic_ids)

            added: list[TopicIdPartition] = []
            removed: list[TopicIdPartition] = []
            altered: list[TopicIdPartition] = []
            replaced: list[TopicIdPartition] = []
            session = handler._session_partitions
            for tp in list(session):
                prev_data = session[tp]
                next_data = nxt.pop(tp, None)
                if next_data is not None:
                    # A new topic id for the same name is a replacement; changed fetch data an alteration. Either
                    # way the partition goes (again) at the end of what is sent.
                    if (
                        prev_data.topic_id != next_data.topic_id
                        and prev_data.topic_id != ZERO_UUID
                        and next_data.topic_id != ZERO_UUID
                    ):
                        nxt[tp] = next_data
                        session[tp] = next_data
                        replaced.append(TopicIdPartition(prev_data.topic_id, tp))
                    elif prev_data != next_data:
                        nxt[tp] = next_data
                        session[tp] = next_data
                        altered.append(TopicIdPartition(next_data.topic_id, tp))
                else:
                    # No longer wanted: the broker is told to forget it.
                    del session[tp]
                    removed.append(TopicIdPartition(prev_data.topic_id, tp))
                    # A partition without a topic id in the session rules out topic ids.
                    if can_use_topic_ids and prev_data.topic_id == ZERO_UUID:
                        can_use_topic_ids = False
            # New partitions join the session; the ones re-added above are at the end of `nxt`.
            for tp, next_data in nxt.items():
                if tp in session:
                    break
                session[tp] = next_data
                added.append(TopicIdPartition(next_data.topic_id, tp))
            handler._session_topic_names = self._topic_names if can_use_topic_ids else {}
            if log.is_debug_enabled():
                log.debug(
                    f"Built incremental fetch {handler._next_metadata} for node {handler._node}. Added "
                    f"{handler._topic_id_partitions_to_log_string(added)}, altered "
                    f"{handler._topic_id_partitions_to_log_string(altered)}, removed "
                    f"{handler._topic_id_partitions_to_log_string(removed)}, replaced "
                    f"{handler._topic_id_partitions_to_log_string(replaced)} out of "
                    f"{handler._topic_partitions_to_log_string(session)}"
                )
            to_send = dict(nxt)
            cur_session_partitions = dict(session) if self._copy_session_partitions else session
            self._next = None
            return FetchRequestData(
                to_send, removed, replaced, cur_session_partitions, handler._next_metadata, can_use_topic_ids
            )

    def new_builder(self, copy_session_partitions: bool = True) -> FetchSessionHandler.Builder:
        return FetchSessionHandler.Builder(self, copy_session_partitions)

    def _topic_partitions_to_log_string(self, partitions: Iterable[TopicPartition]) -> str:
        parts = list(partitions)
        if not self._log.is_trace_enabled():
            return f"{len(parts)} partition(s)"
        return "(" + ", ".join(map(str, parts)) + ")"

    def _topic_id_partitions_to_log_string(self, partitions: list[TopicIdPartition]) -> str:
        if not self._log.is_trace_enabled():
            return f"{len(partitions)} partition(s)"
        return "(" + ", ".join(map(str, partitions)) + ")"

    @staticmethod
    def find_missing(to_find: Iterable[Any], to_search: Iterable[Any]) -> list[Any]:
        """The items of `to_find` not in `to_search`, in order."""
        search = set(to_search)
        return [item for item in to_find if item not in search]

    def verify_full_fetch_response_partitions(
        self, topic_partitions: list[TopicPartition], ids: set[Uuid], version: int
    ) -> str | None:
        """A description of what is wrong with a full response, or None."""
        extra = self.find_missing(topic_partitions, self._session_partitions)
        omitted = self.find_missing(self._session_partitions, topic_partitions)
        extra_ids = self.find_missing(ids, self._session_topic_names) if version >= 13 else []
        text = ""
        if omitted:
            text += "omittedPartitions=(" + ", ".join(map(str, omitted)) + "), "
        if extra:
            text += "extraPartitions=(" + ", ".join(map(str, extra)) + "), "
        if extra_ids:
            text += "extraIds=(" + ", ".join(map(str, extra_ids)) + "), "
        if omitted or extra or extra_ids:
            return text + "response=(" + ", ".join(map(str, topic_partitions)) + ")"
        return None

    def verify_incremental_fetch_response_partitions(
        self, topic_partitions: list[TopicPartition], ids: set[Uuid], version: int
    ) -> str | None:
        extra_ids = self.find_missing(ids, self._session_topic_names) if version >= 13 else []
        extra = self.find_missing(topic_partitions, self._session_partitions)
        text = ""
        if extra:
            text += "extraPartitions=(" + ", ".join(map(str, extra)) + "), "
        if extra_ids:
            text += "extraIds=(" + ", ".join(map(str, extra_ids)) + "), "
        if extra or extra_ids:
            return text + "response=(" + ", ".join(map(str, topic_partitions)) + ")"
        return None

    def _response_data_to_log_string(self, topic_partitions: list[TopicPartition]) -> str:
        if not self._log.is_trace_enabled():
            implied = len(self._session_partitions) - len(topic_partitions)
            if implied > 0:
                return f" with {len(topic_partitions)} response partition(s), {implied} implied partition(s)"
            return f" with {len(topic_partitions)} response partition(s)"
        text = " with response=(" + ", ".join(map(str, topic_partitions)) + ")"
        in_response = set(topic_partitions)
        implied_parts = [tp for tp in self._session_partitions if tp not in in_response]
        if implied_parts:
            text += ", implied=(" + ", ".join(map(str, implied_parts)) + ")"
        return text

    def handle_response(self, response: FetchResponse, version: int) -> bool:
        """Takes in a response to this session's last request: returns whether its data may be used, and sets
        up the next request's session metadata."""
        error = response.error()
        if error is not Errors.NONE:
            self._log.info(
                f"Node {self._node} was unable to process the fetch request with {self._next_metadata}: {error.name}."
            )
            if error is Errors.FETCH_SESSION_ID_NOT_FOUND:
                self._next_metadata = FetchMetadata.INITIAL
            else:
                self._next_metadata = self._next_metadata.next_close_existing_attempt_new()
            return False
        topic_partitions = response_topic_partitions(response, self._session_topic_names, version)
        ids = response_topic_ids(response)
        if self._next_metadata.is_full():
            if not topic_partitions and response.throttle_time_ms() > 0:
                # KIP-219: a throttled broker answers a full request with nothing; not an error, but unusable.
                if self._log.is_debug_enabled():
                    self._log.debug(
                        f"Node {self._node} sent a empty full fetch response to indicate that this client should be "
                        f"throttled for {response.throttle_time_ms()} ms."
                    )
                self._next_metadata = FetchMetadata.INITIAL
                return False
            problem = self.verify_full_fetch_response_partitions(topic_partitions, ids, version)
            if problem is not None:
                self._log.info(f"Node {self._node} sent an invalid full fetch response with {problem}")
                self._next_metadata = FetchMetadata.INITIAL
                return False
            if response.session_id() == INVALID_SESSION_ID:
                if self._log.is_debug_enabled():
                    self._log.debug(
                        f"Node {self._node} sent a full fetch response"
                        f"{self._response_data_to_log_string(topic_partitions)}"
                    )
                self._next_metadata = FetchMetadata.INITIAL
                return True
            # The broker created a session.
            if self._log.is_debug_enabled():
                self._log.debug(
                    f"Node {self._node} sent a full fetch response that created a new incremental fetch session "
                    f"{response.session_id()}{self._response_data_to_log_string(topic_partitions)}"
                )
            self._next_metadata = FetchMetadata.new_incremental(response.session_id())
            return True
        problem = self.verify_incremental_fetch_response_partitions(topic_partitions, ids, version)
        if problem is not None:
            self._log.info(f"Node {self._node} sent an invalid incremental fetch response with {problem}")
            self._next_metadata = self._next_metadata.next_close_existing_attempt_new()
            return False
        if response.session_id() == INVALID_SESSION_ID:
            # The broker closed the session.
            if self._log.is_debug_enabled():
                self._log.debug(
                    f"Node {self._node} sent an incremental fetch response closing session "
                    f"{self._next_metadata.session_id}{self._response_data_to_log_string(topic_partitions)}"
                )
            self._next_metadata = FetchMetadata.INITIAL
            return True
        # The session goes on; an empty incremental response is fine (KIP-219 needs nothing special here).
        if self._log.is_debug_enabled():
            self._log.debug(
                f"Node {self._node} sent an incremental fetch response with throttleTimeMs = "
                f"{response.throttle_time_ms()} for session {response.session_id()}"
                f"{self._response_data_to_log_string(topic_partitions)}"
            )
        self._next_metadata = self._next_metadata.next_incremental()
        return True

    def notify_close(self) -> None:
        """The next request closes the session."""
        self._log.debug(
            f"Set the metadata for next fetch request to close the existing session ID={self._next_metadata.session_id}"
        )
        self._next_metadata = self._next_metadata.next_close_existing()

    def handle_error(self, t: BaseException) -> None:
        self._log.info(f"Error sending fetch request {self._next_metadata} to node {self._node}:", t)
        self._next_metadata = self._next_metadata.next_close_existing_attempt_new()


def response_topic_partitions(
    response: FetchResponse, topic_names: Mapping[Uuid, str], version: int
) -> list[TopicPartition]:
    """The partitions of a fetch response, as TopicPartitions, in response order."""
    return [TopicPartition(topic, partition) for topic, partition in response.response_data(topic_names, version)]


def response_topic_ids(response: FetchResponse) -> set[Uuid]:
    """Java's FetchResponse.topicIds(): the topic ids of the response's topics."""
    return {topic.topic_id for topic in response.data.responses}
