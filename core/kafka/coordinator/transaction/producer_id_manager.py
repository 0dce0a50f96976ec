"""Port of core/src/main/scala/kafka/coordinator/transaction/ProducerIdManager.scala (Kafka 2.8).

Hands out producer ids that no other broker hands out. The brokers share one znode,
`/latest_producer_id_block`, holding the last block of ids claimed and who claimed it; a broker claims
the next block (1000 ids, both ends inclusive) by a conditional write on the znode's version, and reads
again and retries when another broker wrote first. Ids are then given out of the block in memory until it
runs out.

ZooKeeper data (version 1), as Kafka writes it, the bounds as strings:
`{"version":1,"broker":0,"block_start":"0","block_end":"999"}`.

# PORT: Kafka 2.8 keeps ProducerIdBlock in this file (3.0 moved it to server-common as ProducerIdsBlock),
# so it is here too, and there is no producer_id_block module. The JSON codec itself is
# ProducerIdBlockZNode's (kafka.zk.zk_data); the companion's two functions delegate to it.
# PORT: Kafka relies on KafkaServer having created `/latest_producer_id_block` with the other top-level
# paths; if it is missing, a conditional update can never succeed and Kafka would spin. This port creates
# the znode (empty, as the broker does) and tries again.
"""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Final

from kafka.common.errors import KafkaException
from kafka.utils.logging import Logging
from kafka.zk.zk_data import JsonDecodeError, ProducerIdBlockZNode, ZkVersion

if TYPE_CHECKING:
    from kafka.zk.kafka_zk_client import KafkaZkClient

__all__ = ["ProducerIdBlock", "ProducerIdGenerator", "ProducerIdManager"]

_LONG_MAX: Final = 2**63 - 1


@dataclass(frozen=True, slots=True)
class ProducerIdBlock:
    """A range of producer ids claimed by one broker; both bounds belong to the block."""

    broker_id: int
    block_start_id: int
    block_end_id: int

    def __str__(self) -> str:
        return (
            f"(brokerId:{self.broker_id},blockStartProducerId:{self.block_start_id},"
            f"blockEndProducerId:{self.block_end_id})"
        )


class ProducerIdGenerator(ABC):
    """What the transaction coordinator needs: a source of unique producer ids."""

    @abstractmethod
    def generate_producer_id(self) -> int: ...

    def shutdown(self) -> None:  # noqa: B027 - a no-op default, as the Scala trait's
        pass


class _ProducerIdManagerCompanion(Logging):
    """The Scala companion object logs under the class's logger name too."""

    logger_name = "kafka.coordinator.transaction.ProducerIdManager"


_COMPANION: Final = _ProducerIdManagerCompanion()


class ProducerIdManager(ProducerIdGenerator, Logging):
    """Producer ids from blocks claimed in ZooKeeper (the 2.8, ZooKeeper-only manager).

    The first block is claimed by the constructor. `generate_producer_id` is synchronized (Kafka's
    `this synchronized`), and claims the next block when the current one is used up; `_lock` is then held across
    the ZooKeeper round trips, and no other lock is taken under it.
    """

    logger_name = "kafka.coordinator.transaction.ProducerIdManager"

    CURRENT_VERSION: ClassVar[int] = 1
    PID_BLOCK_SIZE: ClassVar[int] = 1000

    # ---- companion-object functions -----------------------------------------------------------

    @staticmethod
    def generate_producer_id_block_json(producer_id_block: ProducerIdBlock) -> bytes:
        """The znode data for a block (Kafka's version-1 JSON)."""
        return ProducerIdBlockZNode.encode(
            producer_id_block.broker_id, producer_id_block.block_start_id, producer_id_block.block_end_id
        )

    @staticmethod
    def parse_producer_id_block_data(json_data: bytes | None) -> ProducerIdBlock:
        """The block stored in the znode; KafkaException if the data is not a block."""
        try:
            broker_id, block_start, block_end = ProducerIdBlockZNode.decode(json_data)
        except JsonDecodeError as e:
            raise KafkaException(f"Failed to parse the producerId block json {json_data!r}") from e
        except ValueError:
            # Not a number: the bounds were written past what a Java long holds, which cannot happen.
            _COMPANION.fatal(f"Read jason data {json_data!r} contains producerIds that have exceeded long type limit")
            raise
        return ProducerIdBlock(broker_id, block_start, block_end)

    # ---- the manager ----------------------------------------------------------------------------

    def __init__(self, broker_id: int, zk_client: KafkaZkClient) -> None:
        self.broker_id = broker_id
        self.zk_client = zk_client
        self.log_ident = f"[ProducerId Manager {broker_id}]: "
        self._lock = threading.RLock()  # Kafka's `this synchronized`
        self._current_producer_id_block: ProducerIdBlock = ProducerIdBlock(broker_id, 0, -1)
        self._next_producer_id = -1
        with self._lock:
            self._get_new_producer_id_block()
            self._next_producer_id = self._current_producer_id_block.block_start_id

    def _get_new_producer_id_block(self) -> None:
        """Claims the block after the one in ZooKeeper, retrying until our conditional write wins."""
        zk_write_complete = False
        while not zk_write_complete:
            data, zk_version = self.zk_client.get_data_and_version(ProducerIdBlockZNode.path)
            if zk_version == ZkVersion.UNKNOWN_VERSION:
                # See the module docstring: the znode must exist for a conditional update.
                self.zk_client.make_sure_persistent_path_exists(ProducerIdBlockZNode.path)
                continue

            if data:
                curr_producer_id_block = ProducerIdManager.parse_producer_id_block_data(data)
                self.debug(f"Read current producerId block {curr_producer_id_block}, Zk path version {zk_version}")
                if curr_producer_id_block.block_end_id > _LONG_MAX - ProducerIdManager.PID_BLOCK_SIZE:
                    self.fatal(
                        "Exhausted all producerIds as the next block's end producerId is will has exceeded long "
                        f"type limit (current block end producerId is {curr_producer_id_block.block_end_id})"
                    )
                    raise KafkaException("Have exhausted all producerIds.")
                new_block = ProducerIdBlock(
                    self.broker_id,
                    curr_producer_id_block.block_end_id + 1,
                    curr_producer_id_block.block_end_id + ProducerIdManager.PID_BLOCK_SIZE,
                )
            else:
                self.debug(f"There is no producerId block yet (Zk path version {zk_version}), creating the first block")
                new_block = ProducerIdBlock(self.broker_id, 0, ProducerIdManager.PID_BLOCK_SIZE - 1)
            self._current_producer_id_block = new_block

            new_producer_id_block_data = ProducerIdManager.generate_producer_id_block_json(new_block)
            succeeded, version = self.zk_client.conditional_update_path(
                ProducerIdBlockZNode.path, new_producer_id_block_data, zk_version, self._check_producer_id_block_zk_data
            )
            zk_write_complete = succeeded
            if zk_write_complete:
                self.info(f"Acquired new producerId block {new_block} by writing to Zk with path version {version}")

    def _check_producer_id_block_zk_data(
        self, zk_client: KafkaZkClient, path: str, expected_data: bytes
    ) -> tuple[bool, int]:
        """After a failed conditional write: did our write land after all (a retry after a connection loss)?"""
        try:
            expected_pid_block = ProducerIdManager.parse_producer_id_block_data(expected_data)
            data, zk_version = zk_client.get_data_and_version(ProducerIdBlockZNode.path)
            if data is None:
                return False, -1
            return ProducerIdManager.parse_producer_id_block_data(data) == expected_pid_block, zk_version
        except Exception as e:
            self.warn(
                f"Error while checking for producerId block Zk data on path {path}: expected data "
                f"{expected_data.decode('utf-8', 'replace')}",
                e,
            )
            return False, -1

    def generate_producer_id(self) -> int:
        """The next unused producer id; claims a new block from ZooKeeper when this one is used up."""
        with self._lock:
            if self._next_producer_id > self._current_producer_id_block.block_end_id:
                self._get_new_producer_id_block()
                self._next_producer_id = self._current_producer_id_block.block_start_id + 1
            else:
                self._next_producer_id += 1
            return self._next_producer_id - 1

    def shutdown(self) -> None:
        self.info(f"Shutdown complete: last producerId assigned {self._next_producer_id}")
