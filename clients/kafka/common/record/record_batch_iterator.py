"""Port of clients/src/main/java/org/apache/kafka/common/record/RecordBatchIterator.java (Kafka 3.7)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Generic, TypeVar

from kafka.common.errors import CorruptRecordException, KafkaException
from kafka.common.record.log_input_stream import LogInputStream
from kafka.common.record.record_batch import RecordBatch

T = TypeVar("T", bound=RecordBatch)


class RecordBatchIterator(Iterator[T], Generic[T]):
    """Iterates the batches of a LogInputStream until it returns None."""

    __slots__ = ("_done", "_log_input_stream")

    def __init__(self, log_input_stream: LogInputStream[T]) -> None:
        self._log_input_stream = log_input_stream
        self._done = False

    def __iter__(self) -> RecordBatchIterator[T]:
        return self

    def __next__(self) -> T:
        if self._done:
            raise StopIteration
        try:
            batch = self._log_input_stream.next_batch()
        except EOFError as e:
            raise CorruptRecordException("Unexpected EOF while attempting to read the next batch") from e
        except OSError as e:
            raise KafkaException(e) from e
        if batch is None:
            self._done = True
            raise StopIteration
        return batch
