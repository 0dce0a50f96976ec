"""Fixtures shared by every test: a guard against leaked Kafka threads."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator

import pytest

from tests.utils import wait_until_true

# Threads named as Kafka names them (DESIGN.md); any still alive after a test is a leak.
KAFKA_THREAD = re.compile(
    r"^(kafka-|zk-client-|controller-event-thread|Controller-|ExpirationReaper-|ReplicaFetcherThread-|executor-|group-metadata-manager|"
    r"transaction-|TxnMarkerSenderThread-|LogDirFailureHandler|ThrottledChannelReaper-|feature-zk-node-event-process-thread)"
)


def _kafka_threads() -> set[threading.Thread]:
    return {t for t in threading.enumerate() if t.is_alive() and KAFKA_THREAD.match(t.name)}


@pytest.fixture(autouse=True)
def no_leaked_kafka_threads() -> Iterator[None]:
    """Fails a test that leaves a Kafka-named thread running (after a short grace period to finish)."""
    before = _kafka_threads()
    yield
    leaked: set[threading.Thread] = set()

    def settled() -> bool:
        leaked.clear()
        leaked.update(_kafka_threads() - before)
        return not leaked

    if not settled():
        try:
            wait_until_true(settled, "threads to stop", timeout=5.0)
        except AssertionError:
            pytest.fail(f"test leaked threads: {sorted(t.name for t in leaked)}")
