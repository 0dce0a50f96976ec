"""Tests for kafka.log.offset_map, after Kafka's OffsetMapTest."""

from __future__ import annotations

import hashlib
import struct

import pytest

from kafka.log.offset_map import SkimpyOffsetMap


def test_basic_put_and_get() -> None:
    """Keys map to their offsets, unknown keys to -1, and the latest offset follows puts."""
    m = SkimpyOffsetMap(4096)
    for i in range(10):
        m.put(str(i).encode(), i * 10)
    assert [m.get(str(i).encode()) for i in range(10)] == [i * 10 for i in range(10)]
    assert m.get(b"missing") == -1
    assert m.size == 10 and m.latest_offset == 90


def test_overwrite_keeps_size() -> None:
    """Putting a key again overwrites its offset without a new slot."""
    m = SkimpyOffsetMap(4096)
    m.put(b"k", 1)
    m.put(b"k", 7)
    assert m.get(b"k") == 7 and m.size == 1


def test_fills_to_capacity_with_collisions() -> None:
    """A map filled to every slot still finds every key (probing through collisions)."""
    m = SkimpyOffsetMap(24 * 100)
    assert m.slots == 100
    for i in range(100):
        m.put(f"key-{i}".encode(), i)
    assert all(m.get(f"key-{i}".encode()) == i for i in range(100))
    assert m.utilization == 1.0
    with pytest.raises(ValueError, match="full offset map"):
        m.put(b"one-more", 1)
    assert m.get(b"absent-from-a-full-map") == -1


def test_slot_layout_is_md5_digest_then_offset() -> None:
    """Each slot holds the MD5 of the key followed by the big-endian offset, at the probe Kafka computes."""
    m = SkimpyOffsetMap(24 * 8)
    m.put(b"hello", 12345)
    digest = hashlib.md5(b"hello").digest()
    slot = abs(struct.unpack(">i", digest[:4])[0]) % 8
    raw = bytes(m._bytes[slot * 24 : slot * 24 + 24])
    assert raw == digest + struct.pack(">q", 12345)


def test_clear_resets() -> None:
    """Clearing forgets every key and the latest offset."""
    m = SkimpyOffsetMap(1024)
    m.put(b"a", 3)
    m.clear()
    assert m.get(b"a") == -1 and m.size == 0 and m.latest_offset == -1


def test_other_algorithms_and_unknown() -> None:
    """SHA-256 works with 40-byte slots; an unknown algorithm is refused."""
    m = SkimpyOffsetMap(4000, "SHA-256")
    assert m.bytes_per_entry == 40 and m.slots == 100
    m.put(b"x", 5)
    assert m.get(b"x") == 5
    with pytest.raises(ValueError):
        SkimpyOffsetMap(1000, "NOPE")
