"""Fixtures of the Spark data source's tests: one local[2] SparkSession for the whole test run (a session costs
8-10 s to start and ~2 GiB of memory here) and one broker for the module's topics."""

from __future__ import annotations

import os
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from pyspark.sql import SparkSession

from tests.integration.broker import BrokerProcess
from tests.integration.zookeeper import ZooKeeperServer


@pytest.fixture(scope="session")
def spark() -> Iterator[SparkSession]:
    """A local[2] session whose Python workers run this interpreter (which imports the project), so that the
    `kafka-port` source is found by PySpark's own discovery, without a register call."""
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    session = (
        SparkSession.builder.master("local[2]")
        .appName("kafka-port-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.driver.memory", "1g")
        .config("spark.sql.session.timeZone", "UTC")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("WARN")
    try:
        yield session
    finally:
        session.stop()


@pytest.fixture(scope="module")
def spark_broker(zookeeper: ZooKeeperServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[BrokerProcess]:
    """One broker for the module's topics; records are kept without a time limit (tests stamp old timestamps)."""
    work = Path(tmp_path_factory.mktemp("spark-broker"))
    broker = BrokerProcess(
        work,
        zookeeper.connect_string + "/spark-" + uuid.uuid4().hex[:8],
        overrides={"log.retention.ms": "-1", "num.partitions": "1"},
    )
    broker.start()
    yield broker
    assert broker.stop() == 0, broker.console_tail()
