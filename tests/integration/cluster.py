"""Several kafka-port brokers on one ZooKeeper, each started from the bin scripts as an operator starts them
(ids 0..n-1, ephemeral ports, their own work directories): the cluster that replication tests run against."""

from __future__ import annotations

import signal
from pathlib import Path

from tests.integration.broker import BrokerProcess


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
        self.brokers[broker_id].signal(signal.SIGSTOP)

    def resume(self, broker_id: int) -> None:
        self.brokers[broker_id].signal(signal.SIGCONT)
