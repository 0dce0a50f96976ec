"""Port of core/src/main/scala/kafka/server/KafkaHealthcheck.scala (Kafka 1.0; folded into KafkaServer and
KafkaZkClient.registerBroker in 1.1 and later).

Registers this broker in ZooKeeper as the ephemeral `/brokers/ids/{id}`, with its advertised endpoints
(ports resolved to the ones actually bound, so that `port=0` listeners are found), its rack and the
JSON version of Kafka 2.8, and returns the broker epoch (the znode's creation zxid). After a ZooKeeper
session expiry the controller re-registers the broker (its RegisterBrokerAndReelect event), as in 2.8;
this class keeps the broker's registration details for it.
"""

from __future__ import annotations

import socket
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from kafka.cluster.broker import Broker
from kafka.cluster.end_point import EndPoint
from kafka.utils.logging import Logging
from kafka.zk.zk_data import BrokerInfo

if TYPE_CHECKING:
    from kafka.common.network.listener_name import ListenerName
    from kafka.zk.kafka_zk_client import KafkaZkClient


class KafkaHealthcheck(Logging):
    logger_name = "kafka.server.KafkaHealthcheck"

    def __init__(
        self,
        broker_id: int,
        advertised_endpoints: Sequence[EndPoint],
        rack: str | None,
        zk_client: KafkaZkClient,
        bound_port: Callable[[ListenerName], int],
        jmx_port: int = -1,
    ) -> None:
        self.broker_id = broker_id
        self.advertised_endpoints = list(advertised_endpoints)
        self.rack = rack
        self.zk_client = zk_client
        self.bound_port = bound_port
        self.jmx_port = jmx_port
        self.log_ident = f"[KafkaHealthcheck id={broker_id}] "
        self.broker_info: BrokerInfo | None = None
        self.broker_epoch = -1

    def create_broker_info(self) -> BrokerInfo:
        """The registration: each advertised endpoint with port 0 replaced by the listener's bound port, and an
        empty host replaced by this machine's name, as Kafka does."""
        endpoints = []
        for ep in self.advertised_endpoints:
            port = self.bound_port(ep.listener_name) if ep.port == 0 else ep.port
            host = ep.host if ep.host else socket.getfqdn()
            endpoints.append(EndPoint(host, port, ep.listener_name, ep.security_protocol))
        return BrokerInfo.create(Broker(self.broker_id, endpoints, self.rack), self.jmx_port)

    def startup(self) -> int:
        """Registers /brokers/ids/{id} and returns the broker epoch."""
        self.broker_info = self.create_broker_info()
        self.broker_epoch = self.zk_client.register_broker(self.broker_info)
        self.info(
            f"Registered broker {self.broker_id} at path {self.broker_info.path} with addresses: "
            + ", ".join(ep.connection_string for ep in self.broker_info.broker.end_points)
            + f", czxid (broker epoch): {self.broker_epoch}"
        )
        return self.broker_epoch
