"""A capture as a readable listing: one line per event, each frame decoded with the message definitions.

    kafka-run-class.sh kafka.tools.conformance.CaptureSummary FILE [--full] [--width 160]

    0.001340 conn 0 open from 127.0.0.1:50522
    0.002100 conn 0 -> ApiVersions v3 #1 rdkafka {client_software_name: 'librdkafka', ...}
    0.002310 conn 0 <- ApiVersions v3 #1 {error_code: 0, api_keys: [...], ...}

This is what a recorded session is checked with by hand before it becomes a fixture. Values are shown as
they are (not normalised); bytes as hex; record sets as their batches and records. Lines are cut at
`--width` characters unless `--full`.

Not a port of a Kafka class.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import IO

from kafka.tools.conformance.capture import Capture, CaptureFormatError, ConnectionEvent, FrameEvent, read_capture
from kafka.tools.conformance.comparer import compact
from kafka.tools.conformance.decoder import DecodeError, decode_request, decode_response
from kafka.tools.conformance.normaliser import Normaliser


def frame_summary(event: FrameEvent, raw: Normaliser) -> str:
    """The decoded content of a frame, compact."""
    if event.note and event.api_key is None:
        return f"({event.note}) {len(event.data)} bytes"
    try:
        if event.is_request:
            req = decode_request(event.data)
            text = compact(raw.request(req.api_key, req.api_version, req.body))
            return text + (f" +{len(req.trailing)} trailing bytes" if req.trailing else "")
        assert event.api_key is not None and event.api_version is not None
        resp = decode_response(event.data, event.api_key, event.api_version)
        text = compact(raw.response(resp.api_key, resp.api_version, resp.body))
        return text + (f" +{len(resp.trailing)} trailing bytes" if resp.trailing else "")
    except (DecodeError, AssertionError) as e:
        return f"(cannot decode: {e}) {len(event.data)} bytes"


def summary_lines(capture: Capture, width: int | None = 160) -> list[str]:
    raw = Normaliser(normalise=False)
    out = []
    header = capture.header
    out.append(f"capture from {header.source}: " + ", ".join(f"{k}={v}" for k, v in header.extra.items()))
    for e in capture.events:
        if isinstance(e, ConnectionEvent):
            if e.kind == "open":
                line = f"{e.t:10.6f} conn {e.conn} open" + (f" from {e.peer}" if e.peer else "")
            else:
                line = f"{e.t:10.6f} conn {e.conn} closed" + (f" by the {e.by}" if e.by else "")
        else:
            arrow = "->" if e.is_request else "<-"
            version = f" v{e.api_version}" if e.api_version is not None else ""
            who = f" {e.client_id}" if e.is_request and e.client_id else ""
            acks0 = " (acks=0: no response)" if e.is_request and e.expect_response is False else ""
            line = (
                f"{e.t:10.6f} conn {e.conn} {arrow} {e.api_name}{version} #{e.correlation_id}{who}{acks0} "
                f"{frame_summary(e, raw)}"
            )
        if width and len(line) > width:
            line = line[: width - 3] + "..."
        out.append(line)
    return out


def main(argv: Sequence[str] | None = None, out: IO[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="kafka-run-class.sh kafka.tools.conformance.CaptureSummary",
        description="Lists a capture's events with every frame decoded, for reading a recorded session.",
    )
    parser.add_argument("capture", help="a capture (.jsonl) or a pcap/pcapng file")
    parser.add_argument("--full", action="store_true", help="do not cut long lines")
    parser.add_argument("--width", type=int, default=160, help="cut lines at this many characters (default 160)")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    console = out or sys.stdout
    try:
        capture = read_capture(args.capture)
    except (OSError, CaptureFormatError, ValueError) as e:
        print(f"Error: {e}", file=sys.stderr)
        return 1
    for line in summary_lines(capture, None if args.full else args.width):
        print(line, file=console)
    return 0


if __name__ == "__main__":
    sys.exit(main())
