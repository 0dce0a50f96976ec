"""Port of clients/src/main/java/org/apache/kafka/common/requests/ProduceRequest.java (Kafka 3.7).

Produce: record sets for topic partitions, with the acknowledgement level and timeout. The record sets
stay as parsed (MemoryRecords over the received buffer); nothing here copies or decodes them.
"""

from __future__ import annotations

from typing import Any

from kafka.common.errors import InvalidRecordException, UnsupportedCompressionTypeException
from kafka.common.message import ProduceResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_request import AbstractRequest, Builder
from kafka.common.requests.api_error import ApiError
from kafka.common.requests.produce_response import ProduceResponse
from kafka.common.requests.request_utils import COMPRESSION_CODEC_MASK, single_v2_batch_attributes

NO_TIMESTAMP = -1
"""RecordBatch.NO_TIMESTAMP."""

_MAGIC_VALUE_V2 = 2
_ZSTD_COMPRESSION_ID = 4


class ProduceRequest(AbstractRequest[ProduceResponse | None]):
    API_KEY = ApiKeys.PRODUCE

    def __init__(self, data: Any, version: int) -> None:
        super().__init__(data, version)
        self._acks = int(data.acks)
        self._timeout = int(data.timeout_ms)
        self._transactional_id: str | None = data.transactional_id
        self._partition_sizes: dict[tuple[str, int], int] | None = None

    @classmethod
    def for_magic(cls, magic: int, data: Any) -> ProduceRequestBuilder:
        """A builder limited to the versions that carry record batches of `magic`."""
        if magic < _MAGIC_VALUE_V2:
            return ProduceRequestBuilder(2, 2, data)
        return ProduceRequestBuilder(3, ApiKeys.PRODUCE.latest_version(True), data)

    @classmethod
    def for_current_magic(cls, data: Any) -> ProduceRequestBuilder:
        return cls.for_magic(_MAGIC_VALUE_V2, data)

    def partition_sizes(self) -> dict[tuple[str, int], int]:
        """Record bytes per (topic, partition), in request order; kept after clear_partition_records()."""
        sizes = self._partition_sizes
        if sizes is None:
            sizes = {}
            for topic in self._data.topic_data:
                for partition in topic.partition_data:
                    key = (topic.name, partition.index)
                    sizes[key] = sizes.get(key, 0) + _records_size(partition.records)
            self._partition_sizes = sizes
        return sizes

    @property
    def data(self) -> Any:
        data = self._data
        if data is None:
            raise RuntimeError(
                "The partition records are no longer available because clear_partition_records() has been invoked."
            )
        return data

    def to_string(self, verbose: bool = True) -> str:
        sizes = self.partition_sizes()
        if verbose:
            parts = ",".join(f"{t}-{p}={n}" for (t, p), n in sizes.items())
            return f"{{acks={self._acks},timeout={self._timeout},partitionSizes=[{parts}]}}"
        return f"{{acks={self._acks},timeout={self._timeout},numPartitions={len(sizes)}}}"

    def _get_error_response(self, throttle_time_ms: int, e: BaseException) -> ProduceResponse | None:
        # A producer that asked for no acknowledgement gets no response, not even an error.
        if self._acks == 0:
            return None
        api_error = ApiError.from_throwable(e)
        data = ProduceResponseData(throttle_time_ms=throttle_time_ms)
        for topic, partition in self.partition_sizes():
            topic_response = data.responses.find(topic)
            if topic_response is None:
                topic_response = ProduceResponseData.TopicProduceResponse(name=topic)
                data.responses.append(topic_response)
            topic_response.partition_responses.append(
                ProduceResponseData.PartitionProduceResponse(
                    index=partition,
                    record_errors=[],
                    base_offset=ProduceResponse.INVALID_OFFSET,
                    log_append_time_ms=NO_TIMESTAMP,
                    log_start_offset=ProduceResponse.INVALID_OFFSET,
                    error_message=api_error.message,
                    error_code=api_error.error.code,
                )
            )
        return ProduceResponse(data)

    def error_counts(self, e: BaseException) -> dict[Errors, int]:
        """One error per partition (acks=0 requests have no response to count from)."""
        return {Errors.for_exception(e): len(self.partition_sizes())}

    @property
    def acks(self) -> int:
        return self._acks

    @property
    def timeout(self) -> int:
        return self._timeout

    @property
    def transactional_id(self) -> str | None:
        return self._transactional_id

    def clear_partition_records(self) -> None:
        """Drops the record sets (after they are appended) so their memory can be freed; sizes stay."""
        self.partition_sizes()
        self._data = None

    @staticmethod
    def validate_records(version: int, records: Any) -> None:
        """From v3 a partition must carry exactly one batch of magic 2, and ZStandard only from v7."""
        if version < 3 or records is None:
            return
        attributes = single_v2_batch_attributes(records)
        if attributes is not None:
            if version < 7 and attributes & COMPRESSION_CODEC_MASK == _ZSTD_COMPRESSION_ID:
                raise UnsupportedCompressionTypeException(
                    f"Produce requests with version {version} are not allowed to use ZStandard compression"
                )
            return
        if not hasattr(records, "batches"):
            return
        batches = iter(records.batches())
        entry = next(batches, None)
        if entry is None:
            raise InvalidRecordException(
                f"Produce requests with version {version} must have at least one record batch per partition"
            )
        if entry.magic() != _MAGIC_VALUE_V2:
            raise InvalidRecordException(
                f"Produce requests with version {version} are only allowed to contain record batches with magic "
                "version 2"
            )
        if version < 7 and _compression_id(entry) == _ZSTD_COMPRESSION_ID:
            raise UnsupportedCompressionTypeException(
                f"Produce requests with version {version} are not allowed to use ZStandard compression"
            )
        if next(batches, None) is not None:
            raise InvalidRecordException(
                f"Produce requests with version {version} are only allowed to contain exactly one record batch per "
                "partition"
            )

    @staticmethod
    def required_magic_for_version(produce_request_version: int) -> int:
        """The record batch magic that a produce request of this version carries."""
        if not ApiKeys.PRODUCE.is_version_supported(produce_request_version):
            raise ValueError(f"Magic value to use for produce request version {produce_request_version} is not known")
        if produce_request_version <= 1:
            return 0
        if produce_request_version == 2:
            return 1
        return _MAGIC_VALUE_V2


class ProduceRequestBuilder(Builder[ProduceRequest]):
    """Port of ProduceRequest.Builder; build() validates the record sets for the version, build_unsafe() not."""

    def __init__(self, min_version: int, max_version: int, data: Any) -> None:
        super().__init__(ApiKeys.PRODUCE, min_version, max_version)
        self.data = data

    def _build(self, version: int) -> ProduceRequest:
        for topic in self.data.topic_data:
            for partition in topic.partition_data:
                ProduceRequest.validate_records(version, partition.records)
        return ProduceRequest(self.data, version)

    def build_unsafe(self, version: int) -> ProduceRequest:
        return ProduceRequest(self.data, version)

    def __str__(self) -> str:
        partitions = [p for t in self.data.topic_data for p in t.partition_data]
        return (
            f"(type=ProduceRequest, acks={self.data.acks}, timeout={self.data.timeout_ms}, "
            f"partitionRecords=({partitions}), transactionalId='{self.data.transactional_id or ''}'"
        )


def _records_size(records: Any) -> int:
    if records is None:
        return 0
    if isinstance(records, (bytes, bytearray, memoryview)):
        return len(records)
    return int(records.size_in_bytes())


def _compression_id(batch: Any) -> int:
    compression = batch.compression_type()
    return int(getattr(compression, "id", compression))
