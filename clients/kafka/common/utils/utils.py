"""Port of clients/src/main/java/org/apache/kafka/common/utils/Utils.java (Kafka 2.8), the parts a broker uses.

Java properties files (`load_props`, `store_props` in java.util.Properties' format, so that files
written by Kafka and by us are interchangeable), atomic file moves, and small helpers.

# PORT: also the home of what Kafka gets from the JVM itself and both the clients and the tools need: an
exception's Java class name and Throwable.toString/getMessage (how the clients word an ExecutionException and
how every tool prints a failure), and Integer.parseInt/Long.parseLong with NumberFormatException. They are
here, in the clients, so that the clients and the core share one copy.
"""

from __future__ import annotations

import os
import re
import shutil
import struct
import time
from collections.abc import Iterable, Mapping

_UINT32_LE = struct.Struct("<I")

_ESCAPES = {"t": "\t", "n": "\n", "r": "\r", "f": "\f"}


def _logical_lines(text: str) -> list[str]:
    """Joins lines ending in an odd number of backslashes with the next one, dropping the next's indent."""
    out: list[str] = []
    pending = ""
    for raw in text.splitlines():
        line = raw.lstrip() if pending else raw
        if not pending and (not line.strip() or line.lstrip()[:1] in ("#", "!")):
            continue
        trailing = len(line) - len(line.rstrip("\\"))
        if trailing % 2 == 1:
            pending += line[:-1]
            continue
        out.append(pending + line)
        pending = ""
    if pending:
        out.append(pending)
    return out


def _unescape(s: str) -> str:
    out = []
    i = 0
    while i < len(s):
        c = s[i]
        if c == "\\" and i + 1 < len(s):
            n = s[i + 1]
            if n == "u" and i + 5 < len(s) + 0 and len(s) >= i + 6:
                try:
                    out.append(chr(int(s[i + 2 : i + 6], 16)))
                    i += 6
                    continue
                except ValueError:
                    pass
            out.append(_ESCAPES.get(n, n))
            i += 2
            continue
        out.append(c)
        i += 1
    return "".join(out)


def parse_props(text: str) -> dict[str, str]:
    """Parses java.util.Properties text: `key=value`, `key:value` or `key value`, # and ! comments,
    backslash line continuations and escapes."""
    props: dict[str, str] = {}
    for line in _logical_lines(text):
        line = line.lstrip()
        i = 0
        key_chars = []
        while i < len(line):
            c = line[i]
            if c == "\\" and i + 1 < len(line):
                key_chars.append(line[i : i + 2])
                i += 2
                continue
            if c in "=: \t\f":
                break
            key_chars.append(c)
            i += 1
        rest = line[i:]
        rest = rest.lstrip(" \t\f")
        if rest[:1] in ("=", ":"):
            rest = rest[1:].lstrip(" \t\f")
        props[_unescape("".join(key_chars))] = _unescape(rest)
    return props


def load_props(filename: str) -> dict[str, str]:
    """Reads a properties file (ISO-8859-1 as Java reads it, UTF-8 accepted too)."""
    with open(filename, "rb") as f:
        data = f.read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    return parse_props(text)


def _escape(s: str, is_key: bool) -> str:
    out = []
    for i, c in enumerate(s):
        if c == " " and (is_key or i == 0):
            out.append("\\ ")
        elif c in "=:#!":
            out.append("\\" + c)
        elif c == "\\":
            out.append("\\\\")
        elif c == "\t":
            out.append("\\t")
        elif c == "\n":
            out.append("\\n")
        elif c == "\r":
            out.append("\\r")
        elif c == "\f":
            out.append("\\f")
        else:
            out.append(c)
    return "".join(out)


def store_props(props: Mapping[str, str], comments: str | None = None) -> str:
    """The text java.util.Properties.store writes: optional comment line, a date line, then key=value."""
    lines = []
    if comments is not None:
        lines.append("#" + comments)
    lines.append("#" + time.strftime("%a %b %d %H:%M:%S %Z %Y"))
    for k, v in props.items():
        lines.append(f"{_escape(k, True)}={_escape(v, False)}")
    return "\n".join(lines) + "\n"


def atomic_move_with_fallback(source: str | os.PathLike[str], target: str | os.PathLike[str]) -> None:
    """Renames source over target atomically (os.replace) and fsyncs the target's directory so that the
    rename survives a crash. Only when the atomic rename fails (e.g. EXDEV across devices) is a plain,
    non-atomic move tried; if that fails too, its error is raised with the first as its cause."""
    try:
        os.replace(source, target)
    except OSError as outer:
        try:
            shutil.move(os.fspath(source), os.fspath(target))
        except OSError as inner:
            raise inner from outer
    flush_dir(os.path.dirname(os.path.abspath(target)))


def flush_dir(path: str) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


# ---- hashing (the default partitioner's) ----------------------------------------------------------

_MURMUR2_SEED = 0x9747B28C
_MURMUR2_M = 0x5BD1E995
_UINT32 = 0xFFFFFFFF


def murmur2(data: bytes | bytearray | memoryview) -> int:
    """The 32-bit MurmurHash2 of `data` with Kafka's seed, as the signed int Java's Utils.murmur2 returns.

    The producer's default partitioner hashes serialized keys with it, so the value must match Java's
    and librdkafka's `murmur2_random` bit for bit: the arithmetic is done on unsigned 32-bit values
    (Java's int overflow) and the result is reinterpreted as signed at the end.
    """
    length = len(data)
    m = _MURMUR2_M
    h = (_MURMUR2_SEED ^ length) & _UINT32
    tail = length & ~3
    for (k,) in _UINT32_LE.iter_unpack(memoryview(data)[:tail]):
        k = (k * m) & _UINT32
        k ^= k >> 24
        k = (k * m) & _UINT32
        h = ((h * m) & _UINT32) ^ k
    remaining = length & 3
    if remaining:
        if remaining == 3:
            h ^= data[tail + 2] << 16
        if remaining >= 2:
            h ^= data[tail + 1] << 8
        h ^= data[tail]
        h = (h * m) & _UINT32
    h ^= h >> 13
    h = (h * m) & _UINT32
    h ^= h >> 15
    return h - 0x100000000 if h & 0x80000000 else h


def to_positive(number: int) -> int:
    """Clears the sign bit of a 32-bit int (Java's Utils.toPositive): not abs(), so that MIN_VALUE maps to 0."""
    return number & 0x7FFFFFFF


# ---- classes named in configurations ----------------------------------------------------------------

_JAVA_PACKAGE_PREFIX = "org.apache.kafka."


def _snake_case(class_name: str) -> str:
    # "UUIDSerializer" -> "uuid_serializer", "ByteArraySerializer" -> "byte_array_serializer"
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", class_name).lower()


def load_class(name: str) -> type:
    """The class a configuration names (Java's Utils.loadClass).

    # PORT: besides Python names (`package.module.Class` or `package.module:Class`), Kafka's Java class
    names are accepted and mapped to this port's module of the same class, so that properties files
    written for Java clients (`key.serializer=org.apache.kafka.common.serialization.StringSerializer`)
    work unchanged.
    """
    import importlib

    name = name.strip()
    if ":" in name:
        module_name, _, class_name = name.partition(":")
    else:
        module_name, _, class_name = name.rpartition(".")
        if name.startswith(_JAVA_PACKAGE_PREFIX):
            java_package = module_name[len(_JAVA_PACKAGE_PREFIX) :]
            module_name = f"kafka.{java_package}.{_snake_case(class_name)}"
    if not module_name or not class_name:
        raise ClassNotFoundError(name)
    try:
        module = importlib.import_module(module_name)
        cls = getattr(module, class_name)
    except (ImportError, AttributeError):
        raise ClassNotFoundError(name) from None
    if not isinstance(cls, type):
        raise ClassNotFoundError(name)
    return cls


class ClassNotFoundError(ImportError):
    """No class of that name (Java's ClassNotFoundException)."""

    JAVA_CLASS_NAME = "java.lang.ClassNotFoundException"

    def __init__(self, name: str) -> None:
        super().__init__(f"Class {name} cannot be found")
        self.class_name = name


# ---- Java's int arithmetic -----------------------------------------------------------------------------

_INT_MIN = -(2**31)


def java_string_hash_code(s: str) -> int:
    """Java's `String.hashCode()`: the 31-polynomial over the UTF-16 code units, as a signed int32 (the group
    coordinator's partition choice, and Java's hash-based iteration orders, depend on it)."""
    if s.isascii():
        units: Iterable[int] = s.encode("ascii")
    else:
        data = s.encode("utf-16-be", "surrogatepass")
        units = struct.unpack(f">{len(data) // 2}H", data)
    h = 0
    for unit in units:
        h = (31 * h + unit) & 0xFFFFFFFF
    return h - 0x100000000 if h & 0x80000000 else h


def abs_int32(n: int) -> int:
    """Kafka's `Utils.abs` for an int32: the absolute value, with Integer.MIN_VALUE mapped to 0."""
    return 0 if n == _INT_MIN else abs(n)


# ---- exceptions as the JVM names and prints them ----------------------------------------------------------------


class IllegalArgumentException(ValueError):
    """java.lang.IllegalArgumentException."""

    JAVA_CLASS_NAME = "java.lang.IllegalArgumentException"


class NumberFormatException(IllegalArgumentException):
    """java.lang.NumberFormatException: a string that is not a number of the type asked for."""

    JAVA_CLASS_NAME = "java.lang.NumberFormatException"


# Python's built-in exceptions as the Java ones they stand for in this port; looked up along the class's MRO,
# so the most specific one wins (TimeoutError before OSError, NotImplementedError before RuntimeError).
_JAVA_BUILTINS: dict[type[BaseException], str] = {
    NotImplementedError: "java.lang.UnsupportedOperationException",
    RuntimeError: "java.lang.RuntimeException",
    ValueError: "java.lang.IllegalArgumentException",
    KeyError: "java.util.NoSuchElementException",
    TimeoutError: "java.util.concurrent.TimeoutException",
    FileNotFoundError: "java.nio.file.NoSuchFileException",
    PermissionError: "java.nio.file.AccessDeniedException",
    OSError: "java.io.IOException",
}


def java_class_name(exc: BaseException) -> str:
    """The Java class Kafka would name for `exc`, so that messages and tool output read as Java's:
    - a class that says it (a `JAVA_CLASS_NAME` attribute, inherited) has that name;
    - a NotImplementedError is java.lang.UnsupportedOperationException;
    - this port's client exceptions are under org.apache (`org.apache.kafka.common.errors.TimeoutException`);
    - the core's classes are named as Scala's, by their package (`kafka.log.CorruptIndexException`);
    - Python's built-in errors are their Java counterparts (ValueError is IllegalArgumentException);
    - anything else keeps its Python name."""
    cls = type(exc)
    declared = getattr(cls, "JAVA_CLASS_NAME", None)
    if isinstance(declared, str):
        return declared
    if isinstance(exc, NotImplementedError):
        return _JAVA_BUILTINS[NotImplementedError]
    module = cls.__module__
    if module == "kafka.common.errors":  # the package holds the errors themselves
        if cls.__name__ == "KafkaException":
            return "org.apache.kafka.common.KafkaException"
        return f"org.apache.kafka.common.errors.{cls.__name__}"
    if module.startswith(("kafka.common.", "kafka.clients.")):
        return f"org.apache.{module.rsplit('.', 1)[0]}.{cls.__name__}"
    if module.startswith("kafka."):  # the core's Scala classes: kafka.log.CorruptIndexException
        return f"{module.rsplit('.', 1)[0]}.{cls.__name__}"
    for klass in cls.__mro__:
        if klass in _JAVA_BUILTINS:
            return _JAVA_BUILTINS[klass]
    return cls.__name__


def _java_message(exc: BaseException) -> str:
    """The message Throwable.getMessage would return, "" for none."""
    if isinstance(exc, ClassNotFoundError):
        return exc.class_name
    if isinstance(exc, OSError) and exc.filename is not None:
        if isinstance(exc, FileNotFoundError):
            return str(exc.filename)  # NoSuchFileException's message is the path
        if exc.strerror:
            return f"{exc.filename} ({exc.strerror})"
    if isinstance(exc, KeyError) and exc.args:
        return str(exc.args[0])
    return str(exc)


def java_to_string(exc: BaseException) -> str:
    """Throwable.toString: the Java class name, then `: message` when there is one."""
    message = _java_message(exc)
    name = java_class_name(exc)
    return f"{name}: {message}" if message else name


def java_message(exc: BaseException) -> str:
    """Throwable.getMessage as Java's string concatenation shows it: the message, or "null" when there is none."""
    return _java_message(exc) or "null"


# ---- Integer.parseInt and Long.parseLong ---------------------------------------------------------------------


def _parse_integral(text: str, bits: int) -> int:
    digits = text[1:] if text[:1] in ("+", "-") else text
    if digits and digits.isdecimal():  # Character.digit: any Unicode decimal digit
        value = int(text)
        if -(2 ** (bits - 1)) <= value < 2 ** (bits - 1):
            return value
    raise NumberFormatException(f'For input string: "{text}"')


def parse_int(text: str) -> int:
    """Integer.parseInt: an optional sign and decimal digits within 32 bits; NumberFormatException otherwise."""
    return _parse_integral(text, 32)


def parse_long(text: str) -> int:
    """Long.parseLong: an optional sign and decimal digits within 64 bits; NumberFormatException otherwise."""
    return _parse_integral(text, 64)


def java_divide(numerator: float, denominator: float) -> float:
    """Java's double division: x/0 is +-Infinity and 0/0 (or NaN/0) is NaN, where Python raises."""
    if denominator == 0:
        if numerator == 0 or numerator != numerator:
            return float("nan")
        return float("inf") if numerator > 0 else float("-inf")
    return numerator / denominator
