"""Several kafka-port brokers on one ZooKeeper, each started from the bin scripts as an operator starts them
(ids 0..n-1, ephemeral ports, their own work directories): the cluster that replication tests run against."""

from __future__ import annotations

import json
import signal
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType
from typing import Any, Protocol

from kazoo.client import KazooClient

from tests.integration.broker import BrokerProcess

# What every test cluster sets over the brokers' defaults: the last broker to stop has nobody to hand its
# leaderships to, so one controlled-shutdown try instead of Kafka's three.
TEST_OVERRIDES = {"controlled.shutdown.max.retries": "1"}


class KafkaCluster:
    def __init__(
        self,
        work_dir: Path,
        zk_connect: str,
        num_brokers: int = 3,
        overrides: dict[str, str] | None = None,
    ) -> None:
        """`overrides` go to every broker; `broker_overrides(id)` in a subclass could differ per broker."""
        self.zk_connect = zk_connect
        common = {
            "offsets.topic.replication.factor": str(min(3, num_brokers)),
            "default.replication.factor": str(min(3, num_brokers)),
        }
        common.update(overrides or {})
        self.brokers = [
            BrokerProcess(work_dir / f"broker-{i}", zk_connect, broker_id=i, overrides=common)
            for i in range(num_brokers)
        ]
        for broker in self.brokers:
            broker.work_dir.mkdir(parents=True, exist_ok=True)

    @property
    def bootstrap(self) -> str:
        """Every running broker's address, as a client's bootstrap.servers."""
        return ",".join(b.bootstrap for b in self.brokers if b.is_running)

    def broker(self, broker_id: int) -> BrokerProcess:
        return self.brokers[broker_id]

    def start(self, timeout: float = 60.0) -> None:
        for broker in self.brokers:
            broker.start(timeout)

    def stop(self) -> None:
        for broker in self.brokers:
            if broker.is_running:
                try:
                    broker.stop()
                except AssertionError:
                    pass  # stop() already killed it after the timeout

    def kill(self, broker_id: int) -> None:
        self.brokers[broker_id].kill()

    def pause(self, broker_id: int) -> None:
        """SIGSTOP to the broker, returning once all its threads are stopped (nothing it is sent after this is read
        before it resumes)."""
        self.brokers[broker_id].signal(signal.SIGSTOP)
        self.brokers[broker_id].wait_until_stopped()

    def resume(self, broker_id: int) -> None:
        self.brokers[broker_id].signal(signal.SIGCONT)


class ClusterFactory(Protocol):
    """The `cluster_factory` fixture's function (tests/integration/conftest.py)."""

    def __call__(
        self, overrides: dict[str, str] | None = None, racks: Mapping[int, str] | None = None, num_brokers: int = 3
    ) -> KafkaCluster: ...


@contextmanager
def running_cluster(
    work_dir: Path,
    zk_connect: str,
    overrides: dict[str, str] | None = None,
    racks: Mapping[int, str] | None = None,
    num_brokers: int = 3,
) -> Iterator[KafkaCluster]:
    """A started cluster with `overrides` over TEST_OVERRIDES and `racks` as each broker's broker.rack; on exit
    every paused broker is resumed (a test may leave one stopped with SIGSTOP) and the cluster is stopped."""
    cluster = KafkaCluster(
        work_dir, zk_connect, num_brokers=num_brokers, overrides={**TEST_OVERRIDES, **(overrides or {})}
    )
    for broker_id, rack in (racks or {}).items():
        cluster.broker(broker_id).overrides["broker.rack"] = rack
    try:
        cluster.start()
        yield cluster
    finally:
        for broker in cluster.brokers:
            if broker.is_running:
                broker.signal(signal.SIGCONT)
        cluster.stop()


class ClusterView:
    """What ZooKeeper says about a cluster: the controller, the live brokers and each partition's state (leader,
    ISR). A context manager; `zk` is its KazooClient, for anything else a test reads."""

    def __init__(self, zk_connect: str) -> None:
        self.zk = KazooClient(hosts=zk_connect, timeout=10.0)
        self.zk.start(timeout=10.0)

    def __enter__(self) -> ClusterView:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        self.zk.stop()
        self.zk.close()

    def controller(self) -> int:
        """The controller's broker id; -1 while there is none."""
        try:
            data, _ = self.zk.get("/controller")
        except Exception:
            return -1
        return int(json.loads(data)["brokerid"])

    def live_brokers(self) -> list[int]:
        return sorted(int(b) for b in self.zk.get_children("/brokers/ids"))

    def partition_state(self, topic: str, partition: int = 0) -> dict[str, Any]:
        """The partition's state znode (leader, leader_epoch, isr, controller_epoch, version)."""
        data, _ = self.zk.get(f"/brokers/topics/{topic}/partitions/{partition}/state")
        return dict(json.loads(data))

    def has_partition_state(self, topic: str, partition: int = 0) -> bool:
        return self.zk.exists(f"/brokers/topics/{topic}/partitions/{partition}/state") is not None

    def partition_states(self, topic: str) -> dict[int, dict[str, Any] | None]:
        """Each partition of the topic's assignment with its state (None while it has no state znode)."""
        data, _ = self.zk.get(f"/brokers/topics/{topic}")
        states: dict[int, dict[str, Any] | None] = {}
        for p in json.loads(data)["partitions"]:
            states[int(p)] = self.partition_state(topic, int(p)) if self.has_partition_state(topic, int(p)) else None
        return states

    def leader(self, topic: str, partition: int = 0) -> int:
        return int(self.partition_state(topic, partition)["leader"])

    def isr(self, topic: str, partition: int = 0) -> list[int]:
        """The partition's ISR, sorted."""
        return sorted(self.partition_state(topic, partition)["isr"])
