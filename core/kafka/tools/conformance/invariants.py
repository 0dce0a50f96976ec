"""What every response of a broker must satisfy, whatever it says.

- its correlation id is that of a request sent on the same connection and not answered yet;
- responses come in the order of their requests on each connection;
- its header is the version the request's api version calls for (v1 for flexible versions, v0 otherwise,
  v0 for ApiVersions at every version);
- it holds nothing outside its version: reading it at that version consumes it exactly, writing what was
  read gives back the same bytes, and it has no tagged field the definition does not give that version;
- every request is answered, except a Produce with acks=0, which never is.

    kafka-run-class.sh kafka.tools.conformance.Invariants CAPTURE   # checks the responses of a capture

Not a port of a Kafka class.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from kafka.common.message import ResponseHeaderData
from kafka.common.message.spec import FieldSpec, MessageSpec
from kafka.common.protocol.send_builder import SendBuilder
from kafka.tools.conformance.decoder import DecodedResponse, DecodeError, decode_response
from kafka.tools.conformance.frames import (
    FrameError,
    Outstanding,
    RequestInfo,
    ResponseMatcher,
    api_name,
    parse_request,
    peek_correlation_id,
    response_header_version,
)
from kafka.tools.conformance.message_tree import attribute_name, fields_at, response_spec, struct_fields


@dataclass(frozen=True, slots=True)
class Violation:
    rule: str  # correlation-id, order, header-version, encoding, unknown-tagged-field, unanswered
    conn: int
    correlation_id: int | None
    detail: str

    def __str__(self) -> str:
        return f"conn {self.conn}, correlation id {self.correlation_id}: {self.rule}: {self.detail}"


def _encode(decoded: DecodedResponse) -> bytes:
    builder = SendBuilder()
    ResponseHeaderData(correlation_id=decoded.correlation_id).write_to(builder, decoded.header_version)
    decoded.body.write_to(builder, decoded.api_version)
    return builder.to_bytes()


def _clean(frame: bytes, api_key: int, api_version: int, header_version: int) -> tuple[DecodedResponse | None, str]:
    """Reads a response with the given header version; (decoded, "") if it reads exactly and writes back to the
    same bytes, else (decoded or None, what is wrong)."""
    try:
        decoded = decode_response(frame, api_key, api_version, header_version)
    except DecodeError as e:
        return None, str(e)
    if decoded.trailing:
        return decoded, f"{len(decoded.trailing)} bytes left after the v{decoded.api_version} body"
    again = _encode(decoded)
    if again != frame:
        at = next((i for i, (x, y) in enumerate(zip(again, frame)) if x != y), min(len(again), len(frame)))
        return decoded, (
            f"writing the v{decoded.api_version} body read from it gives other bytes "
            f"({len(again)} instead of {len(frame)}, first difference at byte {at})"
        )
    return decoded, ""


def check_response(
    frame: bytes, api_key: int, api_version: int
) -> tuple[DecodedResponse | None, list[tuple[str, str]]]:
    """(the decoded response if it could be read, [(rule, detail)] of what is wrong with it)."""
    expected = response_header_version(api_key, api_version)
    decoded, problem = _clean(frame, api_key, api_version, expected)
    problems: list[tuple[str, str]] = []
    if problem:
        other = 1 - expected
        alt, alt_problem = _clean(frame, api_key, api_version, other)
        if not alt_problem and alt is not None:
            problems.append(
                (
                    "header-version",
                    f"response header v{other} where {api_name(api_key)} v{api_version} calls for v{expected}",
                )
            )
            decoded = alt
        else:
            problems.append(("encoding", problem))
    if decoded is not None:
        for path, tag in unknown_tagged_fields(decoded.body, response_spec(api_key), decoded.api_version):
            where = f" in {path}" if path else ""
            problems.append(
                (
                    "unknown-tagged-field",
                    f"tagged field {tag}{where} is not in the v{decoded.api_version} definition of "
                    f"{api_name(api_key)}Response",
                )
            )
    return decoded, problems


def unknown_tagged_fields(obj: Any, spec: MessageSpec, version: int) -> list[tuple[str, int]]:
    """(path, tag) of every tagged field the definition does not know at `version`."""
    out: list[tuple[str, int]] = []
    _unknown(obj, spec.fields, spec, version, "", out)
    return out


def _unknown(obj: Any, fields: list[FieldSpec], spec: MessageSpec, version: int, path: str, out: list[Any]) -> None:
    for tag, _ in getattr(obj, "_unknown_tagged_fields", None) or []:
        out.append((path, tag))
    for f in fields_at(fields, version):
        if not f.is_struct:
            continue
        name = attribute_name(f.name)
        value = getattr(obj, name)
        if value is None:
            continue
        sub = struct_fields(spec, f)
        child = f"{path}.{name}" if path else name
        if f.is_array:
            for i, e in enumerate(value):
                _unknown(e, sub, spec, version, f"{child}[{i}]", out)
        else:
            _unknown(value, sub, spec, version, child, out)


class ConnectionChecker:
    """Follows the requests and responses of one connection and reports every broken invariant."""

    def __init__(self, conn: int) -> None:
        self.conn = conn
        self._matcher = ResponseMatcher()
        self._unanswerable: set[int] = set()  # correlation ids of acks=0 produce requests

    def request_sent(self, info: RequestInfo, token: object = None) -> None:
        if info.expect_response:
            self._matcher.on_request(info, token)
        else:
            self._unanswerable.add(info.correlation_id)

    def response_received(self, frame: bytes) -> tuple[Outstanding | None, DecodedResponse | None, list[Violation]]:
        """(the request it answers, the decoded response, the violations)."""
        violations: list[Violation] = []
        try:
            cid = peek_correlation_id(frame)
        except FrameError as e:
            return None, None, [Violation("correlation-id", self.conn, None, str(e))]
        entry, oldest = self._matcher.match(cid)
        if entry is None:
            if cid in self._unanswerable:
                detail = "a response to a Produce with acks=0, which a broker must not answer"
            else:
                waiting = [o.info.correlation_id for o in self._matcher.outstanding()]
                detail = f"answers no request waiting on this connection (waiting: {waiting})"
            return None, None, [Violation("correlation-id", self.conn, cid, detail)]
        if not oldest:
            earlier = [o.info.correlation_id for o in self._matcher.outstanding() if o.info.correlation_id != cid]
            violations.append(
                Violation(
                    "order", self.conn, cid, f"answered before the earlier requests {earlier[:5]} of the connection"
                )
            )
        decoded, problems = check_response(frame, entry.info.api_key, entry.info.api_version)
        violations.extend(Violation(rule, self.conn, cid, detail) for rule, detail in problems)
        return entry, decoded, violations

    def finish(self) -> list[Violation]:
        """A violation for every request still unanswered."""
        return [
            Violation(
                "unanswered",
                self.conn,
                o.info.correlation_id,
                f"no response to {o.info.api_name} v{o.info.api_version}",
            )
            for o in self._matcher.outstanding()
        ]


def check_capture(capture: Any) -> list[Violation]:
    """Every violation in the responses of a capture (whose connections all began in the capture)."""
    checkers: dict[int, ConnectionChecker] = {}
    out: list[Violation] = []
    for e in capture.frames:
        checker = checkers.setdefault(e.conn, ConnectionChecker(e.conn))
        if e.is_request:
            try:
                checker.request_sent(parse_request(e.data))
            except FrameError as err:
                out.append(Violation("request", e.conn, e.correlation_id, str(err)))
        else:
            out.extend(checker.response_received(e.data)[2])
    for checker in checkers.values():
        out.extend(checker.finish())
    return out


def main(argv: Sequence[str] | None = None) -> int:
    from kafka.tools.conformance.capture import CaptureFormatError, read_capture

    parser = argparse.ArgumentParser(
        prog="kafka-run-class.sh kafka.tools.conformance.Invariants",
        description="Checks the responses of a capture against the invariants every broker must keep.",
    )
    parser.add_argument("capture", help="a capture (.jsonl) or a pcap/pcapng file")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    try:
        capture = read_capture(args.capture)
    except (OSError, CaptureFormatError, ValueError) as e:
        print(f"Error: {e}", file=sys.stderr)
        return 1
    violations = check_capture(capture)
    for v in violations:
        print(v)
    print(f"{len(violations)} violation(s) in {len(capture.frames)} frames")
    return 1 if violations else 0


if __name__ == "__main__":
    sys.exit(main())
