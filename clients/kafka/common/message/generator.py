"""Port of generator/src/main/java/org/apache/kafka/message/MessageDataGenerator.java.

Turns a MessageSpec into Python source: one class per struct (the message itself, its nested structs
and its common structs), with a reader and a writer function per distinct wire layout. Versions
with the same layout share one function. The functions are straight-line code: runs of fixed-size
fields are read and written with one precompiled `struct.Struct`, primitive arrays with one
`unpack_from`, and nothing interprets the schema at run time.

    python -m kafka.common.message.generator ProduceRequest   # prints the generated source
"""

from __future__ import annotations

import hashlib
import keyword
import marshal
import os
import re
import sys
import threading
import types
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kafka.common.message.spec import NONE_VERSIONS, SPEC_DIR, FieldSpec, MessageSpec, SpecError, Versions, load_spec

_FIXED: dict[str, tuple[str, int]] = {
    "bool": ("?", 1),
    "int8": ("b", 1),
    "int16": ("h", 2),
    "uint16": ("H", 2),
    "int32": ("i", 4),
    "uint32": ("I", 4),
    "int64": ("q", 8),
    "float64": ("d", 8),
    "uuid": ("16s", 16),
}
_INT_TYPES = frozenset(["int8", "int16", "uint16", "int32", "uint32", "int64"])
_RESERVED = frozenset(["read", "write", "write_to", "size", "to_dict", "duplicate", "unknown_tagged_fields"])


def snake_case(name: str) -> str:
    """The attribute name of a field: snake_case, with a trailing underscore where that would be a Python
    keyword or a method of Message (FetchSnapshotResponse's Size becomes size_)."""
    s = re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", name).lower()
    return s + "_" if keyword.iskeyword(s) or s in _RESERVED else s


@dataclass
class _Struct:
    name: str
    fields: list[FieldSpec]
    versions: Versions
    has_records: bool = False


class _Source:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.indent = 0

    def __call__(self, line: str) -> None:
        self.lines.append("    " * self.indent + line)

    def block(self) -> _Indent:
        return _Indent(self)


class _Indent:
    def __init__(self, src: _Source) -> None:
        self.src = src

    def __enter__(self) -> None:
        self.src.indent += 1

    def __exit__(self, *exc: object) -> None:
        self.src.indent -= 1


class MessageGenerator:
    """Generates the Python module text for one message definition."""

    def __init__(self, spec: MessageSpec) -> None:
        self.spec = spec
        self.structs: dict[str, _Struct] = {}
        self.constants: dict[str, str] = {}  # name -> expression, emitted at module top
        self._reps: dict[str, dict[int, int]] = {}
        self._collect()

    # ---- model ----------------------------------------------------------------------------------

    def _collect(self) -> None:
        spec = self.spec
        for cs in spec.common_structs:
            # A common struct may say "0+"; it only ever exists within the message's own versions.
            self.structs[cs.name] = _Struct(cs.name, cs.fields, cs.versions.intersect(spec.valid_versions))
        top = _Struct(spec.data_class_name, spec.fields, spec.valid_versions)
        self.structs[top.name] = top
        self._collect_nested(spec.fields, spec.valid_versions)
        changed = True
        while changed:  # a struct has records if any field (transitively) does
            changed = False
            for s in self.structs.values():
                if not s.has_records and any(
                    f.element_type == "records" or (f.is_struct and self.structs[f.element_type].has_records)
                    for f in s.fields
                ):
                    s.has_records = changed = True

    def _collect_nested(self, fields: list[FieldSpec], versions: Versions) -> None:
        for f in fields:
            if f.is_struct and f.fields:
                if f.element_type in self.structs:
                    raise SpecError(f"{self.spec.name}: struct {f.element_type} defined twice")
                sv = f.versions.intersect(versions)
                self.structs[f.element_type] = _Struct(f.element_type, f.fields, sv)
                self._collect_nested(f.fields, sv)

    def flexible(self, version: int) -> bool:
        return self.spec.flexible_versions.contains(version)

    def field_flexible(self, f: FieldSpec, version: int) -> bool:
        if f.flexible_versions is not None:
            return f.flexible_versions.contains(version)
        return self.flexible(version)

    # ---- defaults -------------------------------------------------------------------------------

    def default_expr(self, f: FieldSpec) -> str:
        """A Python expression for the field's default value (a fresh object for lists and structs)."""
        d = f.default
        nullable = not f.nullable_versions.empty
        if f.is_array:
            if d == "null" and nullable:
                return "None"
            return f"{self.collection_name(f)}()" if self.is_collection(f) else "[]"
        t = f.type
        if f.is_struct:
            return "None" if (d == "null" and nullable) else f"{t}()"
        if t == "bool":
            return "True" if d is True or d == "true" else "False"
        if t in _INT_TYPES:
            if d is None or d == "":
                return "0"
            return str(int(d, 0)) if isinstance(d, str) else str(int(d))
        if t == "float64":
            return repr(float(d)) if d not in (None, "") else "0.0"
        if t == "string":
            if d == "null" and nullable:
                return "None"
            return repr("" if d is None else str(d))
        if t == "uuid":
            return "ZERO_UUID"
        if t == "bytes":
            return "None" if (d == "null" and nullable) else "b''"
        if t == "records":
            return "None"
        raise SpecError(f"{self.spec.name}: no default for type {t}")

    def is_collection(self, f: FieldSpec) -> bool:
        if not (f.is_array and f.is_struct):
            return False
        return any(x.map_key for x in self.structs[f.element_type].fields)

    def collection_name(self, f: FieldSpec) -> str:
        return f.element_type + "Collection"

    # ---- module ---------------------------------------------------------------------------------

    def generate(self) -> str:
        src = _Source()
        src(f"# Generated by kafka.common.message.generator from specs/{self.spec.name}.spec. Do not edit.")
        body = _Source()
        for s in self.structs.values():
            self._gen_class(body, s)
        for s in self.structs.values():
            self._gen_functions(body, s)
        top = self.spec.data_class_name
        for s in self.structs.values():
            if s.name != top:
                body(f"{top}.{s.name} = {s.name}")
                if self._is_map_struct(s):
                    body(f"{top}.{s.name}Collection = {s.name}Collection")
        for name, expr in sorted(self.constants.items()):
            src(f"{name} = {expr}")
        src.lines.extend(body.lines)
        return "\n".join(src.lines) + "\n"

    def _is_map_struct(self, s: _Struct) -> bool:
        return any(f.map_key for f in s.fields)

    def _gen_class(self, src: _Source, s: _Struct) -> None:
        is_top = s.name == self.spec.data_class_name
        base = "ApiMessage" if (is_top and self.spec.api_key is not None) else "Message"
        names = [snake_case(f.name) for f in s.fields]
        src("")
        src(f"class {s.name}({base}):")
        with src.block():
            src(f"__slots__ = {tuple(names)!r}")
            if is_top and self.spec.api_key is not None:
                src(f"API_KEY = {self.spec.api_key}")
            lo = s.versions.lowest if not s.versions.empty else 0
            hi = s.versions.highest if not s.versions.empty else -1
            if is_top:
                lo, hi = self.spec.valid_versions.lowest, self.spec.valid_versions.highest
            src(f"LOWEST_SUPPORTED_VERSION = {lo}")
            src(f"HIGHEST_SUPPORTED_VERSION = {hi}")
            src(f"_FIELDS = {tuple(names)!r}")
            params = []
            for f, n in zip(s.fields, names):
                d = self.default_expr(f)
                params.append(f"{n}=_UNSET" if d.endswith(")") or d == "[]" else f"{n}={d}")
            src(f"def __init__(self, {', '.join(params)}):" if params else "def __init__(self):")
            with src.block():
                for f, n in zip(s.fields, names):
                    d = self.default_expr(f)
                    if d.endswith(")") or d == "[]":
                        src(f"self.{n} = {d} if {n} is _UNSET else {n}")
                    else:
                        src(f"self.{n} = {n}")
                src("self._unknown_tagged_fields = None")
        if self._is_map_struct(s):
            keys = tuple(snake_case(f.name) for f in s.fields if f.map_key)
            src("")
            src(f"class {s.name}Collection(MessageCollection):")
            with src.block():
                src(f"KEY_FIELDS = {keys!r}")

    # ---- per-version layouts --------------------------------------------------------------------

    def _layout_key(self, s: _Struct, v: int) -> tuple[Any, ...]:
        """Everything that decides the code of struct s at version v; equal keys share functions."""
        parts: list[Any] = [self.flexible(v)]
        for f in s.fields:
            tagged = f.tagged and f.tagged_versions.contains(v)
            present = f.versions.contains(v)
            parts.append(
                (
                    present,
                    tagged,
                    f.nullable_versions.contains(v),
                    self.field_flexible(f, v),
                    self._layout_key(self.structs[f.element_type], v) if (f.is_struct and present) else None,
                )
            )
        return tuple(parts)

    def _struct_versions(self, s: _Struct) -> Versions:
        return self.spec.valid_versions if s.name == self.spec.data_class_name else s.versions

    def _rep(self, s: _Struct, v: int) -> int:
        """The lowest version of s whose layout equals that of version v (the one that names the functions)."""
        cache = self._reps.setdefault(s.name, {})
        if v not in cache:
            versions = self._struct_versions(s)
            key = self._layout_key(s, v)
            for u in range(versions.lowest, v + 1):
                if u in cache and cache[u] == u and self._layout_key(s, u) == key:
                    cache[v] = u
                    break
            else:
                cache[v] = v
        return cache[v]

    def _gen_functions(self, src: _Source, s: _Struct) -> None:
        versions = self._struct_versions(s)
        if versions.empty:
            src(f"{s.name}._READERS = ()")
            src(f"{s.name}._WRITERS = ()")
            return
        readers, writers = [], []
        for v in range(versions.lowest, versions.highest + 1):
            rep = self._rep(s, v)
            if rep == v:
                self._gen_reader(src, s, v)
                self._gen_writer(src, s, v)
            readers.append(f"_read_{s.name}_{rep}")
            writers.append(f"_write_{s.name}_{rep}")
        src(f"{s.name}._READERS = ({', '.join(readers)},)")
        src(f"{s.name}._WRITERS = ({', '.join(writers)},)")
        # Nested structs are read at versions of their parent; expose the same per-version functions.
        src(f"{s.name}.LOWEST_SUPPORTED_VERSION = {versions.lowest}")
        src(f"{s.name}.HIGHEST_SUPPORTED_VERSION = {versions.highest}")

    def _struct_const(self, fmt: str) -> str:
        name = "_S_" + re.sub(r"[^A-Za-z0-9]", "_", fmt)
        self.constants[name] = f"_struct.Struct('>{fmt}')"
        return name

    # ---- reader ---------------------------------------------------------------------------------

    def _gen_reader(self, src: _Source, s: _Struct, v: int) -> None:
        src("")
        src(f"def _read_{s.name}_{v}(self, buf, pos):")
        with src.block():
            regular = [
                f for f in s.fields if f.versions.contains(v) and not (f.tagged and f.tagged_versions.contains(v))
            ]
            tagged = [f for f in s.fields if f.tagged and f.tagged_versions.contains(v)]
            absent = [f for f in s.fields if f not in regular and f not in tagged]
            run: list[FieldSpec] = []

            def flush_run() -> None:
                if not run:
                    return
                fmt = "".join(_FIXED[f.type][0] for f in run)
                size = sum(_FIXED[f.type][1] for f in run)
                const = self._struct_const(fmt)
                targets = []
                for f in run:
                    n = snake_case(f.name)
                    targets.append(f"_u_{n}" if f.type == "uuid" else f"self.{n}")
                src(f"{', '.join(targets)}, = {const}.unpack_from(buf, pos)")
                for f in run:
                    if f.type == "uuid":
                        n = snake_case(f.name)
                        src(f"self.{n} = _uuid_from_bytes(_u_{n})")
                src(f"pos += {size}")
                run.clear()

            for f in regular:
                nullable = f.nullable_versions.contains(v)
                if f.type in _FIXED:
                    run.append(f)
                    continue
                flush_run()
                self._read_value(src, f, v, f"self.{snake_case(f.name)}", nullable)
            flush_run()
            for f in absent:
                src(f"self.{snake_case(f.name)} = {self.default_expr(f)}")
            src("self._unknown_tagged_fields = None")
            if self.flexible(v):
                for f in tagged:
                    src(f"self.{snake_case(f.name)} = {self.default_expr(f)}")
                src("_ntags, pos = _read_uvarint(buf, pos)")
                src("for _ in range(_ntags):")
                with src.block():
                    src("_tag, pos = _read_uvarint(buf, pos)")
                    src("_tsize, pos = _read_uvarint(buf, pos)")
                    src("if pos + _tsize > len(buf):")
                    with src.block():
                        src("raise _SchemaException(f'tagged field {_tag} of size {_tsize} exceeds the buffer')")
                    first = True
                    for f in sorted(tagged, key=lambda x: x.tag or 0):
                        src(f"{'if' if first else 'elif'} _tag == {f.tag}:")
                        first = False
                        with src.block():
                            self._read_value(src, f, v, f"self.{snake_case(f.name)}", f.nullable_versions.contains(v))
                    if not first:
                        src("else:")
                        src.indent += 1
                    src("if self._unknown_tagged_fields is None:")
                    with src.block():
                        src("self._unknown_tagged_fields = []")
                    src("self._unknown_tagged_fields.append((_tag, bytes(buf[pos:pos + _tsize])))")
                    src("pos += _tsize")
                    if not first:
                        src.indent -= 1
            src("return pos")

    def _read_value(self, src: _Source, f: FieldSpec, v: int, target: str, nullable: bool) -> None:
        flex = self.field_flexible(f, v)
        t = f.type
        if f.is_array:
            what = repr(f.name)
            reader = "_read_compact_array_length" if flex else "_read_array_length"
            src(f"_n, pos = {reader}(buf, pos, {nullable}, {what})")
            src("if _n < 0:")
            with src.block():
                src(f"{target} = None")
            src("else:")
            with src.block():
                et = f.element_type
                if et in _FIXED and et != "uuid":
                    code, size = _FIXED[et]
                    src(f"{target} = list(_struct.unpack_from('>%d{code}' % _n, buf, pos))")
                    src(f"pos += _n * {size}")
                else:
                    coll = self.collection_name(f) if self.is_collection(f) else "list"
                    src(f"_a = {coll}()")
                    src("for _ in range(_n):")
                    with src.block():
                        if f.is_struct:
                            src(f"_o = {et}.__new__({et})")
                            src(f"pos = {self._reader_name(et, v)}(_o, buf, pos)")
                            src("_a.append(_o)")
                        else:
                            self._read_scalar(src, f, et, v, "_e", False, flex)
                            src("_a.append(_e)")
                    src(f"{target} = _a")
            return
        self._read_scalar(src, f, t, v, target, nullable, flex)

    def _read_scalar(self, src: _Source, f: FieldSpec, t: str, v: int, target: str, nullable: bool, flex: bool) -> None:
        if t in _FIXED:
            code, size = _FIXED[t]
            if t == "uuid":
                src(f"{target}, pos = _read_uuid(buf, pos)")
            else:
                const = self._struct_const(code)
                src(f"{target}, = {const}.unpack_from(buf, pos)")
                src(f"pos += {size}")
            return
        if t == "string":
            fn = (
                ("_read_compact_nullable_string" if nullable else "_read_compact_string")
                if flex
                else ("_read_nullable_string" if nullable else "_read_string")
            )
            src(f"{target}, pos = {fn}(buf, pos)")
            return
        if t == "bytes":
            fn = (
                ("_read_compact_nullable_bytes" if nullable else "_read_compact_bytes")
                if flex
                else ("_read_nullable_bytes" if nullable else "_read_bytes")
            )
            src(f"{target}, pos = {fn}(buf, pos)")
            return
        if t == "records":
            src(f"{target}, pos = _read_records(buf, pos, {flex}, {nullable})")
            return
        # a struct
        if nullable:
            src("if _S_b.unpack_from(buf, pos)[0] < 0:")
            self.constants["_S_b"] = "_struct.Struct('>b')"
            with src.block():
                src(f"{target} = None")
                src("pos += 1")
            src("else:")
            with src.block():
                src("pos += 1")
                src(f"_o = {t}.__new__({t})")
                src(f"pos = {self._reader_name(t, v)}(_o, buf, pos)")
                src(f"{target} = _o")
            return
        src(f"_o = {t}.__new__({t})")
        src(f"pos = {self._reader_name(t, v)}(_o, buf, pos)")
        src(f"{target} = _o")

    def _reader_name(self, struct_name: str, v: int) -> str:
        return f"_read_{struct_name}_{self._rep(self.structs[struct_name], v)}"

    def _writer_name(self, struct_name: str, v: int) -> str:
        return f"_write_{struct_name}_{self._rep(self.structs[struct_name], v)}"

    # ---- writer ---------------------------------------------------------------------------------

    def _gen_writer(self, src: _Source, s: _Struct, v: int) -> None:
        src("")
        src(f"def _write_{s.name}_{v}(self, w):")
        with src.block():
            src("b = w.buf")
            regular = [
                f for f in s.fields if f.versions.contains(v) and not (f.tagged and f.tagged_versions.contains(v))
            ]
            tagged = [f for f in s.fields if f.tagged and f.tagged_versions.contains(v)]
            absent = [f for f in s.fields if f not in regular and f not in tagged]
            for f in absent:
                if f.ignorable:
                    continue
                n = snake_case(f.name)
                src(f"if {self._differs_from_default(f, 'self.' + n)}:")
                with src.block():
                    src(f"raise _UnsupportedVersionException('Attempted to write a non-default {n} at version {v}')")
            run: list[FieldSpec] = []

            def flush_run() -> None:
                if not run:
                    return
                fmt = "".join(_FIXED[f.type][0] for f in run)
                const = self._struct_const(fmt)
                args = []
                for f in run:
                    n = snake_case(f.name)
                    args.append(f"self.{n}.to_bytes()" if f.type == "uuid" else f"self.{n}")
                src(f"b += {const}.pack({', '.join(args)})")
                run.clear()

            for f in regular:
                if f.type in _FIXED:
                    run.append(f)
                    continue
                flush_run()
                self._write_value(src, f, v, f"self.{snake_case(f.name)}", f.nullable_versions.contains(v), "w", "b")
            flush_run()
            if self.flexible(v):
                if not tagged:
                    src("if self._unknown_tagged_fields:")
                    with src.block():
                        src("_write_tagged(b, [], self._unknown_tagged_fields)")
                    src("else:")
                    with src.block():
                        src("b.append(0)")
                else:
                    src("_tags = []")
                    for f in sorted(tagged, key=lambda x: x.tag or 0):
                        n = snake_case(f.name)
                        src(f"if {self._differs_from_default(f, 'self.' + n)}:")
                        with src.block():
                            src("_tw = _SendBuilder()")
                            src("_tb = _tw.buf")
                            self._write_value(src, f, v, f"self.{n}", f.nullable_versions.contains(v), "_tw", "_tb")
                            src(f"_tags.append(({f.tag}, _tw.to_bytes()))")
                    src("_write_tagged(b, _tags, self._unknown_tagged_fields)")

    def _differs_from_default(self, f: FieldSpec, expr: str) -> str:
        d = self.default_expr(f)
        if d == "None":
            return f"{expr} is not None"
        if f.is_array:
            return f"{expr} is None or len({expr}) > 0"
        struct = self.structs.get(f.type) if f.is_struct else None
        if struct is not None and all(not (sf.is_array or sf.is_struct) for sf in struct.fields):
            # What `!= T()` decides (Message.__eq__ field by field), without making a default T and calling
            # __eq__: a writer checks every struct-typed tagged field of every object it writes.
            checks = [f"type(_v := {expr}) is not {f.type}"]
            checks += [f"_v.{snake_case(sf.name)} != {self.default_expr(sf)}" for sf in struct.fields]
            return "(" + " or ".join(checks) + " or bool(_v._unknown_tagged_fields))"
        return f"{expr} != {d}"

    def _write_value(self, src: _Source, f: FieldSpec, v: int, expr: str, nullable: bool, w: str, b: str) -> None:
        flex = self.field_flexible(f, v)
        n = snake_case(f.name)
        if f.is_array:
            src(f"_a = {expr}")
            src("if _a is None:")
            with src.block():
                if nullable:
                    src(f"{b}.append(0)" if flex else f"{b} += b'\\xff\\xff\\xff\\xff'")
                else:
                    src(f"raise _null_error({n!r}, {v})")
            src("else:")
            with src.block():
                if flex:
                    src(f"_write_uvarint({b}, len(_a) + 1)")
                else:
                    src(f"{b} += _S_i.pack(len(_a))")
                    self.constants["_S_i"] = "_struct.Struct('>i')"
                et = f.element_type
                if et in _FIXED and et != "uuid":
                    code, _ = _FIXED[et]
                    src(f"{b} += _struct.pack('>%d{code}' % len(_a), *_a)")
                else:
                    src("for _e in _a:")
                    with src.block():
                        self._write_scalar(src, f, et, v, "_e", False, flex, w, b)
            return
        self._write_scalar(src, f, f.type, v, expr, nullable, flex, w, b)

    def _write_scalar(
        self, src: _Source, f: FieldSpec, t: str, v: int, expr: str, nullable: bool, flex: bool, w: str, b: str
    ) -> None:
        n = snake_case(f.name)
        if t in _FIXED:
            code, _ = _FIXED[t]
            if t == "uuid":
                src(f"{b} += {expr}.to_bytes()")
            else:
                src(f"{b} += {self._struct_const(code)}.pack({expr})")
            return
        if t in ("string", "bytes"):
            if not nullable:
                src(f"if {expr} is None:")
                with src.block():
                    src(f"raise _null_error({n!r}, {v})")
            if t == "string":
                fn = "_write_compact_string" if flex else ("_write_nullable_string" if nullable else "_write_string")
            else:
                fn = "_write_compact_bytes" if flex else "_write_bytes"
            src(f"{fn}({b}, {expr})")
            return
        if t == "records":
            if not nullable:
                src(f"if {expr} is None:")
                with src.block():
                    src(f"raise _null_error({n!r}, {v})")
            src(f"_write_records({w}, {expr}, {flex})")
            src(f"{b} = {w}.buf")
            return
        # a struct
        writer = self._writer_name(t, v)
        if nullable:
            src(f"if {expr} is None:")
            with src.block():
                src(f"{b} += b'\\xff'")
            src("else:")
            with src.block():
                src(f"{b} += b'\\x01'")
                src(f"{writer}({expr}, {w})")
                if self.structs[t].has_records:
                    src(f"{b} = {w}.buf")
            return
        src(f"{writer}({expr}, {w})")
        if self.structs[t].has_records:
            src(f"{b} = {w}.buf")


_PRELUDE = "kafka.common.message._runtime"
_lock = threading.RLock()
_modules: dict[str, types.ModuleType] = {}


def generate_source(name: str) -> str:
    """The generated source for specs/<name>.spec."""
    return MessageGenerator(load_spec(name)).generate()


def load_module(name: str) -> types.ModuleType:
    """Generates, compiles and caches the module for specs/<name>.spec; thread-safe."""
    with _lock:
        module = _modules.get(name)
        if module is not None:
            return module
        from kafka.common.message import _runtime

        source, code = _compiled(name)
        module_name = f"kafka.common.message.generated.{name}Data"
        module = types.ModuleType(module_name)
        module.__dict__.update(_runtime.namespace())
        module.__dict__["__source__"] = source
        sys.modules[module_name] = module
        exec(code, module.__dict__)
        _modules[name] = module
        return module


_CACHE_DIR = Path(__file__).with_name("__pycache__") / "generated"
_generator_digest: str | None = None


def _compiled(name: str) -> tuple[str, types.CodeType]:
    """The generated source and its code object, from the on-disk cache when the spec, the generator and the
    Python version are those it was made with (like a .pyc); generated and cached otherwise. A cache that
    cannot be read or written is simply not used."""
    global _generator_digest
    spec_path = SPEC_DIR / f"{name}.spec"
    if _generator_digest is None:
        h = hashlib.sha256(sys.version.encode())
        for module_file in ("generator.py", "_runtime.py", "spec.py"):
            h.update(Path(__file__).with_name(module_file).read_bytes())
        _generator_digest = h.hexdigest()
    key = hashlib.sha256(_generator_digest.encode() + spec_path.read_bytes()).hexdigest()[:24]
    cache_file = _CACHE_DIR / f"{name}.{key}.bin"
    try:
        source, code = marshal.loads(cache_file.read_bytes())
        return source, code
    except (OSError, ValueError, EOFError, TypeError):
        pass
    source = generate_source(name)
    code = compile(source, f"<generated {name}Data>", "exec")
    try:
        _CACHE_DIR.mkdir(parents=True, exist_ok=True)
        temp = cache_file.with_suffix(f".{os.getpid()}.tmp")
        temp.write_bytes(marshal.dumps((source, code)))
        os.replace(temp, cache_file)
    except OSError:
        pass
    return source, code


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python -m kafka.common.message.generator MessageName", file=sys.stderr)
        return 2
    sys.stdout.write(generate_source(argv[1]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))


__all__ = ["NONE_VERSIONS", "MessageGenerator", "generate_source", "load_module", "snake_case"]
