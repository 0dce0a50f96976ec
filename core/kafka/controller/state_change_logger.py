"""Port of core/src/main/scala/kafka/controller/StateChangeLogger.scala (Kafka 2.8).

The `state.change.logger` log, which records every leader, ISR and replica state decision. Its log ident says
who decided: `[Controller id=0 epoch=3] ` on the controller, `[Broker id=0] ` on brokers (ReplicaManager and
MetadataCache log here too).
"""

from __future__ import annotations

from kafka.utils.logging import Logging


class StateChangeLogger(Logging):
    """A `Logging` on `state.change.logger` whose ident names the controller (and its epoch) or the broker."""

    logger_name = "state.change.logger"

    def __init__(self, broker_id: int, in_controller_context: bool, controller_epoch: int | None) -> None:
        if controller_epoch is not None and not in_controller_context:
            raise ValueError("Controller epoch should only be defined if inControllerContext is true")
        self.broker_id = broker_id
        self.in_controller_context = in_controller_context
        self.controller_epoch = controller_epoch
        prefix = "Controller" if in_controller_context else "Broker"
        epoch_entry = "" if controller_epoch is None else f" epoch={controller_epoch}"
        self.log_ident = f"[{prefix} id={broker_id}{epoch_entry}] "

    def with_controller_epoch(self, controller_epoch: int) -> StateChangeLogger:
        return StateChangeLogger(self.broker_id, self.in_controller_context, controller_epoch)

    def message_with_prefix(self, message: str) -> str:
        return self._msg(message)
