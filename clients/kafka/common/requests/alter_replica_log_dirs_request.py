"""Port of clients/src/main/java/org/apache/kafka/common/requests/AlterReplicaLogDirsRequest.java (Kafka 3.7).

AlterReplicaLogDirs: move replicas to another log directory of the same broker.
"""

from __future__ import annotations

from kafka.common.message import AlterReplicaLogDirsResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.alter_replica_log_dirs_response import AlterReplicaLogDirsResponse


class AlterReplicaLogDirsRequest(AbstractRequest[AlterReplicaLogDirsResponse]):
    API_KEY = ApiKeys.ALTER_REPLICA_LOG_DIRS

    def _get_error_response(self, throttle_time_ms: int, e: BaseException) -> AlterReplicaLogDirsResponse:
        error_code = Errors.for_exception(e).code
        results = [
            AlterReplicaLogDirsResponseData.AlterReplicaLogDirTopicResult(
                topic_name=topic.name,
                partitions=[
                    AlterReplicaLogDirsResponseData.AlterReplicaLogDirPartitionResult(
                        error_code=error_code, partition_index=p
                    )
                    for p in topic.partitions
                ],
            )
            for log_dir in self._data.dirs
            for topic in log_dir.topics
        ]
        return AlterReplicaLogDirsResponse(
            AlterReplicaLogDirsResponseData(results=results, throttle_time_ms=throttle_time_ms)
        )

    def partition_dirs(self) -> dict[tuple[str, int], str]:
        """The destination directory of each (topic, partition)."""
        return {
            (topic.name, p): log_dir.path
            for log_dir in self._data.dirs
            for topic in log_dir.topics
            for p in topic.partitions
        }
