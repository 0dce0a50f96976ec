"""pcap and pcapng files to captures: link types, TCP reassembly (out of order, retransmitted, missing bytes),
telling client from server, and the real captures of Kafka traffic agreeing with their published frame list."""

from __future__ import annotations

import json
import socket
import struct
from pathlib import Path

import pytest

from kafka.common.message import ApiMessageType, MetadataRequestData, MetadataResponseData
from kafka.tools.conformance.capture import ConnectionEvent, FrameEvent
from kafka.tools.conformance.manifest import pcaps_dir
from kafka.tools.conformance.pcap_reader import (
    LINKTYPE_ETHERNET,
    LINKTYPE_LINUX_SLL2,
    LINKTYPE_RAW,
    Packet,
    PcapError,
    capture_from_packets,
    read_packets,
    read_pcap_capture,
)
from tests.unit.kafka.tools.conformance.helpers import request_frame, response_frame, sized

SYN, FIN, ACK, PSH = 0x02, 0x01, 0x10, 0x08
CLIENT, SERVER = ("10.0.0.1", 40000), ("10.0.0.2", 9092)


def tcp(src: tuple[str, int], dst: tuple[str, int], seq: int, flags: int, payload: bytes = b"") -> bytes:
    """An IPv4 packet holding one TCP segment."""
    segment = struct.pack(">HHIIHHHH", src[1], dst[1], seq, 0, (5 << 12) | flags, 65535, 0, 0) + payload
    header = struct.pack(
        ">BBHHHBBH4s4s",
        0x45,
        0,
        20 + len(segment),
        0,
        0x4000,
        64,
        6,
        0,
        socket.inet_aton(src[0]),
        socket.inet_aton(dst[0]),
    )
    return header + segment


def ethernet(ip: bytes) -> bytes:
    frame = b"\x02" * 6 + b"\x04" * 6 + b"\x08\x00" + ip
    return frame + b"\x00" * max(0, 60 - len(frame))  # short frames are padded on the wire


def pcap(packets: list[tuple[float, bytes]], linktype: int = LINKTYPE_ETHERNET, endian: str = "<") -> bytes:
    out = bytearray(struct.pack(endian + "IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, linktype))
    for t, data in packets:
        out += struct.pack(endian + "IIII", int(t), round((t % 1) * 1e6), len(data), len(data)) + data
    return bytes(out)


def pcapng(packets: list[tuple[float, bytes]], linktype: int, tsresol: int = 9) -> bytes:
    def block(kind: int, body: bytes) -> bytes:
        body += b"\x00" * (-len(body) % 4)
        return struct.pack("<II", kind, len(body) + 12) + body + struct.pack("<I", len(body) + 12)

    out = block(0x0A0D0D0A, struct.pack("<IHHq", 0x1A2B3C4D, 1, 0, -1))
    options = struct.pack("<HHB3x", 9, 1, tsresol) + struct.pack("<HH", 0, 0)
    out += block(1, struct.pack("<HHI", linktype, 0, 65535) + options)
    for t, data in packets:
        ts = round(t * 10**tsresol)
        out += block(6, struct.pack("<IIIII", 0, ts >> 32, ts & 0xFFFFFFFF, len(data), len(data)) + data)
    return out


def _exchange_bytes() -> tuple[bytes, bytes]:
    req = request_frame(ApiMessageType.METADATA, 9, 7, MetadataRequestData(topics=None), client_id="c")
    resp = response_frame(ApiMessageType.METADATA, 9, 7, MetadataResponseData(cluster_id="x"))
    return sized(req), sized(resp)


def _frames(capture) -> list[FrameEvent]:  # type: ignore[no-untyped-def]
    return [e for e in capture.events if isinstance(e, FrameEvent)]


def test_segments_out_of_order_and_retransmitted_reassemble(tmp_path: Path) -> None:
    """A request cut in three segments, one arriving late and one twice, and a response in two segments come out as
    one request and its response, each timed by the packet that completed it."""
    req, resp = _exchange_bytes()
    c0, s0 = 1000, 5000
    a, b, c = req[:5], req[5:20], req[20:]
    packets = [
        (10.0, ethernet(tcp(CLIENT, SERVER, c0, SYN))),
        (10.1, ethernet(tcp(SERVER, CLIENT, s0, SYN | ACK))),
        (10.2, ethernet(tcp(CLIENT, SERVER, c0 + 1, ACK | PSH, a))),
        (10.3, ethernet(tcp(CLIENT, SERVER, c0 + 1 + len(a) + len(b), ACK | PSH, c))),
        (10.4, ethernet(tcp(CLIENT, SERVER, c0 + 1, ACK | PSH, a))),  # retransmitted
        (10.5, ethernet(tcp(CLIENT, SERVER, c0 + 1 + len(a), ACK | PSH, b))),  # late
        (10.6, ethernet(tcp(SERVER, CLIENT, s0 + 1, ACK | PSH, resp[:9]))),
        (10.7, ethernet(tcp(SERVER, CLIENT, s0 + 1 + 9, ACK | PSH, resp[9:]))),
        (10.8, ethernet(tcp(CLIENT, SERVER, c0 + 1 + len(req), FIN | ACK))),
    ]
    path = tmp_path / "x.pcap"
    path.write_bytes(pcap(packets))
    capture = read_pcap_capture(path)
    req_e, resp_e = _frames(capture)
    assert req_e.data == req[4:] and resp_e.data == resp[4:]
    assert (req_e.api_key, req_e.correlation_id, req_e.client_id) == (3, 7, "c")
    assert (resp_e.api_key, resp_e.api_version, resp_e.correlation_id) == (3, 9, 7)
    assert round(req_e.t, 3) == 0.5 and round(resp_e.t, 3) == 0.7
    assert req_e.extra == {"tcp_stream": 0, "pcap_frame": 3}
    opened, closed = capture.events[0], capture.events[-1]
    assert isinstance(opened, ConnectionEvent) and opened.peer == "10.0.0.1:40000"
    assert isinstance(closed, ConnectionEvent) and closed.kind == "close" and closed.by == "client"


def test_big_endian_pcap_reads_alike() -> None:
    """The byte order of the file header decides how records are read."""
    req, _ = _exchange_bytes()
    data = pcap([(1.0, ethernet(tcp(CLIENT, SERVER, 1, ACK | PSH, req)))], endian=">")
    packets = list(read_packets(data))
    assert len(packets) == 1 and packets[0].t == 1.0 and packets[0].linktype == LINKTYPE_ETHERNET


def test_pcapng_with_linux_cooked_v2_and_nanoseconds() -> None:
    """pcapng blocks on a Linux cooked v2 interface with nanosecond timestamps give the same frames."""
    req, resp = _exchange_bytes()

    def sll2(ip: bytes) -> bytes:
        return struct.pack(">HHIHBB8s", 0x0800, 0, 1, 1, 0, 6, b"\x00" * 8) + ip

    data = pcapng(
        [
            (2.000000001, sll2(tcp(CLIENT, SERVER, 1, ACK | PSH, req))),
            (2.5, sll2(tcp(SERVER, CLIENT, 1, ACK | PSH, resp))),
        ],
        LINKTYPE_LINUX_SLL2,
    )
    packets = list(read_packets(data))
    assert packets[0].t == pytest.approx(2.000000001, abs=1e-9)
    frames = _frames(capture_from_packets(packets))
    assert [f.direction for f in frames] == ["request", "response"] and frames[1].correlation_id == 7


def test_raw_ipv6_without_handshake_finds_the_client_by_its_requests() -> None:
    """A stream seen from its middle, on ports that say nothing, has as client the side whose bytes read as requests."""
    req, resp = _exchange_bytes()

    def ip6(src: str, sport: int, dst: str, dport: int, payload: bytes) -> bytes:
        segment = struct.pack(">HHIIHHHH", sport, dport, 77, 0, (5 << 12) | ACK, 1, 0, 0) + payload
        return (
            struct.pack(">IHBB", 6 << 28, len(segment), 6, 64)
            + socket.inet_pton(socket.AF_INET6, src)
            + socket.inet_pton(socket.AF_INET6, dst)
            + segment
        )

    packets = [
        # The server's packet comes first in the file (with a later time, as captures merged from two
        # interfaces can have it), so the stream's first side is the server.
        Packet(1, 1.2, LINKTYPE_RAW, ip6("::2", 30000, "::1", 40000, resp)),
        Packet(2, 1.1, LINKTYPE_RAW, ip6("::1", 40000, "::2", 30000, req)),
    ]
    capture = capture_from_packets(packets, kafka_ports=())
    opened = capture.events[0]
    assert isinstance(opened, ConnectionEvent) and opened.peer == "[::1]:40000"
    assert [f.direction for f in _frames(capture)] == ["request", "response"]


def test_missing_bytes_end_the_direction_with_a_note() -> None:
    """A hole in the sequence keeps the frames before it and notes where the stream became unreadable."""
    req, _ = _exchange_bytes()
    packets = [
        Packet(1, 1.0, LINKTYPE_ETHERNET, ethernet(tcp(CLIENT, SERVER, 100, SYN))),
        Packet(2, 1.1, LINKTYPE_ETHERNET, ethernet(tcp(CLIENT, SERVER, 101, ACK | PSH, req))),
        Packet(3, 1.2, LINKTYPE_ETHERNET, ethernet(tcp(CLIENT, SERVER, 101 + len(req) + 10, ACK | PSH, req))),
    ]
    capture = capture_from_packets(packets)
    assert len(_frames(capture)) == 1
    assert capture.header.extra["notes"] == [
        f"tcp stream 0 client->server: bytes missing after stream offset {len(req)}"
    ]


def test_other_traffic_is_counted_not_read() -> None:
    """Packets that are not TCP over IP are skipped and counted by reason."""
    arp = b"\xff" * 12 + b"\x08\x06" + b"\x00" * 28
    capture = capture_from_packets([Packet(1, 0.0, LINKTYPE_ETHERNET, arp)])
    assert capture.events == [] and capture.header.extra["skipped_packets"] == {"ethertype 0x0806": 1}


def test_not_a_capture_file() -> None:
    """Bytes that are neither pcap nor pcapng are refused."""
    with pytest.raises(PcapError, match="unknown capture file magic"):
        list(read_packets(b"GIF89a........................"))


VECTORS = pcaps_dir() / "pcap_vectors.json"


@pytest.mark.skipif(not VECTORS.exists(), reason="the captures of real Kafka traffic are not here")
def test_real_captures_give_the_published_frames() -> None:
    """Every Kafka frame listed in pcap_vectors.json is found, byte for byte, with its kind, api key and correlation id,
    in the capture read from its pcap or pcapng file (54 frames in 12 files)."""
    vectors = json.loads(VECTORS.read_text())
    by_file: dict[str, list[FrameEvent]] = {}
    for path in sorted(pcaps_dir().glob("*/*.pcap*")):
        by_file[path.name] = _frames(read_pcap_capture(path, kafka_ports=(9092, 36333)))
    found = 0
    for v in vectors["frames"]:
        frames = by_file[v["file"]]
        match = [f for f in frames if f.data.hex() == v["frame_hex"] and f.direction == v["kind"]]
        assert match, (v["file"], v["frame"])
        assert match[0].correlation_id == v["correlation_id"] and match[0].api_key == v.get("api_key")
        found += 1
    assert found == 54 == sum(len(f) for f in by_file.values())
