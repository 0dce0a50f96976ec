"""The conformance corpus replayed against the broker: every session under corpus/ (recorded from real clients, and
the captures of real Kafka traffic in ../shared/kafka-protocol-spec/pcaps) is replayed on as many connections as were
recorded, each response checked against the broker invariants and compared with the recorded one after
normalisation, as its manifest says."""

from __future__ import annotations

from pathlib import Path

import pytest

from kafka.tools.conformance.capture import read_capture
from kafka.tools.conformance.manifest import Manifest, load_manifest
from kafka.tools.conformance.traffic_replayer import replay_session
from tests.conformance.conftest import BrokerFactory

pytestmark = pytest.mark.integration

CORPUS = Path(__file__).resolve().parent / "corpus"


def _manifests() -> list[Manifest]:
    return [load_manifest(p) for p in sorted(CORPUS.rglob("*.json"))]


MANIFESTS = _manifests()


@pytest.mark.parametrize("manifest", MANIFESTS, ids=[m.session for m in MANIFESTS])
def test_session_replays_as_recorded(manifest: Manifest, conformance_broker: BrokerFactory) -> None:
    """The session's responses from the broker keep every invariant and equal the recorded ones after normalisation."""
    path = manifest.capture_path()
    if not path.exists():
        pytest.skip(f"capture {path} is not here")
    capture = read_capture(path)
    broker = conformance_broker(manifest.broker_configs)
    report = replay_session(manifest, capture, "127.0.0.1", broker.port)
    assert report.ok, "\n".join(report.lines())
    assert report.compared > 0 or all(e.skip_compare or e.skip_replay for e in report.exchanges)


def test_corpus_covers_the_clients_and_scenarios() -> None:
    """The corpus holds sessions of every client the suite is about, each with a manifest naming client and scenario."""
    recorded = [m for m in MANIFESTS if not m.capture.startswith("pcaps:")]
    clients = {m.client.get("name") for m in recorded}
    ours = {"kafka-port producer", "kafka-port consumer", "kafka-port admin client"}
    assert {"confluent-kafka", "kcat", "aiokafka", "kafka-python"} | ours <= clients, clients
    assert all(m.scenario and m.description for m in recorded)
