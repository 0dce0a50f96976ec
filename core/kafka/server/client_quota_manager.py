"""Port of core/src/main/scala/kafka/server/ClientQuotaManager.scala (Kafka 2.8).

Per-client rate quotas of one kind (produce bytes, fetch bytes; the request-time and controller-mutation managers
derive from it). Each client is measured by a sensor named after its quota's metric tags (`user`, `client-id`),
whose metric (`byte-rate` of group `Produce`/`Fetch`) is a Rate over `quota.window.num` windows of
`quota.window.size.seconds` bounded by the client's quota. Recording a value that takes the rate past the bound
gives the delay that brings it back (QuotaUtils), which KafkaApis puts in the response's `throttle_time_ms`;
`throttle` then mutes the client's connection for that long once the response has gone out (KIP-219): a
ThrottledChannel waits in the delay queue that the `ThrottledChannelReaper-<type>` thread empties.

Quotas belong to entities: a user (the session's principal), a client id, or a user with a client id, each with
`<default>` variants. The quota of a connection is the most specific one set, in this order:
/config/users/<user>/clients/<client-id>, /config/users/<user>/clients/<default>, /config/users/<user>,
/config/users/<default>/clients/<client-id>, /config/users/<default>/clients/<default>, /config/users/<default>,
/config/clients/<client-id>, /config/clients/<default>, and last the static default (`quota.producer.default` /
`quota.consumer.default`, deprecated). While only one kind of entity has quotas, clients share the sensor of the
entity that bounds them (all connections of a user under a user quota), so a quota bounds what they do together.

# PORT: Kafka's pluggable `client.quota.callback.class` (org.apache.kafka.server.quota.ClientQuotaCallback) is not
# ported: the DefaultQuotaCallback below is the only one, and the broker refuses to start with the key set
# (quota_factory.instantiate).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from kafka.common.metrics.internals.metrics_utils import TimeUnit
from kafka.common.metrics.metric_config import MetricConfig
from kafka.common.metrics.quota import Quota
from kafka.common.metrics.quota_violation_exception import QuotaViolationException
from kafka.common.metrics.stats.avg import Avg
from kafka.common.metrics.stats.cumulative_sum import CumulativeSum
from kafka.common.metrics.stats.rate import Rate
from kafka.common.security.auth.kafka_principal import KafkaPrincipal
from kafka.common.utils.sanitizer import desanitize, sanitize
from kafka.server.replication_quota_manager import QuotaType
from kafka.server.sensor_access import SensorAccess
from kafka.server.throttled_channel import ThrottledChannel, ThrottledChannelQueue
from kafka.utils import quota_utils
from kafka.utils.logging import Logging
from kafka.utils.read_write_lock import ReentrantReadWriteLock
from kafka.utils.shutdownable_thread import ShutdownableThread
from kafka.zk.zk_data import ConfigEntityName

if TYPE_CHECKING:
    from kafka.common.metric_name import MetricName
    from kafka.common.metrics.metrics import Metrics
    from kafka.common.metrics.sensor import Sensor
    from kafka.common.utils.time import Time
    from kafka.network.request_channel import Request, Response, Session

__all__ = [
    "ClientIdEntity",
    "ClientQuotaManager",
    "ClientQuotaManagerConfig",
    "ClientSensors",
    "DefaultClientIdEntity",
    "DefaultTags",
    "DefaultUserEntity",
    "KafkaQuotaEntity",
    "QuotaTypes",
    "UserEntity",
]

_LONG_MAX: Final = 2**63 - 1


@dataclass(frozen=True, slots=True)
class ClientSensors:
    """A client's quota metric tags, its quota sensor and its throttle-time sensor."""

    metric_tags: dict[str, str]
    quota_sensor: Sensor
    throttle_time_sensor: Sensor


@dataclass(frozen=True, slots=True)
class ClientQuotaManagerConfig:
    """The static default quota (unbounded unless the deprecated `quota.*.default` keys set one) and the sampling:
    `num_quota_samples` windows of `quota_window_size_seconds` (10 whole windows and the current one)."""

    quota_default: int = _LONG_MAX
    num_quota_samples: int = 11
    quota_window_size_seconds: int = 1


class QuotaTypes:
    """Bits of the kinds of entities that have (or had, since start-up) quotas."""

    NO_QUOTAS: Final = 0
    CLIENT_ID_QUOTA_ENABLED: Final = 1
    USER_QUOTA_ENABLED: Final = 2
    USER_CLIENT_ID_QUOTA_ENABLED: Final = 4
    CUSTOM_QUOTAS: Final = 8


class DefaultTags:
    USER: Final = "user"
    CLIENT_ID: Final = "client-id"


# ---- quota entities (ClientQuotaEntity.ConfigEntity in Kafka) --------------------------------------------


@dataclass(frozen=True, slots=True)
class UserEntity:
    sanitized_user: str

    @property
    def name(self) -> str:
        return desanitize(self.sanitized_user)

    def __str__(self) -> str:
        return f"user {self.sanitized_user}"


@dataclass(frozen=True, slots=True)
class ClientIdEntity:
    client_id: str

    @property
    def name(self) -> str:
        return self.client_id

    def __str__(self) -> str:
        return f"client-id {self.client_id}"


@dataclass(frozen=True, slots=True)
class _DefaultUserEntity:
    @property
    def name(self) -> str:
        return ConfigEntityName.DEFAULT

    def __str__(self) -> str:
        return "default user"


@dataclass(frozen=True, slots=True)
class _DefaultClientIdEntity:
    @property
    def name(self) -> str:
        return ConfigEntityName.DEFAULT

    def __str__(self) -> str:
        return "default client-id"


DefaultUserEntity: Final = _DefaultUserEntity()
DefaultClientIdEntity: Final = _DefaultClientIdEntity()

BaseUserEntity = UserEntity | _DefaultUserEntity
BaseClientIdEntity = ClientIdEntity | _DefaultClientIdEntity


@dataclass(frozen=True, slots=True)
class KafkaQuotaEntity:
    """A user, a client id, or both (either may be a default)."""

    user_entity: BaseUserEntity | None
    client_id_entity: BaseClientIdEntity | None

    @property
    def sanitized_user(self) -> str:
        match self.user_entity:
            case UserEntity(sanitized_user=user):
                return user
            case _DefaultUserEntity():
                return ConfigEntityName.DEFAULT
        return ""

    @property
    def client_id(self) -> str:
        return self.client_id_entity.name if self.client_id_entity is not None else ""

    def __str__(self) -> str:
        user = str(self.user_entity) if self.user_entity is not None else ""
        client_id = str(self.client_id_entity) if self.client_id_entity is not None else ""
        return f"{user} {client_id}".strip()


DEFAULT_CLIENT_ID_QUOTA_ENTITY: Final = KafkaQuotaEntity(None, DefaultClientIdEntity)
DEFAULT_USER_QUOTA_ENTITY: Final = KafkaQuotaEntity(DefaultUserEntity, None)
DEFAULT_USER_CLIENT_ID_QUOTA_ENTITY: Final = KafkaQuotaEntity(DefaultUserEntity, DefaultClientIdEntity)


class ClientQuotaManager(Logging):
    """The quotas of one QuotaType for every client (see the module docstring)."""

    logger_name = "kafka.server.ClientQuotaManager"

    #: Sensors of clients idle for an hour are removed.
    INACTIVE_SENSOR_EXPIRATION_TIME_SECONDS: Final = 3600

    def __init__(
        self,
        config: ClientQuotaManagerConfig,
        metrics: Metrics,
        quota_type: QuotaType,
        time: Time,
        thread_name_prefix: str = "",
    ) -> None:
        self.config = config
        self.metrics = metrics
        self.quota_type = quota_type
        self.time = time
        # Write lock: quota updates; read lock: sensor look-ups (SensorAccess).
        self._lock = ReentrantReadWriteLock()
        self._sensor_accessor = SensorAccess(self._lock, metrics)
        self.quota_callback = DefaultQuotaCallback(self)
        self._static_config_client_id_quota = Quota.upper_bound(float(config.quota_default))
        self.quota_types_enabled = (
            QuotaTypes.NO_QUOTAS if config.quota_default == _LONG_MAX else QuotaTypes.CLIENT_ID_QUOTA_ENABLED
        )
        self._delay_queue_sensor = metrics.sensor(f"{quota_type}-delayQueue")
        self._delay_queue_sensor.add(
            metrics.metric_name("queue-size", str(quota_type), "Tracks the size of the delay queue"), CumulativeSum()
        )
        self._delay_queue = ThrottledChannelQueue()
        self.throttled_channel_reaper = ThrottledChannelReaper(self, self._delay_queue, thread_name_prefix)
        self.throttled_channel_reaper.start()

    @property
    def quotas_enabled(self) -> bool:
        """Whether any quota of this type was ever set since start-up (sensors are only kept then)."""
        return self.quota_types_enabled != QuotaTypes.NO_QUOTAS

    def maybe_record_and_get_throttle_time_ms(self, request: Request, value: float, time_ms: int) -> int:
        """record_and_get_throttle_time_ms for the request's client, or 0 without quotas."""
        return self.maybe_record_and_get_throttle_time_ms_for(
            request.session, _client_id_of(request.header.client_id), value, time_ms
        )

    def maybe_record_and_get_throttle_time_ms_for(
        self, session: Session, client_id: str, value: float, time_ms: int
    ) -> int:
        if self.quotas_enabled:
            return self.record_and_get_throttle_time_ms(session, client_id, value, time_ms)
        return 0

    def record_and_get_throttle_time_ms(self, session: Session, client_id: str, value: float, time_ms: int) -> int:
        """Records `value` for the client at `time_ms`; the throttle time (ms) if its quota is now violated, else 0."""
        client_sensors = self.get_or_create_quota_sensors(session, client_id)
        try:
            client_sensors.quota_sensor.record(value, time_ms, True)
            return 0
        except QuotaViolationException as e:
            throttle_time_ms = int(self.throttle_time(e, time_ms))
            self.debug(
                f"Quota violated for sensor ({client_sensors.quota_sensor.name()}). Delay time: ({throttle_time_ms})"
            )
            return throttle_time_ms

    def record_no_throttle(self, session: Session, client_id: str, value: float) -> None:
        """Records `value` without checking the quota (it counts for the client's next request)."""
        client_sensors = self.get_or_create_quota_sensors(session, client_id)
        client_sensors.quota_sensor.record(value, self.time.milliseconds(), False)

    def unrecord_quota_sensor(self, request: Request, value: float, time_ms: int) -> None:
        """Takes back a recorded `value` (a throttled fetch answers with no data, so its bytes do not count)."""
        client_sensors = self.get_or_create_quota_sensors(request.session, _client_id_of(request.header.client_id))
        client_sensors.quota_sensor.record(-value, time_ms, False)

    def get_max_value_in_quota_window(self, session: Session, client_id: str) -> float:
        """The most that one request may take without being throttled even after an idle window: the quota times
        the whole windows (a consumer's fetch is capped to it, so that it can always make progress)."""
        if self.quotas_enabled:
            client_sensors = self.get_or_create_quota_sensors(session, client_id)
            limit = self.quota_callback.quota_limit(client_sensors.metric_tags)
            if limit is not None:
                return limit * (self.config.num_quota_samples - 1) * self.config.quota_window_size_seconds
        return float("inf")

    def throttle(
        self, request: Request, throttle_time_ms: int, channel_throttling_callback: Callable[[Response], None]
    ) -> None:
        """Mutes the request's connection for `throttle_time_ms` once its response is out (nothing if 0)."""
        if throttle_time_ms > 0:
            client_sensors = self.get_or_create_quota_sensors(
                request.session, _client_id_of(request.header_for_logging_or_throttling().client_id)
            )
            client_sensors.throttle_time_sensor.record(throttle_time_ms)
            throttled_channel = ThrottledChannel(request, self.time, throttle_time_ms, channel_throttling_callback)
            self._delay_queue.add(throttled_channel)
            self._delay_queue_sensor.record()
            self.debug(
                f"Channel throttled for sensor ({client_sensors.quota_sensor.name()}). Delay time: ({throttle_time_ms})"
            )

    def quota(self, user: str, client_id: str) -> Quota:
        """The quota of (not sanitized) `user` with `client_id` (for tests: it looks through every level)."""
        return self.quota_for_principal(KafkaPrincipal(KafkaPrincipal.USER_TYPE, user), client_id)

    def quota_for_principal(self, user_principal: KafkaPrincipal, client_id: str) -> Quota:
        metric_tags = self.quota_callback.quota_metric_tags_for(user_principal, client_id)
        return Quota.upper_bound(self._quota_limit(metric_tags))

    def _quota_limit(self, metric_tags: Mapping[str, str]) -> float:
        limit = self.quota_callback.quota_limit(metric_tags)
        return float(_LONG_MAX) if limit is None else limit

    def throttle_time(self, e: QuotaViolationException, time_ms: int) -> int:
        """The delay that brings the violated rate back under its bound (QuotaUtils.throttle_time)."""
        return quota_utils.throttle_time(e, time_ms)

    def get_or_create_quota_sensors(self, session: Session, client_id: str) -> ClientSensors:
        """The client's quota and throttle-time sensors, made on first use."""
        metric_tags = self.quota_callback.quota_metric_tags(session.sanitized_user, client_id)
        return ClientSensors(
            metric_tags,
            self._sensor_accessor.get_or_create(
                self._get_quota_sensor_name(metric_tags),
                ClientQuotaManager.INACTIVE_SENSOR_EXPIRATION_TIME_SECONDS,
                lambda sensor: self.register_quota_metrics(metric_tags, sensor),
            ),
            self._sensor_accessor.get_or_create(
                self._get_throttle_time_sensor_name(metric_tags),
                ClientQuotaManager.INACTIVE_SENSOR_EXPIRATION_TIME_SECONDS,
                lambda sensor: sensor.add(self._throttle_metric_name(metric_tags), Avg()),
            ),
        )

    def register_quota_metrics(self, metric_tags: Mapping[str, str], sensor: Sensor) -> None:
        sensor.add(self.client_quota_metric_name(metric_tags), Rate(), self.get_quota_metric_config(metric_tags))

    @staticmethod
    def _metric_tags_to_sensor_suffix(metric_tags: Mapping[str, str]) -> str:
        return ":".join(metric_tags.values())

    def _get_throttle_time_sensor_name(self, metric_tags: Mapping[str, str]) -> str:
        return f"{self.quota_type}ThrottleTime-{self._metric_tags_to_sensor_suffix(metric_tags)}"

    def _get_quota_sensor_name(self, metric_tags: Mapping[str, str]) -> str:
        return f"{self.quota_type}-{self._metric_tags_to_sensor_suffix(metric_tags)}"

    def get_quota_metric_config(self, metric_tags: Mapping[str, str]) -> MetricConfig:
        return self._quota_metric_config(self._quota_limit(metric_tags))

    def _quota_metric_config(self, quota_limit: float) -> MetricConfig:
        config = MetricConfig(quota=Quota(quota_limit, True), samples=self.config.num_quota_samples)
        return config.time_window(self.config.quota_window_size_seconds, TimeUnit.SECONDS)

    def get_or_create_sensor(self, sensor_name: str, metric_name: MetricName) -> Sensor:
        return self._sensor_accessor.get_or_create(
            sensor_name,
            ClientQuotaManager.INACTIVE_SENSOR_EXPIRATION_TIME_SECONDS,
            lambda sensor: sensor.add(metric_name, Rate()),
        )

    def update_quota(
        self,
        sanitized_user: str | None,
        client_id: str | None,
        sanitized_client_id: str | None,
        quota: Quota | None,
    ) -> None:
        """Sets (or with `quota` None removes) the quota of a user, a client id, both, or one of their defaults,
        and applies it to the sensors that exist."""
        with self._lock.write_lock:
            user_entity: BaseUserEntity | None = None
            if sanitized_user is not None:
                user_entity = (
                    DefaultUserEntity if sanitized_user == ConfigEntityName.DEFAULT else UserEntity(sanitized_user)
                )
            client_id_entity: BaseClientIdEntity | None = None
            if sanitized_client_id is not None:
                if sanitized_client_id == ConfigEntityName.DEFAULT:
                    client_id_entity = DefaultClientIdEntity
                else:
                    if client_id is None:
                        raise RuntimeError("Client-id not provided")
                    client_id_entity = ClientIdEntity(client_id)
            quota_entity = KafkaQuotaEntity(user_entity, client_id_entity)

            if user_entity is not None:
                if client_id_entity is not None:
                    self.quota_types_enabled |= QuotaTypes.USER_CLIENT_ID_QUOTA_ENABLED
                else:
                    self.quota_types_enabled |= QuotaTypes.USER_QUOTA_ENABLED
            elif client_id_entity is not None:
                self.quota_types_enabled |= QuotaTypes.CLIENT_ID_QUOTA_ENABLED

            if quota is not None:
                self.quota_callback.update_quota(quota_entity, quota.bound())
            else:
                self.quota_callback.remove_quota(quota_entity)
            # A default may bound many clients: then every quota metric is looked at.
            is_default = user_entity is DefaultUserEntity or client_id_entity is DefaultClientIdEntity
            self.update_quota_metric_configs(None if is_default else quota_entity)

    def update_quota_metric_configs(self, updated_quota_entity: KafkaQuotaEntity | None = None) -> None:
        """Gives the existing quota metrics their (new) bounds: only the updated entity's while a single kind of
        entity has quotas, else every one."""
        all_metrics = self.metrics.metrics()
        single_update = (
            self.quota_types_enabled
            in (
                QuotaTypes.NO_QUOTAS,
                QuotaTypes.CLIENT_ID_QUOTA_ENABLED,
                QuotaTypes.USER_QUOTA_ENABLED,
                QuotaTypes.USER_CLIENT_ID_QUOTA_ENABLED,
            )
            and updated_quota_entity is not None
        )
        if single_update:
            assert updated_quota_entity is not None
            metric_tags = {
                DefaultTags.USER: updated_quota_entity.sanitized_user,
                DefaultTags.CLIENT_ID: updated_quota_entity.client_id,
            }
            metric = all_metrics.get(self.client_quota_metric_name(metric_tags))
            if metric is not None:
                new_quota = self.quota_callback.quota_limit(metric_tags)
                if new_quota is not None:
                    self.info(
                        f"Sensor for {updated_quota_entity} already exists. Changing quota to {new_quota} in "
                        "MetricConfig"
                    )
                    metric.config = self._quota_metric_config(new_quota)
        else:
            quota_metric_name = self.client_quota_metric_name({})
            for metric_name, metric in all_metrics.items():
                if metric_name.name == quota_metric_name.name and metric_name.group == quota_metric_name.group:
                    metric_tags = metric_name.tags
                    new_quota = self.quota_callback.quota_limit(metric_tags)
                    if new_quota is not None:
                        current = metric.config.quota
                        if current is None or new_quota != current.bound():
                            self.info(
                                f"Sensor for quota-id {_scala_map(metric_tags)} already exists. Setting quota to "
                                f"{new_quota} in MetricConfig"
                            )
                            metric.config = self._quota_metric_config(new_quota)

    def client_quota_metric_name(self, quota_metric_tags: Mapping[str, str]) -> MetricName:
        """The name of the quota metric of a client (used to make it and to find it when its quota changes)."""
        return self.metrics.metric_name(
            "byte-rate", str(self.quota_type), "Tracking byte-rate per user/client-id", dict(quota_metric_tags)
        )

    def _throttle_metric_name(self, quota_metric_tags: Mapping[str, str]) -> MetricName:
        return self.metrics.metric_name(
            "throttle-time",
            str(self.quota_type),
            "Tracking average throttle-time per user/client-id",
            dict(quota_metric_tags),
        )

    def shutdown(self) -> None:
        self.throttled_channel_reaper.shutdown()


class ThrottledChannelReaper(ShutdownableThread):
    """`{prefix}ThrottledChannelReaper-{type}`: ends the throttle of each channel whose delay is over."""

    def __init__(self, manager: ClientQuotaManager, delay_queue: ThrottledChannelQueue, prefix: str) -> None:
        super().__init__(f"{prefix}ThrottledChannelReaper-{manager.quota_type}", is_interruptible=False)
        self._manager = manager
        self._delay_queue = delay_queue

    def initiate_shutdown(self) -> bool:
        initiated = super().initiate_shutdown()
        self._delay_queue.wakeup()
        return initiated

    def do_work(self) -> None:
        throttled_channel = self._delay_queue.poll(1000)
        if throttled_channel is not None:
            self._manager._delay_queue_sensor.record(-1)
            throttled_channel.notify_throttling_done()


class DefaultQuotaCallback:
    """Kafka's DefaultQuotaCallback: the quotas of the entities in ZooKeeper, with Kafka's precedence."""

    def __init__(self, manager: ClientQuotaManager) -> None:
        self._manager = manager
        self._overridden_quotas: dict[KafkaQuotaEntity, Quota] = {}
        self._lock = threading.Lock()

    def _get(self, entity: KafkaQuotaEntity) -> Quota | None:
        return self._overridden_quotas.get(entity)

    def quota_metric_tags_for(self, principal: KafkaPrincipal, client_id: str) -> dict[str, str]:
        return self.quota_metric_tags(sanitize(principal.name), client_id)

    def quota_limit(self, metric_tags: Mapping[str, str]) -> float | None:
        """The bound for the client with these metric tags, None if it has none."""
        sanitized_user = metric_tags.get(DefaultTags.USER)
        client_id = metric_tags.get(DefaultTags.CLIENT_ID)
        quota: Quota | None = None
        if sanitized_user is not None and client_id is not None:
            user_entity = UserEntity(sanitized_user)
            client_id_entity = ClientIdEntity(client_id)
            if sanitized_user and client_id:
                quota = (
                    self._get(KafkaQuotaEntity(user_entity, client_id_entity))
                    or self._get(KafkaQuotaEntity(user_entity, DefaultClientIdEntity))
                    or self._get(KafkaQuotaEntity(DefaultUserEntity, client_id_entity))
                    or self._get(DEFAULT_USER_CLIENT_ID_QUOTA_ENTITY)
                )
            elif sanitized_user:
                quota = self._get(KafkaQuotaEntity(user_entity, None)) or self._get(DEFAULT_USER_QUOTA_ENTITY)
            elif client_id:
                quota = (
                    self._get(KafkaQuotaEntity(None, client_id_entity))
                    or self._get(DEFAULT_CLIENT_ID_QUOTA_ENTITY)
                    or self._manager._static_config_client_id_quota
                )
        return None if quota is None else quota.bound()

    def update_quota(self, entity: KafkaQuotaEntity, new_value: float) -> None:
        self._manager.info(f"Changing {_client_quota_type(self._manager.quota_type)} quota for {entity} to {new_value}")
        with self._lock:
            self._overridden_quotas[entity] = Quota(new_value, True)

    def remove_quota(self, entity: KafkaQuotaEntity) -> None:
        self._manager.info(f"Removing {_client_quota_type(self._manager.quota_type)} quota for {entity}")
        with self._lock:
            self._overridden_quotas.pop(entity, None)

    def quota_metric_tags(self, sanitized_user: str, client_id: str) -> dict[str, str]:
        """The tags (and so the sensor) a client is measured under: those of the entity whose quota applies."""
        enabled = self._manager.quota_types_enabled
        if enabled in (QuotaTypes.NO_QUOTAS, QuotaTypes.CLIENT_ID_QUOTA_ENABLED):
            user_tag, client_id_tag = "", client_id
        elif enabled == QuotaTypes.USER_QUOTA_ENABLED:
            user_tag, client_id_tag = sanitized_user, ""
        elif enabled == QuotaTypes.USER_CLIENT_ID_QUOTA_ENABLED:
            user_tag, client_id_tag = sanitized_user, client_id
        else:
            quotas = self._overridden_quotas
            user_entity = UserEntity(sanitized_user)
            client_id_entity = ClientIdEntity(client_id)
            if (
                KafkaQuotaEntity(user_entity, client_id_entity) in quotas
                or KafkaQuotaEntity(user_entity, DefaultClientIdEntity) in quotas
            ):
                user_tag, client_id_tag = sanitized_user, client_id
            elif KafkaQuotaEntity(user_entity, None) in quotas:
                user_tag, client_id_tag = sanitized_user, ""
            elif (
                KafkaQuotaEntity(DefaultUserEntity, client_id_entity) in quotas
                or DEFAULT_USER_CLIENT_ID_QUOTA_ENTITY in quotas
            ):
                user_tag, client_id_tag = sanitized_user, client_id
            elif DEFAULT_USER_QUOTA_ENTITY in quotas:
                user_tag, client_id_tag = sanitized_user, ""
            else:
                user_tag, client_id_tag = "", client_id
        return {DefaultTags.USER: user_tag, DefaultTags.CLIENT_ID: client_id_tag}


def _client_quota_type(quota_type: QuotaType) -> str:
    """ClientQuotaType's name (QuotaType.toClientQuotaType)."""
    mapping = {
        QuotaType.FETCH: "FETCH",
        QuotaType.PRODUCE: "PRODUCE",
        QuotaType.REQUEST: "REQUEST",
        QuotaType.CONTROLLER_MUTATION: "CONTROLLER_MUTATION",
    }
    name = mapping.get(quota_type)
    if name is None:
        raise ValueError(f"Not a client quota type: {quota_type}")
    return name


def _client_id_of(client_id: str | None) -> str:
    """A request header's client id (null from some clients) as the quotas see it: Kafka's `null` would end up in
    metric tags as the empty string."""
    return "" if client_id is None else client_id


def _scala_map(tags: Mapping[str, str]) -> str:
    return "{" + ", ".join(f"{k}={v}" for k, v in tags.items()) + "}"
