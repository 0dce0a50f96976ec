"""pcap and pcapng files (tcpdump, tshark, Wireshark) to captures: packets, TCP streams, Kafka frames.

Reads the classic pcap format (either byte order, micro- or nanosecond timestamps) and pcapng (section
header, interface description with its timestamp resolution, enhanced, simple and obsolete packet blocks),
on the link types a capture of Kafka traffic has: Ethernet (with VLAN tags), Linux cooked v1 and v2, BSD
loopback, and raw IPv4/IPv6. IPv4 fragments are skipped (a Kafka broker's traffic is not fragmented in
practice) and counted in the header.

TCP streams are reassembled per direction by sequence number: out-of-order segments are put in place,
retransmitted bytes are taken once (the first copy wins), and a hole in the sequence ends what can be
read of that direction (noted in the capture). A stream whose SYN is missing starts at its lowest
sequence number seen. The client of a stream is the side that sent the SYN; without one, the side not on
a Kafka port (9092 unless told otherwise); failing that, the side whose first bytes read as a request.

    kafka-run-class.sh kafka.tools.conformance.PcapReader FILE [--out capture.jsonl] [--kafka-port 9092 ...]

Not a port of a Kafka class.
"""

from __future__ import annotations

import argparse
import bisect
import ipaddress
import struct
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from kafka.tools.conformance.capture import (
    Capture,
    CaptureHeader,
    ConnectionEvent,
    Event,
    FrameEvent,
    request_event,
    response_event,
    write_capture,
)
from kafka.tools.conformance.decoder import API_VERSIONS_KEY, DecodeError, decode_request
from kafka.tools.conformance.frames import (
    FrameError,
    FrameSplitter,
    ResponseMatcher,
    parse_request,
    peek_correlation_id,
)

DEFAULT_KAFKA_PORTS = (9092,)

LINKTYPE_NULL = 0
LINKTYPE_ETHERNET = 1
LINKTYPE_RAW = 101
LINKTYPE_LOOP = 108
LINKTYPE_LINUX_SLL = 113
LINKTYPE_IPV4 = 228
LINKTYPE_IPV6 = 229
LINKTYPE_LINUX_SLL2 = 276
_RAW_ALIASES = (12, 14)  # DLT_RAW as some systems number it

_ETHERTYPE_IPV4 = 0x0800
_ETHERTYPE_IPV6 = 0x86DD
_ETHERTYPE_VLAN = (0x8100, 0x88A8, 0x9100)

_TCP_FIN = 0x01
_TCP_SYN = 0x02
_TCP_RST = 0x04
_TCP_ACK = 0x10

_PCAPNG_SHB = 0x0A0D0D0A
_PCAPNG_IDB = 0x00000001
_PCAPNG_OPB = 0x00000002
_PCAPNG_SPB = 0x00000003
_PCAPNG_EPB = 0x00000006
_PCAPNG_BYTE_ORDER_MAGIC = 0x1A2B3C4D


class PcapError(Exception):
    """A file that is not a pcap or pcapng capture, or is damaged beyond reading."""


@dataclass(frozen=True, slots=True)
class Packet:
    number: int  # 1-based, as Wireshark numbers frames
    t: float  # seconds since the epoch
    linktype: int
    data: bytes


def read_packets(data: bytes) -> Iterator[Packet]:
    """Every packet of a pcap or pcapng file, in file order."""
    if len(data) < 4:
        raise PcapError("too short for a capture file")
    if struct.unpack_from("<I", data, 0)[0] == _PCAPNG_SHB:
        yield from _read_pcapng(data)
    else:
        yield from _read_pcap(data)


def _read_pcap(data: bytes) -> Iterator[Packet]:
    magic_le = struct.unpack_from("<I", data, 0)[0]
    magics = {0xA1B2C3D4: ("<", 1e-6), 0xA1B23C4D: ("<", 1e-9)}
    swapped = {0xD4C3B2A1: (">", 1e-6), 0x4D3CB2A1: (">", 1e-9)}
    if magic_le in magics:
        endian, unit = magics[magic_le]
    elif magic_le in swapped:
        endian, unit = swapped[magic_le]
    else:
        raise PcapError(f"unknown capture file magic {data[:4].hex()}")
    if len(data) < 24:
        raise PcapError("truncated pcap file header")
    linktype = struct.unpack_from(endian + "I", data, 20)[0] & 0x0FFFFFFF
    record = struct.Struct(endian + "IIII")
    pos = 24
    number = 0
    while pos + 16 <= len(data):
        ts_sec, ts_frac, incl_len, _orig_len = record.unpack_from(data, pos)
        pos += 16
        if pos + incl_len > len(data):
            break  # a capture cut off mid-packet
        number += 1
        yield Packet(number, ts_sec + ts_frac * unit, linktype, data[pos : pos + incl_len])
        pos += incl_len


@dataclass(slots=True)
class _Interface:
    linktype: int
    ts_unit: float = 1e-6


def _read_pcapng(data: bytes) -> Iterator[Packet]:
    pos = 0
    endian = "<"
    interfaces: list[_Interface] = []
    number = 0
    while pos + 12 <= len(data):
        block_type = struct.unpack_from(endian + "I", data, pos)[0]
        if block_type == _PCAPNG_SHB or struct.unpack_from("<I", data, pos)[0] == _PCAPNG_SHB:
            bom = data[pos + 8 : pos + 12]
            if struct.unpack("<I", bom)[0] == _PCAPNG_BYTE_ORDER_MAGIC:
                endian = "<"
            elif struct.unpack(">I", bom)[0] == _PCAPNG_BYTE_ORDER_MAGIC:
                endian = ">"
            else:
                raise PcapError(f"bad pcapng byte-order magic at offset {pos}")
            block_len = struct.unpack_from(endian + "I", data, pos + 4)[0]
            interfaces = []  # interface ids restart in each section
            if block_len < 12 or pos + block_len > len(data):
                raise PcapError(f"bad pcapng section header length {block_len} at offset {pos}")
            pos += block_len
            continue
        block_len = struct.unpack_from(endian + "I", data, pos + 4)[0]
        if block_len < 12 or block_len % 4 or pos + block_len > len(data):
            break  # truncated or damaged: stop at the last good block
        body = data[pos + 8 : pos + block_len - 4]
        pos += block_len
        if block_type == _PCAPNG_IDB:
            linktype = struct.unpack_from(endian + "H", body, 0)[0]
            interfaces.append(_Interface(linktype, _tsresol(body[8:], endian)))
        elif block_type in (_PCAPNG_EPB, _PCAPNG_OPB):
            if block_type == _PCAPNG_EPB:
                iface, ts_hi, ts_lo, cap_len, _ = struct.unpack_from(endian + "IIIII", body, 0)
            else:
                iface, _drops, ts_hi, ts_lo, cap_len, _ = struct.unpack_from(endian + "HHIIII", body, 0)
            if iface >= len(interfaces):
                continue
            number += 1
            info = interfaces[iface]
            t = ((ts_hi << 32) | ts_lo) * info.ts_unit
            yield Packet(number, t, info.linktype, body[20 : 20 + cap_len])
        elif block_type == _PCAPNG_SPB:
            if not interfaces:
                continue
            number += 1
            orig_len = struct.unpack_from(endian + "I", body, 0)[0]
            yield Packet(number, 0.0, interfaces[0].linktype, body[4 : 4 + orig_len])


def _tsresol(options: bytes, endian: str) -> float:
    """The if_tsresol option of an interface description block (default: microseconds)."""
    pos = 0
    while pos + 4 <= len(options):
        code, length = struct.unpack_from(endian + "HH", options, pos)
        if code == 0:
            break
        value = options[pos + 4 : pos + 4 + length]
        if code == 9 and length >= 1:
            v = value[0]
            return 2.0 ** -(v & 0x7F) if v & 0x80 else 10.0 ** -(v & 0x7F)
        pos += 4 + ((length + 3) & ~3)
    return 1e-6


# ---- IP and TCP -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TcpSegment:
    number: int
    t: float
    src: tuple[str, int]
    dst: tuple[str, int]
    seq: int
    flags: int
    payload: bytes


class _Skip(Exception):
    """A packet that carries no TCP segment we can use (the reason is counted)."""


def decode_tcp(packet: Packet) -> TcpSegment:
    """The TCP segment in a packet; raises _Skip with a reason otherwise."""
    data = packet.data
    lt = packet.linktype
    if lt == LINKTYPE_ETHERNET:
        if len(data) < 14:
            raise _Skip("short ethernet frame")
        ethertype = struct.unpack_from(">H", data, 12)[0]
        pos = 14
        while ethertype in _ETHERTYPE_VLAN and len(data) >= pos + 4:
            ethertype = struct.unpack_from(">H", data, pos + 2)[0]
            pos += 4
        return _decode_ip(packet, data[pos:], ethertype)
    if lt == LINKTYPE_LINUX_SLL:
        if len(data) < 16:
            raise _Skip("short linux cooked header")
        return _decode_ip(packet, data[16:], struct.unpack_from(">H", data, 14)[0])
    if lt == LINKTYPE_LINUX_SLL2:
        if len(data) < 20:
            raise _Skip("short linux cooked v2 header")
        return _decode_ip(packet, data[20:], struct.unpack_from(">H", data, 0)[0])
    if lt in (LINKTYPE_NULL, LINKTYPE_LOOP):
        if len(data) < 4:
            raise _Skip("short loopback header")
        return _decode_ip(packet, data[4:], None)
    if lt in (LINKTYPE_RAW, LINKTYPE_IPV4, LINKTYPE_IPV6, *_RAW_ALIASES):
        return _decode_ip(packet, data, None)
    raise _Skip(f"link type {lt}")


def _decode_ip(packet: Packet, data: bytes, ethertype: int | None) -> TcpSegment:
    if not data:
        raise _Skip("empty network layer")
    version = data[0] >> 4
    if ethertype not in (None, _ETHERTYPE_IPV4, _ETHERTYPE_IPV6):
        raise _Skip(f"ethertype {ethertype:#06x}")
    if version == 4:
        if len(data) < 20:
            raise _Skip("short IPv4 header")
        ihl = (data[0] & 0x0F) * 4
        total = struct.unpack_from(">H", data, 2)[0]
        frag = struct.unpack_from(">H", data, 6)[0]
        if frag & 0x3FFF:  # more fragments, or an offset
            raise _Skip("IPv4 fragment")
        if data[9] != 6:
            raise _Skip("not TCP")
        src = str(ipaddress.IPv4Address(data[12:16]))
        dst = str(ipaddress.IPv4Address(data[16:20]))
        end = total if 0 < total <= len(data) else len(data)  # drop link-layer padding
        return _decode_tcp(packet, data[ihl:end], src, dst)
    if version == 6:
        if len(data) < 40:
            raise _Skip("short IPv6 header")
        payload_len = struct.unpack_from(">H", data, 4)[0]
        next_header = data[6]
        src = str(ipaddress.IPv6Address(data[8:24]))
        dst = str(ipaddress.IPv6Address(data[24:40]))
        end = 40 + payload_len if 40 + payload_len <= len(data) else len(data)
        pos = 40
        while next_header in (0, 43, 60):  # hop-by-hop, routing, destination options
            if pos + 2 > end:
                raise _Skip("short IPv6 extension header")
            next_header, hdr_len = data[pos], (data[pos + 1] + 1) * 8
            pos += hdr_len
        if next_header == 44:
            raise _Skip("IPv6 fragment")
        if next_header != 6:
            raise _Skip("not TCP")
        return _decode_tcp(packet, data[pos:end], src, dst)
    raise _Skip(f"IP version {version}")


def _decode_tcp(packet: Packet, data: bytes, src: str, dst: str) -> TcpSegment:
    if len(data) < 20:
        raise _Skip("short TCP header")
    sport, dport, seq, _ack, off_flags = struct.unpack_from(">HHIIH", data, 0)
    offset = (off_flags >> 12) * 4
    if offset < 20 or offset > len(data):
        raise _Skip("bad TCP header length")
    return TcpSegment(packet.number, packet.t, (src, sport), (dst, dport), seq, off_flags & 0x3F, data[offset:])


# ---- reassembly -----------------------------------------------------------------------------------


@dataclass(slots=True)
class _Chunk:
    start: int  # offset in the direction's byte stream
    end: int
    t: float
    number: int


@dataclass(slots=True)
class HalfStream:
    """The bytes one side of a TCP connection sent."""

    syn_seq: int | None = None
    segments: list[TcpSegment] = field(default_factory=list)
    fin_t: float | None = None
    rst_t: float | None = None
    data: bytes = b""
    chunks: list[_Chunk] = field(default_factory=list)
    gap_at: int | None = None  # stream offset of the first hole, if any
    retransmitted: int = 0  # bytes received more than once

    def assemble(self) -> None:
        segs = [s for s in self.segments if s.payload]
        if not segs:
            return
        base = (self.syn_seq + 1) & 0xFFFFFFFF if self.syn_seq is not None else segs[0].seq

        def rel(seq: int) -> int:
            d = (seq - base) & 0xFFFFFFFF
            return d - (1 << 32) if d >= 1 << 31 else d

        placed = [(rel(s.seq), i, s) for i, s in enumerate(segs)]
        if self.syn_seq is None:
            low = min(p[0] for p in placed)
            placed = [(o - low, i, s) for o, i, s in placed]
        placed.sort(key=lambda x: (x[0], x[1]))
        out = bytearray()
        for start, _, seg in placed:
            end = start + len(seg.payload)
            if start < 0:  # data before the SYN's sequence number: not part of this connection's stream
                continue
            if end <= len(out):
                self.retransmitted += len(seg.payload)
                continue
            if start > len(out):
                self.gap_at = len(out)
                break
            skip = len(out) - start
            self.retransmitted += skip
            before = len(out)
            out += seg.payload[skip:]
            self.chunks.append(_Chunk(before, len(out), seg.t, seg.number))
        self.data = bytes(out)

    def completion(self, start: int, end: int) -> tuple[float, int]:
        """(time the bytes [start, end) had all arrived, number of the packet holding byte `start`)."""
        starts = [c.start for c in self.chunks]
        i = max(bisect.bisect_right(starts, start) - 1, 0)
        first = self.chunks[i].number
        t = self.chunks[i].t
        while i < len(self.chunks) and self.chunks[i].start < end:
            t = max(t, self.chunks[i].t)
            i += 1
        return t, first


@dataclass(slots=True)
class TcpStream:
    index: int
    a: tuple[str, int]  # the side of the first packet seen
    b: tuple[str, int]
    first_t: float
    halves: dict[tuple[str, int], HalfStream] = field(default_factory=dict)
    client: tuple[str, int] | None = None  # known from the handshake
    last_t: float = 0.0

    def half(self, sender: tuple[str, int]) -> HalfStream:
        return self.halves.setdefault(sender, HalfStream())

    @property
    def finished(self) -> bool:
        return any(h.fin_t is not None or h.rst_t is not None for h in self.halves.values())


def reassemble(segments: Sequence[TcpSegment]) -> list[TcpStream]:
    """TCP streams in the order their first packet appears, each direction reassembled."""
    streams: list[TcpStream] = []
    current: dict[frozenset[tuple[str, int]], TcpStream] = {}
    for seg in segments:
        key = frozenset((seg.src, seg.dst))
        stream = current.get(key)
        is_syn = bool(seg.flags & _TCP_SYN) and not seg.flags & _TCP_ACK
        if stream is None or (is_syn and (stream.finished or any(h.segments for h in stream.halves.values()))):
            if stream is not None and is_syn and stream.half(seg.src).syn_seq == seg.seq:
                pass  # a retransmitted SYN of the same connection
            else:
                stream = TcpStream(len(streams), seg.src, seg.dst, seg.t)
                streams.append(stream)
                current[key] = stream
        stream.first_t = min(stream.first_t, seg.t)
        stream.last_t = max(stream.last_t, seg.t)
        half = stream.half(seg.src)
        if seg.flags & _TCP_SYN:
            half.syn_seq = seg.seq
            if not seg.flags & _TCP_ACK:
                stream.client = seg.src
            elif stream.client is None:
                stream.client = seg.dst
        if seg.flags & _TCP_FIN and half.fin_t is None:
            half.fin_t = seg.t
        if seg.flags & _TCP_RST and half.rst_t is None:
            half.rst_t = seg.t
        if seg.payload:
            half.segments.append(seg)
    for stream in streams:
        for half in stream.halves.values():
            half.assemble()
    return streams


def _reads_as_request(data: bytes) -> bool:
    """Whether a direction's first frame decodes exactly as a request (a response's correlation id can pass for
    an api key and version, but its body then does not read as that request's)."""
    frames = FrameSplitter().feed(data[: 4 + 65536] if len(data) > 4 + 65536 else data)
    if not frames:
        return False
    try:
        decoded = decode_request(frames[0])
    except DecodeError:
        return False
    return not decoded.trailing or decoded.api_key == API_VERSIONS_KEY


def _client_of(stream: TcpStream, kafka_ports: Sequence[int]) -> tuple[str, int]:
    if stream.client is not None:
        return stream.client
    a, b = stream.a, stream.b
    if b[1] in kafka_ports and a[1] not in kafka_ports:
        return a
    if a[1] in kafka_ports and b[1] not in kafka_ports:
        return b
    a_req = _reads_as_request(stream.half(a).data)
    b_req = _reads_as_request(stream.half(b).data)
    if b_req and not a_req:
        return b
    return a


# ---- to a capture ---------------------------------------------------------------------------------


def _endpoint(addr: tuple[str, int]) -> str:
    host, port = addr
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def capture_from_packets(
    packets: Sequence[Packet], kafka_ports: Sequence[int] = DEFAULT_KAFKA_PORTS, source_name: str = ""
) -> Capture:
    """Turns packets into a capture: one connection per TCP stream that carries data."""
    segments: list[TcpSegment] = []
    skipped: dict[str, int] = {}
    for p in packets:
        try:
            segments.append(decode_tcp(p))
        except _Skip as e:
            skipped[str(e)] = skipped.get(str(e), 0) + 1
    streams = reassemble(segments)
    t0 = min((p.t for p in packets), default=0.0)
    timed: list[tuple[float, int, Event]] = []  # (time, order within the stream, event)
    notes: list[str] = []
    conn = 0
    for stream in streams:
        client = _client_of(stream, kafka_ports)
        server = stream.b if client == stream.a else stream.a
        c2s, s2c = stream.half(client), stream.half(server)
        if not c2s.data and not s2c.data:
            continue
        for label, half in (("client->server", c2s), ("server->client", s2c)):
            if half.gap_at is not None:
                notes.append(f"tcp stream {stream.index} {label}: bytes missing after stream offset {half.gap_at}")
        order = 0
        timed.append(
            (
                stream.first_t - t0,
                order,
                ConnectionEvent("open", conn, stream.first_t - t0, peer=_endpoint(client), extra=_where(stream)),
            )
        )
        frames: list[tuple[float, int, bool, bytes, int]] = []  # (t, first packet, is_request, frame, order)
        for is_request, half in ((True, c2s), (False, s2c)):
            splitter = FrameSplitter()
            pos = 0
            for frame in splitter.feed(half.data):
                start, end = pos, pos + 4 + len(frame)
                pos = end
                t, number = half.completion(start, end)
                frames.append((t, number, is_request, frame, start))
            label = "client->server" if is_request else "server->client"
            if splitter.error is not None:
                notes.append(f"tcp stream {stream.index} {label}: {splitter.error}")
            elif splitter.pending:
                notes.append(f"tcp stream {stream.index} {label}: {splitter.pending} bytes of an incomplete frame")
        # Requests before responses of the same time: a response is never seen before its request.
        frames.sort(key=lambda f: (f[0], not f[2], f[4]))
        matcher = ResponseMatcher()
        for t, number, is_request, frame, _ in frames:
            order += 1
            extra = {"tcp_stream": stream.index, "pcap_frame": number}
            if is_request:
                event = request_event(conn, t - t0, frame)
                event.extra.update(extra)
                if event.api_key is not None:
                    matcher.on_request(parse_request(frame), event)
            else:
                request: FrameEvent | None = None
                try:
                    entry, _ = matcher.match(peek_correlation_id(frame))
                    if entry is not None:
                        assert isinstance(entry.token, FrameEvent)
                        request = entry.token
                except FrameError:
                    pass
                event = response_event(conn, t - t0, frame, request)
                event.extra.update(extra)
            timed.append((t - t0, order, event))
        end_ts = [x for x in (c2s.fin_t, c2s.rst_t, s2c.fin_t, s2c.rst_t) if x is not None]
        if end_ts:
            first_end = min(end_ts)
            by = "client" if first_end in (c2s.fin_t, c2s.rst_t) else "server"
            timed.append(
                (first_end - t0, order + 1, ConnectionEvent("close", conn, first_end - t0, by=by, extra=_where(stream)))
            )
        conn += 1
    timed.sort(key=lambda x: (x[0], x[1]))
    header_extra: dict[str, object] = {"file": source_name, "packets": len(packets), "tcp_streams": len(streams)}
    if skipped:
        header_extra["skipped_packets"] = skipped
    if notes:
        header_extra["notes"] = notes
    return Capture(CaptureHeader("pcap", header_extra), [e for _, _, e in timed])


def _where(stream: TcpStream) -> dict[str, object]:
    return {"tcp_stream": stream.index}


def read_pcap_capture(path: str | Path, kafka_ports: Sequence[int] = DEFAULT_KAFKA_PORTS) -> Capture:
    path = Path(path)
    packets = list(read_packets(path.read_bytes()))
    capture = capture_from_packets(packets, kafka_ports, path.name)
    capture.path = path
    return capture


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="kafka-run-class.sh kafka.tools.conformance.PcapReader",
        description="Converts a pcap or pcapng capture of Kafka traffic into the conformance capture format.",
    )
    parser.add_argument("file", help="a .pcap or .pcapng file")
    parser.add_argument("--out", help="the capture file to write (default: standard output)")
    parser.add_argument(
        "--kafka-port",
        type=int,
        action="append",
        help="a port brokers listen on, to tell clients from servers when a stream's handshake is missing "
        "(repeatable; default 9092)",
    )
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    try:
        capture = read_pcap_capture(args.file, tuple(args.kafka_port or DEFAULT_KAFKA_PORTS))
    except (OSError, PcapError) as e:
        print(f"Error: {e}", file=sys.stderr)
        return 1
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            write_capture(capture, f)
    else:
        write_capture(capture, sys.stdout)
    for note in capture.header.extra.get("notes", []):
        print(f"note: {note}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
