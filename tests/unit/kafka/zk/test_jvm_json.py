"""The JSON encoding reproduces Kafka 2.8's bytes: Java hash codes, Jackson's escaping, and the iteration order of
the Scala and Java collections Kafka hands to Jackson (checked against a real JVM when one is installed)."""

from __future__ import annotations

import json
import random
import string
import subprocess
from pathlib import Path

from kafka.zk.jvm_json import (
    encode_as_bytes,
    java_hash_code,
    java_hash_map,
    java_properties,
    java_string_hash,
    scala_immutable_map,
    scala_immutable_set,
    scala_mutable_map,
)

JACKSON_JARS = [Path(f"/usr/share/java/jackson-{name}.jar") for name in ("databind", "core", "annotations")]


def test_java_string_hash_equals_java() -> None:
    """String hash codes are Java's, over UTF-16 code units and with int overflow."""
    assert java_string_hash("") == 0
    assert java_string_hash("a") == 97
    assert java_string_hash("hello") == 99162322
    assert java_string_hash("polygenelubricants") == -(2**31)
    assert java_string_hash("\U0001f600") == 0xD83D * 31 + 0xDE00


def test_java_hash_code_of_values_and_wrapped_maps() -> None:
    """Integers hash to themselves, longs fold their halves, and a wrapped map hashes as java.util.AbstractMap."""
    assert java_hash_code(-5) == -5
    assert java_hash_code(2**40 + 3) == 3 ^ 2**8  # (int)(v ^ (v >>> 32))
    assert java_hash_code({"topic": "t", "partition": 1}) == (java_string_hash("topic") ^ java_string_hash("t")) + (
        java_string_hash("partition") ^ 1
    )


def test_jackson_escaping_and_compact_output() -> None:
    """Output is compact; control characters use Jackson's escapes (upper-case hex); non-ASCII stays UTF-8."""
    value = {"s": 'a\x01b"c\\d/\n\x7f\u00e9\U0001f600', "n": None, "l": [1, True, False]}
    assert (
        encode_as_bytes(value)
        == b'{"s":"a\\u0001b\\"c\\\\d/\\n\x7f\xc3\xa9\xf0\x9f\x98\x80","n":null,"l":[1,true,false]}'
    )


def test_scala_immutable_map_orders() -> None:
    """Up to four entries keep insertion order; more follow the CHAMP trie, as Kafka's partition state shows."""
    assert list(scala_immutable_map([("b", 1), ("a", 2), ("b", 3)]).items()) == [("b", 3), ("a", 2)]
    keys = ["version", "leader", "leader_epoch", "controller_epoch", "isr"]
    assert list(scala_immutable_map((k, 0) for k in keys)) == [
        "controller_epoch",
        "leader",
        "version",
        "leader_epoch",
        "isr",
    ]
    assert scala_immutable_set([3, 1, 2]) == [3, 1, 2]


def test_scala_mutable_map_orders() -> None:
    """mutable.Map iterates by bucket then hash in its power-of-two table, which grows at three quarters full."""
    broker = ["version", "host", "port", "endpoints", "jmx_port", "timestamp"]
    added = [("listener_security_protocol_map", 0), ("features", 0)]
    assert list(scala_mutable_map([(k, 0) for k in broker], added)) == [
        "features",
        "listener_security_protocol_map",
        "endpoints",
        "jmx_port",
        "port",
        "host",
        "version",
        "timestamp",
    ]
    # Twelve partitions: the twelfth insertion doubles the table to 32, where "11" (hash 1568) lands in bucket 0.
    assert list(scala_mutable_map([], [(str(p), 0) for p in range(12)])) == ["11", *map(str, range(11))]
    assert list(scala_mutable_map([], [(str(p), 0) for p in range(11)])) == [str(p) for p in range(11)]


def test_properties_order_after_a_resize_equals_java() -> None:
    """Thirteen properties force the ConcurrentHashMap to resize; the order equals what Java 17 + Jackson printed."""
    keys = (
        "retention.ms cleanup.policy segment.bytes min.insync.replicas max.message.bytes compression.type "
        "retention.bytes segment.ms flush.messages unclean.leader.election.enable message.timestamp.type "
        "delete.retention.ms file.delete.delay.ms"
    ).split()
    props = java_properties((k, f"v{i}") for i, k in enumerate(keys))
    assert encode_as_bytes({"version": 1, "config": props}) == (
        b'{"version":1,"config":{"compression.type":"v5","file.delete.delay.ms":"v12","max.message.bytes":"v4",'
        b'"message.timestamp.type":"v10","min.insync.replicas":"v3","unclean.leader.election.enable":"v9",'
        b'"retention.bytes":"v6","delete.retention.ms":"v11","cleanup.policy":"v1","retention.ms":"v0",'
        b'"segment.bytes":"v2","segment.ms":"v7","flush.messages":"v8"}}'
    )


_JAVA_PROGRAM = """
import java.util.*;
import com.fasterxml.jackson.databind.ObjectMapper;
public class Order {
  public static void main(String[] a) throws Exception {
    ObjectMapper m = new ObjectMapper();
    Scanner sc = new Scanner(System.in);
    while (sc.hasNextLine()) {
      String[] keys = sc.nextLine().split(" ");
      Properties p = new Properties();
      HashMap<String, Integer> h = new HashMap<>();
      for (int i = 0; i < keys.length; i++) { p.setProperty(keys[i], "v" + i); h.put(keys[i], i); }
      System.out.println(m.writeValueAsString(p) + "\\t" + m.writeValueAsString(h));
    }
  }
}
"""


def test_java_collections_order_matches_a_real_jvm(tmp_path: Path) -> None:
    """For random key sets (up to 40 keys, so with resizes), Properties and HashMap serialise as a real JVM does."""
    rng = random.Random(2024)
    alphabet = string.ascii_letters + string.digits + "._-"
    key_sets = []
    for _ in range(40):
        distinct: set[str] = set()
        n = rng.randint(1, 40)
        while len(distinct) < n:
            distinct.add("".join(rng.choice(alphabet) for _ in range(rng.randint(1, 10))))
        key_sets.append(sorted(distinct, key=lambda _: rng.random()))
    source = tmp_path / "Order.java"
    source.write_text(_JAVA_PROGRAM)
    result = subprocess.run(
        ["java", "-cp", ":".join(map(str, JACKSON_JARS)), str(source)],
        input="\n".join(" ".join(k) for k in key_sets) + "\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    lines = result.stdout.splitlines()
    assert len(lines) == len(key_sets)
    for keys, line in zip(key_sets, lines):
        java_props, java_map = line.split("\t")
        assert encode_as_bytes(java_properties((k, f"v{i}") for i, k in enumerate(keys))).decode() == java_props
        assert encode_as_bytes(java_hash_map((k, i) for i, k in enumerate(keys))).decode() == java_map
        assert json.loads(java_map) == {k: i for i, k in enumerate(keys)}
