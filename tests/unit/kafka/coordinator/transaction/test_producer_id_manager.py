"""Tests of kafka.coordinator.transaction.producer_id_manager, after Kafka's ProducerIdManagerTest: blocks claimed
through a znode with conditional writes (an in-memory ZooKeeper stands in for the real one here; the integration
test uses a real ZooKeeper)."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from kafka.common.errors import KafkaException
from kafka.coordinator.transaction.producer_id_manager import ProducerIdBlock, ProducerIdManager
from kafka.zk.zk_data import ProducerIdBlockZNode, ZkVersion

PATH = ProducerIdBlockZNode.path
LONG_MAX = 2**63 - 1


class FakeZkClient:
    """The znode operations ProducerIdManager uses, over a dict: path -> (data, version)."""

    def __init__(self) -> None:
        self.nodes: dict[str, tuple[bytes | None, int]] = {PATH: (None, 0)}
        self.before_update: Callable[[], None] | None = None
        self.updates = 0

    def get_data_and_version(self, path: str) -> tuple[bytes | None, int]:
        if path not in self.nodes:
            return None, ZkVersion.UNKNOWN_VERSION
        return self.nodes[path]

    def make_sure_persistent_path_exists(self, path: str) -> None:
        self.nodes.setdefault(path, (None, 0))

    def conditional_update_path(
        self,
        path: str,
        data: bytes,
        expect_version: int,
        optional_checker: Callable[[FakeZkClient, str, bytes], tuple[bool, int]] | None = None,
    ) -> tuple[bool, int]:
        if self.before_update is not None:
            hook, self.before_update = self.before_update, None
            hook()
        if path not in self.nodes:
            return False, ZkVersion.UNKNOWN_VERSION
        _, version = self.nodes[path]
        if version != expect_version:
            if optional_checker is not None:
                return optional_checker(self, path, data)
            return False, ZkVersion.UNKNOWN_VERSION
        self.nodes[path] = (data, version + 1)
        self.updates += 1
        return True, version + 1

    def block(self) -> dict[str, object]:
        data = self.nodes[PATH][0]
        assert data is not None
        return json.loads(data)


def test_first_block_then_next_block_when_exhausted() -> None:
    """The first manager claims ids 0..999 and hands them out in order, then claims 1000..1999."""
    zk = FakeZkClient()
    manager = ProducerIdManager(0, zk)  # type: ignore[arg-type]
    ids = [manager.generate_producer_id() for _ in range(ProducerIdManager.PID_BLOCK_SIZE)]
    assert ids == list(range(1000))
    assert zk.block() == {"version": 1, "broker": 0, "block_start": "0", "block_end": "999"}
    assert manager.generate_producer_id() == 1000
    assert manager.generate_producer_id() == 1001
    assert zk.block() == {"version": 1, "broker": 0, "block_start": "1000", "block_end": "1999"}
    assert zk.updates == 2


def test_two_managers_get_disjoint_blocks() -> None:
    """Managers sharing the znode each claim the block after the last one written."""
    zk = FakeZkClient()
    first = ProducerIdManager(0, zk)  # type: ignore[arg-type]
    second = ProducerIdManager(1, zk)  # type: ignore[arg-type]
    assert first.generate_producer_id() == 0
    assert second.generate_producer_id() == 1000
    for _ in range(999):
        first.generate_producer_id()
    assert first.generate_producer_id() == 2000  # 1000..1999 belongs to the second manager
    assert zk.block()["broker"] == 0 and zk.block()["block_start"] == "2000"


def test_conflicting_write_is_retried_with_the_next_block() -> None:
    """When another broker writes between our read and our conditional write, we read again and claim the block
    after that broker's."""
    zk = FakeZkClient()

    def other_broker_claims() -> None:
        zk.nodes[PATH] = (ProducerIdBlockZNode.encode(7, 0, 999), zk.nodes[PATH][1] + 1)

    zk.before_update = other_broker_claims
    manager = ProducerIdManager(3, zk)  # type: ignore[arg-type]
    assert manager.generate_producer_id() == 1000
    assert zk.block() == {"version": 1, "broker": 3, "block_start": "1000", "block_end": "1999"}


def test_lost_acknowledgement_is_recognised_by_the_checker() -> None:
    """A write that landed but whose version we did not learn (BADVERSION on retry) counts as ours when the znode
    holds exactly our block."""
    zk = FakeZkClient()
    ours = ProducerIdManager.generate_producer_id_block_json(ProducerIdBlock(5, 0, 999))

    def our_write_landed_already() -> None:
        zk.nodes[PATH] = (ours, zk.nodes[PATH][1] + 1)

    zk.before_update = our_write_landed_already
    manager = ProducerIdManager(5, zk)  # type: ignore[arg-type]
    assert manager.generate_producer_id() == 0
    assert zk.updates == 0  # no second write was needed


def test_missing_znode_is_created() -> None:
    """Without /latest_producer_id_block the manager creates it instead of retrying forever."""
    zk = FakeZkClient()
    del zk.nodes[PATH]
    manager = ProducerIdManager(0, zk)  # type: ignore[arg-type]
    assert manager.generate_producer_id() == 0
    assert zk.block()["block_end"] == "999"


def test_exhausted_producer_ids() -> None:
    """A stored block ending within one block size of Long.MaxValue means no ids are left."""
    zk = FakeZkClient()
    zk.nodes[PATH] = (ProducerIdBlockZNode.encode(0, LONG_MAX - 1999, LONG_MAX - 999), 4)
    with pytest.raises(KafkaException, match=r"^Have exhausted all producerIds\.$"):
        ProducerIdManager(1, zk)  # type: ignore[arg-type]


def test_block_json_is_kafkas() -> None:
    """Blocks are stored as Kafka's version-1 JSON, bounds as strings, and read back."""
    block = ProducerIdBlock(2, 1000, 1999)
    data = ProducerIdManager.generate_producer_id_block_json(block)
    assert data == b'{"version":1,"broker":2,"block_start":"1000","block_end":"1999"}'
    assert ProducerIdManager.parse_producer_id_block_data(data) == block
    assert str(block) == "(brokerId:2,blockStartProducerId:1000,blockEndProducerId:1999)"


def test_unparsable_block_data() -> None:
    """Data that is not a producer id block raises KafkaException."""
    with pytest.raises(KafkaException, match="Failed to parse the producerId block json"):
        ProducerIdManager.parse_producer_id_block_data(b"not json")
    with pytest.raises(KafkaException, match="Failed to parse the producerId block json"):
        ProducerIdManager.parse_producer_id_block_data(b'{"version":1,"broker":"x"}')
