"""Port of core/src/main/scala/kafka/server/BrokerMetadataCheckpoint.scala (Kafka 2.8).

`meta.properties` in every log dir: in ZooKeeper mode, version 0 with `broker.id` and `cluster.id`
(ZkMetaProperties). The broker reads it from all its log dirs at start-up, refuses to start when the
dirs disagree, and writes it to every dir that lacks it.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass

from kafka.common.errors import InconsistentBrokerMetadataException, KafkaException
from kafka.common.utils.utils import atomic_move_with_fallback, load_props, store_props
from kafka.utils.logging import Logging

CLUSTER_ID_KEY = "cluster.id"
BROKER_ID_KEY = "broker.id"
NODE_ID_KEY = "node.id"
VERSION_KEY = "version"


class RawMetaProperties:
    """The properties of a meta.properties file, with typed accessors."""

    def __init__(self, props: dict[str, str] | None = None) -> None:
        self.props: dict[str, str] = dict(props or {})

    @property
    def cluster_id(self) -> str | None:
        return self.props.get(CLUSTER_ID_KEY)

    @cluster_id.setter
    def cluster_id(self, value: str) -> None:
        self.props[CLUSTER_ID_KEY] = value

    @property
    def broker_id(self) -> int | None:
        return self._int_value(BROKER_ID_KEY)

    @broker_id.setter
    def broker_id(self, value: int) -> None:
        self.props[BROKER_ID_KEY] = str(value)

    @property
    def version(self) -> int:
        v = self._int_value(VERSION_KEY)
        return 0 if v is None else v

    @version.setter
    def version(self, value: int) -> None:
        self.props[VERSION_KEY] = str(value)

    def require_version(self, expected: int) -> None:
        if self.version != expected:
            raise RuntimeError(f"Expected version {expected}, but got version {self.version}")

    def _int_value(self, key: str) -> int | None:
        raw = self.props.get(key)
        if raw is None:
            return None
        try:
            return int(raw)
        except ValueError as e:
            raise RuntimeError(f"Failed to parse {key} property as an int: {e}") from e

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RawMetaProperties) and other.props == self.props

    def __repr__(self) -> str:
        return "{" + ", ".join(f"{k}={self.props[k]}" for k in sorted(self.props)) + "}"


@dataclass(frozen=True, slots=True)
class ZkMetaProperties:
    """meta.properties of a ZooKeeper-mode broker (version 0)."""

    cluster_id: str
    broker_id: int

    def to_properties(self) -> dict[str, str]:
        # The order Kafka's files show: cluster.id, version, broker.id.
        return {CLUSTER_ID_KEY: self.cluster_id, VERSION_KEY: "0", BROKER_ID_KEY: str(self.broker_id)}

    def __str__(self) -> str:
        return f"ZkMetaProperties(brokerId={self.broker_id}, clusterId={self.cluster_id})"


class BrokerMetadataCheckpoint(Logging):
    """Reads and atomically writes one meta.properties file."""

    logger_name = "kafka.server.BrokerMetadataCheckpoint"

    def __init__(self, file: str) -> None:
        self.file = file
        self._lock = threading.Lock()

    def write(self, properties: dict[str, str]) -> None:
        with self._lock:
            temp = self.file + ".tmp"
            try:
                with open(temp, "w", encoding="latin-1") as f:
                    f.write(store_props(properties, ""))
                    f.flush()
                    os.fsync(f.fileno())
                atomic_move_with_fallback(temp, self.file)
            except OSError as e:
                self.error("Failed to write meta.properties due to", e)
                raise

    def read(self) -> dict[str, str] | None:
        try:
            os.remove(self.file + ".tmp")
        except FileNotFoundError:
            pass
        path = os.path.abspath(self.file)
        with self._lock:
            try:
                return load_props(path)
            except FileNotFoundError:
                self.warn(f"No meta.properties file under dir {path}")
                return None
            except OSError as e:
                self.error(f"Failed to read meta.properties file under dir {path}", e)
                raise

    @staticmethod
    def get_broker_metadata_and_offline_dirs(
        log_dirs: list[str], ignore_missing: bool
    ) -> tuple[RawMetaProperties, list[str]]:
        """The one meta.properties all readable log dirs agree on, and the dirs that could not be read."""
        if not log_dirs:
            raise ValueError("Must have at least one log dir to read meta.properties")
        found: dict[str, dict[str, str]] = {}
        offline: list[str] = []
        for log_dir in log_dirs:
            checkpoint = BrokerMetadataCheckpoint(os.path.join(log_dir, "meta.properties"))
            try:
                props = checkpoint.read()
            except OSError:
                offline.append(log_dir)
                continue
            if props is not None:
                found[log_dir] = props
            elif not ignore_missing:
                raise KafkaException(
                    f"No `meta.properties` found in {log_dir} "
                    "(have you run `kafka-storage.sh` to format the directory?)"
                )
        if not found:
            return RawMetaProperties(), offline
        distinct = {tuple(sorted(p.items())) for p in found.values()}
        if len(distinct) > 1:
            lines = "".join(f"- {d} -> {RawMetaProperties(p)}\n" for d, p in found.items())
            raise InconsistentBrokerMetadataException(
                "BrokerMetadata is not consistent across log.dirs. This could happen if multiple brokers shared a "
                "log directory (log.dirs) or partial data was manually copied from another broker. Found:\n" + lines
            )
        return RawMetaProperties(next(iter(found.values()))), offline
