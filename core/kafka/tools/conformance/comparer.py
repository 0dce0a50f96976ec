"""Normalised trees compared path by path: `responses[0].partitions[2].error_code: 0 != 3`.

Structs are compared field by field, arrays element by element; an array the definition makes a map (a
KeyedList) is compared by key, so that the order a broker lists topics or brokers in does not matter, and
its elements are named by their position on the recorded side. An element only one side has is reported
as `<absent>` on the other.

    kafka-run-class.sh kafka.tools.conformance.Comparer RECORDED REPLAYED   # two captures of one session

Not a port of a Kafka class.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from kafka.tools.conformance.message_tree import KeyedList, Symbol

ABSENT = "<absent>"
_MAX_SHOWN = 80


@dataclass(frozen=True, slots=True)
class Difference:
    path: str
    recorded: Any
    replayed: Any

    def __str__(self) -> str:
        return f"{self.path}: {show(self.recorded)} != {show(self.replayed)}"


def show(value: Any) -> str:
    """A value as a difference line shows it: short values in full, long ones cut in the middle."""
    if isinstance(value, Symbol) or value == ABSENT:
        text = str(value)
    elif isinstance(value, str) and value.startswith("<") and value.endswith(">"):
        text = value
    else:
        text = repr(value) if not isinstance(value, (dict, list)) else compact(value)
    if len(text) > _MAX_SHOWN:
        half = _MAX_SHOWN // 2 - 2
        text = f"{text[:half]}...{text[-half:]} ({len(text)} chars)"
    return text


def compact(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {compact(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(compact(v) for v in value) + "]"
    return str(value) if isinstance(value, Symbol) else repr(value)


def compare(
    recorded: Any, replayed: Any, path: str = "", ignored: Callable[[str], bool] | None = None
) -> list[Difference]:
    """The differences between two normalised trees; paths for which `ignored` is true are left out."""
    out: list[Difference] = []
    _compare(recorded, replayed, path, out, ignored or (lambda _: False))
    return out


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def _compare(a: Any, b: Any, path: str, out: list[Difference], ignored: Callable[[str], bool]) -> None:
    if path and ignored(path):
        return
    if isinstance(a, dict) and isinstance(b, dict):
        for name in a:
            _compare(a[name], b.get(name, ABSENT) if name in b else ABSENT, _join(path, name), out, ignored)
        for name in b:
            if name not in a:
                _compare(ABSENT, b[name], _join(path, name), out, ignored)
        return
    if isinstance(a, KeyedList) and isinstance(b, KeyedList):
        _compare_keyed(a, b, path, out, ignored)
        return
    if isinstance(a, list) and isinstance(b, list):
        for i in range(max(len(a), len(b))):
            _compare(
                a[i] if i < len(a) else ABSENT,
                b[i] if i < len(b) else ABSENT,
                f"{path}[{i}]",
                out,
                ignored,
            )
        return
    if a == b and isinstance(a, bool) == isinstance(b, bool):
        return
    out.append(Difference(path, a, b))


def _key(element: Any, keys: tuple[str, ...]) -> tuple[str, ...]:
    if not isinstance(element, dict):
        return (repr(element),)
    return tuple(str(element.get(k)) for k in keys)


def _compare_keyed(
    a: KeyedList, b: KeyedList, path: str, out: list[Difference], ignored: Callable[[str], bool]
) -> None:
    keys = a.keys
    remaining: dict[tuple[str, ...], list[int]] = {}
    for j, e in enumerate(b):
        remaining.setdefault(_key(e, keys), []).append(j)
    for i, e in enumerate(a):
        candidates = remaining.get(_key(e, keys))
        if candidates:
            _compare(e, b[candidates.pop(0)], f"{path}[{i}]", out, ignored)
        else:
            _compare(e, ABSENT, f"{path}[{i}]", out, ignored)
    extra = sorted(j for js in remaining.values() for j in js)
    for n, j in enumerate(extra):
        _compare(ABSENT, b[j], f"{path}[{len(a) + n}]", out, ignored)


def main(argv: Sequence[str] | None = None) -> int:
    from kafka.tools.conformance.capture import CaptureFormatError, read_capture
    from kafka.tools.conformance.decoder import DecodeError, decode_response
    from kafka.tools.conformance.normaliser import Normaliser

    parser = argparse.ArgumentParser(
        prog="kafka-run-class.sh kafka.tools.conformance.Comparer",
        description="Compares the responses of two captures of the same session (say, one recorded against Kafka "
        "and one against this broker), exchange by exchange in recorded order, after normalisation.",
    )
    parser.add_argument("recorded")
    parser.add_argument("replayed")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    try:
        left, right = read_capture(args.recorded), read_capture(args.replayed)
    except (OSError, CaptureFormatError, ValueError) as e:
        print(f"Error: {e}", file=sys.stderr)
        return 1
    a_ex = [e for e in left.exchanges() if e.request is not None]
    b_ex = [e for e in right.exchanges() if e.request is not None]
    na, nb = Normaliser(), Normaliser()
    differences = 0
    if len(a_ex) != len(b_ex):
        print(
            f"the captures have {len(a_ex)} and {len(b_ex)} requests; comparing the first {min(len(a_ex), len(b_ex))}"
        )
        differences += 1
    for ea, eb in zip(a_ex, b_ex):
        if (ea.api_key, ea.api_version) != (eb.api_key, eb.api_version):
            print(f"{ea.describe()}: the other capture has {eb.describe()} here")
            differences += 1
            continue
        if ea.response is None or eb.response is None or ea.api_key is None or ea.api_version is None:
            if (ea.response is None) != (eb.response is None):
                print(f"{ea.describe()}: answered in only one capture")
                differences += 1
            continue
        try:
            ra = decode_response(ea.response.data, ea.api_key, ea.api_version)
            rb = decode_response(eb.response.data, ea.api_key, ea.api_version)
        except DecodeError as e:
            print(f"{ea.describe()}: {e}")
            differences += 1
            continue
        ta = na.response(ra.api_key, ra.api_version, ra.body)
        tb = nb.response(rb.api_key, rb.api_version, rb.body)
        for d in compare(ta, tb):
            print(f"{ea.describe()}: {d}")
            differences += 1
    print(f"{differences} difference(s) in {min(len(a_ex), len(b_ex))} exchanges")
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
