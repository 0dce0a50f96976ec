"""Fixtures for the conformance suite: one ZooKeeper, and one broker (bin/kafka-server-start.sh) per distinct set of
broker configs the sessions' manifests ask for, started when first needed and shared by the sessions that ask for
the same set."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.integration.broker import BrokerProcess
from tests.integration.zookeeper import ZooKeeperServer

BrokerFactory = Callable[[dict[str, str]], BrokerProcess]


@pytest.fixture(scope="session")
def conformance_zookeeper(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ZooKeeperServer]:
    """A ZooKeeper server for the suite's brokers."""
    server = ZooKeeperServer(Path(tmp_path_factory.mktemp("conformance-zookeeper")))
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def conformance_broker(
    conformance_zookeeper: ZooKeeperServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[BrokerFactory]:
    """`conformance_broker(configs)`: the running broker with exactly these overrides (started on first use)."""
    brokers: dict[tuple[tuple[str, str], ...], BrokerProcess] = {}

    def get(configs: dict[str, str]) -> BrokerProcess:
        key = tuple(sorted(configs.items()))
        broker = brokers.get(key)
        if broker is None:
            work = Path(tmp_path_factory.mktemp("conformance-broker"))
            broker = BrokerProcess(
                work, f"{conformance_zookeeper.connect_string}/conformance-{len(brokers)}", 0, configs
            )
            broker.start()
            brokers[key] = broker
        return broker

    try:
        yield get
    finally:
        for broker in brokers.values():
            broker.stop()
