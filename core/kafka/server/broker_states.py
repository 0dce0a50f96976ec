"""Port of metadata/src/main/java/org/apache/kafka/metadata/BrokerState.java (Kafka 2.8).

The broker's life-cycle state, reported by the `kafka.server:type=KafkaServer,name=BrokerState` gauge.

# PORT: in Kafka 2.8 this is the Java enum org.apache.kafka.metadata.BrokerState; the design keeps the broker's
# states in core/kafka/server/broker_states.py, where the Scala BrokerStates.scala of older releases lived. The
# values are Java's; Java's `value()` is the enum's `.value`. The older Scala names (RunningAsBroker, ...) are
# kept as aliases of the same values.
"""

from __future__ import annotations

from enum import IntEnum


class BrokerState(IntEnum):
    NOT_RUNNING = 0
    STARTING = 1
    RECOVERY = 2
    RUNNING = 3
    PENDING_CONTROLLED_SHUTDOWN = 6
    SHUTTING_DOWN = 7
    UNKNOWN = 127

    # Names of the same states in Kafka's BrokerStates.scala (before 2.8).
    RECOVERING_FROM_UNCLEAN_SHUTDOWN = 2
    RUNNING_AS_BROKER = 3
    BROKER_SHUTTING_DOWN = 7

    @classmethod
    def from_value(cls, value: int) -> BrokerState:
        """The state with this value; UNKNOWN for a value no state has."""
        try:
            return cls(value)
        except ValueError:
            return cls.UNKNOWN
