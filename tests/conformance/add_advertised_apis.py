"""Adds newly served APIs to the recorded ApiVersions responses of this project's broker.

When the broker starts serving an API, every session recorded from it differs in its ApiVersions table. Rather
than record (and read again) the whole corpus, this adds the given keys to each recorded table, touching nothing
else; a frame is rewritten only if decoding and re-encoding it unchanged gives back the recorded bytes exactly.
Used for DescribeClientQuotas (48) and AlterClientQuotas (49), v0-1:

    .venv/bin/python -m tests.conformance.add_advertised_apis 48:0-1 49:0-1
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from kafka.common.message import ApiVersionsResponseData
from kafka.common.protocol.errors import Errors
from kafka.common.protocol.message import ByteBufferAccessor

CORPUS = Path(__file__).parent / "corpus"


def _read(body: bytes, version: int) -> ApiVersionsResponseData | None:
    """The body read at `version`, or None unless re-encoding it gives back the same bytes."""
    try:
        data = ApiVersionsResponseData().read(ByteBufferAccessor(memoryview(body)), version)
    except Exception:
        return None
    return data if bytes(data.write(version)) == body else None


def _patch(path: Path, new: dict[int, tuple[int, int]]) -> int:
    changed = 0
    out = []
    for line in path.read_text().splitlines(keepends=True):
        event = json.loads(line)
        if event.get("type") == "response" and event.get("api_key") == 18:
            raw = bytes.fromhex(event["hex"])
            head, body = raw[:4], raw[4:]  # correlation id: ApiVersions responses use header v0
            version = event.get("api_version", 0)
            data = _read(body, version)
            if data is None:
                # A version the broker does not serve is answered in the v0 layout, with the table.
                version = 0
                data = _read(body, 0)
                if data is None or data.error_code != Errors.UNSUPPORTED_VERSION.code:
                    raise SystemExit(f"{path.name}: an ApiVersions response that does not re-encode exactly")
            if not any(k.api_key in new for k in data.api_keys):
                entries = list(data.api_keys)
                for key, (low, high) in new.items():
                    entries.append(ApiVersionsResponseData.ApiVersion(api_key=key, min_version=low, max_version=high))
                data.api_keys.clear()
                for entry in sorted(entries, key=lambda k: k.api_key):
                    data.api_keys.append(entry)
                new_hex = (head + bytes(data.write(version))).hex()
                line = line.replace(event["hex"], new_hex)
                changed += 1
        out.append(line)
    if changed:
        path.write_text("".join(out))
        print(f"{path.name}: {changed} response(s)")
    return changed


def main(specs: list[str]) -> int:
    new: dict[int, tuple[int, int]] = {}
    for spec in specs:
        key, versions = spec.split(":")
        low, high = versions.split("-")
        new[int(key)] = (int(low), int(high))
    total = sum(_patch(path, new) for path in sorted(CORPUS.glob("*.jsonl")))
    print("total", total)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
