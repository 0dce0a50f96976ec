"""Port of LeaderIsrAndControllerEpoch in core/src/main/scala/kafka/controller/KafkaController.scala (Kafka 2.8).

A partition's LeaderAndIsr together with the epoch of the controller that wrote it: the content of
/brokers/topics/T/partitions/P/state.

# PORT: the Scala case class sits at the end of KafkaController.scala; here it has a module of its own so that
# kafka.zk can use it without importing the controller.
"""

from __future__ import annotations

from dataclasses import dataclass

from kafka.api.leader_and_isr import LeaderAndIsr


@dataclass(frozen=True, slots=True)
class LeaderIsrAndControllerEpoch:
    leader_and_isr: LeaderAndIsr
    controller_epoch: int

    def __str__(self) -> str:
        lai = self.leader_and_isr
        isr = ",".join(str(r) for r in lai.isr)
        return (
            f"(Leader:{lai.leader},ISR:{isr},LeaderEpoch:{lai.leader_epoch},ZkVersion:{lai.zk_version},"
            f"ControllerEpoch:{self.controller_epoch})"
        )
