"""kafka-python (run from its own virtualenv, `.venv-kafka-python`, which `make install` creates) as a client of the
security tests (issue 15): one script that produces a record with the given kafka-python settings (SASL, SSL) and,
when asked, reads it back, and reports as one JSON line the outcome, or the kafka-python error it met, with the
warnings and errors kafka-python logged on the way (a refused login shows there: its producer then reports only that
it could not bootstrap)."""

from __future__ import annotations

import json
import subprocess
import textwrap
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
KAFKA_PYTHON = ROOT / ".venv-kafka-python" / "bin" / "python"

_SCRIPT = textwrap.dedent(
    """
    import json, logging, sys
    from kafka import KafkaConsumer, KafkaProducer, TopicPartition

    problems_logged = []

    class Collect(logging.Handler):
        def emit(self, record):
            problems_logged.append(record.getMessage())

    logging.getLogger("kafka").addHandler(Collect(logging.WARNING))
    args = json.loads(sys.argv[1])
    config, topic = args["config"], args["topic"]
    result = {"problems_logged": problems_logged}
    try:
        producer = KafkaProducer(**{"acks": "all", "max_block_ms": 30000, "request_timeout_ms": 30000, **config})
        try:
            metadata = producer.send(topic, key=b"kafka-python", value=args["value"].encode()).get(timeout=30)
            result["offset"] = metadata.offset
        finally:
            producer.close(timeout=10)
        if args["consume"]:
            consumer = KafkaConsumer(enable_auto_commit=False, consumer_timeout_ms=30000, **config)
            tp = TopicPartition(topic, metadata.partition)
            consumer.assign([tp])
            consumer.seek(tp, metadata.offset)
            for record in consumer:
                result["consumed"] = record.value.decode()
                break
            consumer.close()
    except Exception as e:
        result["error"] = type(e).__name__
        result["message"] = str(e)
    print(json.dumps(result))
    """
)


def kafka_python_produce(
    tmp_path: Path, config: dict[str, Any], topic: str, value: str = "from-kafka-python", consume: bool = False
) -> dict[str, Any]:
    """Produces `value` to `topic` with kafka-python settings `config` (bootstrap_servers, security_protocol,
    sasl_mechanism, ssl_cafile, ...), then reads it back if `consume`. Returns {"offset": ..., "consumed": ...} or
    {"error": <kafka-python error class name>, "message": ...}, with "problems_logged": kafka-python's WARNING and
    ERROR lines."""
    if not KAFKA_PYTHON.exists():
        pytest.fail("make install creates .venv-kafka-python with kafka-python")
    script = tmp_path / "kafka_python_client.py"
    script.write_text(_SCRIPT)
    args = json.dumps({"config": config, "topic": topic, "value": value, "consume": consume})
    done = subprocess.run(
        [str(KAFKA_PYTHON), str(script), args], capture_output=True, text=True, timeout=180, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result
