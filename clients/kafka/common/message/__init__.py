"""Generated message data classes: `from kafka.common.message import ProduceRequestData`.

Each `XxxData` class is generated from `specs/Xxx.spec` on first use (see generator.py) and cached.
"""

from __future__ import annotations

from typing import Any

from kafka.common.message.api_message_type import ApiMessageType, ListenerType


def __getattr__(name: str) -> Any:
    if name.endswith("Data") and name[0].isupper():
        from kafka.common.message.generator import load_module
        from kafka.common.message.spec import SPEC_DIR

        spec_name = name[: -len("Data")]
        if (SPEC_DIR / f"{spec_name}.spec").exists():
            return getattr(load_module(spec_name), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["ApiMessageType", "ListenerType"]
