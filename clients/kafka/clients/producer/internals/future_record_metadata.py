"""Port of clients/src/main/java/org/apache/kafka/clients/producer/internals/FutureRecordMetadata.java (Kafka 3.7).

The future `KafkaProducer.send` returns for one record. When its batch is split after a
MESSAGE_TOO_LARGE answer, the future is chained to the record's place in the new batch.

# PORT: Java's Future.get() wraps the failure in ExecutionException. Here `get` raises the failure itself
(the KafkaException subclass the producer reports), as Python's concurrent.futures does; `result` and
`exception` give the concurrent.futures spelling with timeouts in seconds.
"""

from __future__ import annotations

from kafka.clients.producer.internals.produce_request_result import ProduceRequestResult
from kafka.clients.producer.record_metadata import RecordMetadata
from kafka.common.errors import TimeoutException
from kafka.common.utils.time import Time

__all__ = ["FutureFailure", "FutureRecordMetadata"]

_LONG_MAX = 2**63 - 1


class FutureRecordMetadata:
    """The pending RecordMetadata of one record of a batch."""

    __slots__ = (
        "_batch_index",
        "_create_timestamp",
        "_next_record_metadata",
        "_result",
        "_serialized_key_size",
        "_serialized_value_size",
        "_time",
    )

    def __init__(
        self,
        result: ProduceRequestResult,
        batch_index: int,
        create_timestamp: int,
        serialized_key_size: int,
        serialized_value_size: int,
        time: Time,
    ) -> None:
        self._result = result
        self._batch_index = batch_index
        self._create_timestamp = create_timestamp
        self._serialized_key_size = serialized_key_size
        self._serialized_value_size = serialized_value_size
        self._time = time
        self._next_record_metadata: FutureRecordMetadata | None = None

    def cancel(self, interrupt: bool = False) -> bool:
        """A send cannot be cancelled."""
        return False

    def is_cancelled(self) -> bool:
        return False

    def cancelled(self) -> bool:
        return False

    def get(self, timeout_ms: int | None = None) -> RecordMetadata:
        """Waits for the record's metadata (at most `timeout_ms`), raising the send's error if it failed."""
        if timeout_ms is None:
            self._result.await_()
            nxt = self._next_record_metadata
            if nxt is not None:
                return nxt.get()
            return self._value_or_error()
        now = self._time.milliseconds()
        deadline = _LONG_MAX if _LONG_MAX - timeout_ms < now else now + timeout_ms
        if not self._result.await_(timeout_ms):
            raise TimeoutException(f"Timeout after waiting for {timeout_ms} ms.")
        nxt = self._next_record_metadata
        if nxt is not None:
            return nxt.get(deadline - self._time.milliseconds())
        return self._value_or_error()

    def result(self, timeout: float | None = None) -> RecordMetadata:
        """`get` with a timeout in seconds (concurrent.futures.Future.result)."""
        return self.get(None if timeout is None else int(timeout * 1000))

    def exception(self, timeout: float | None = None) -> BaseException | None:
        """The send's error once complete, or None on success (concurrent.futures.Future.exception)."""
        try:
            self.result(timeout)
        except TimeoutException:
            if not self.is_done():
                raise
            return self._error()
        except BaseException as e:
            return e
        return None

    def chain(self, future_record_metadata: FutureRecordMetadata) -> None:
        """Points this future at the record's new place after its batch was split."""
        if self._next_record_metadata is None:
            self._next_record_metadata = future_record_metadata
        else:
            self._next_record_metadata.chain(future_record_metadata)

    def _error(self) -> BaseException | None:
        return self._result.error(self._batch_index)

    def _value_or_error(self) -> RecordMetadata:
        exception = self._result.error(self._batch_index)
        if exception is not None:
            raise exception
        return self.value()

    def value(self) -> RecordMetadata:
        """The metadata, assuming success (used for the callbacks of a completed batch)."""
        nxt = self._next_record_metadata
        if nxt is not None:
            return nxt.value()
        return self._result.record_metadata(
            self._batch_index, self._create_timestamp, self._serialized_key_size, self._serialized_value_size
        )

    def is_done(self) -> bool:
        nxt = self._next_record_metadata
        if nxt is not None:
            return nxt.is_done()
        return self._result.completed()

    def done(self) -> bool:
        """concurrent.futures spelling of is_done."""
        return self.is_done()


class FutureFailure:
    """The already-failed future `send` returns when a record fails before reaching the accumulator.

    # PORT: a private class of Java's KafkaProducer; it lives beside FutureRecordMetadata here.
    """

    __slots__ = ("_exception",)

    def __init__(self, exception: BaseException) -> None:
        self._exception = exception

    def cancel(self, interrupt: bool = False) -> bool:
        return False

    def is_cancelled(self) -> bool:
        return False

    def cancelled(self) -> bool:
        return False

    def get(self, timeout_ms: int | None = None) -> RecordMetadata:
        raise self._exception

    def result(self, timeout: float | None = None) -> RecordMetadata:
        raise self._exception

    def exception(self, timeout: float | None = None) -> BaseException | None:
        return self._exception

    def is_done(self) -> bool:
        return True

    def done(self) -> bool:
        return True
