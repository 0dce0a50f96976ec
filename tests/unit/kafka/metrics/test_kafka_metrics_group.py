"""Tests of kafka.metrics.kafka_metrics_group (KafkaMetricsGroup.scala's names)."""

from __future__ import annotations

from kafka.common.utils.sanitizer import jmx_sanitize
from kafka.metrics.kafka_metrics_group import KafkaMetricsGroup, explicit_metric_name
from kafka.metrics.kafka_yammer_metrics import KafkaYammerMetrics
from kafka.metrics.yammer import Meter
from kafka.utils.time_unit import TimeUnit


class ReplicaManager(KafkaMetricsGroup):
    pass


ReplicaManager.__module__ = "kafka.server.replica_manager"


class Renamed(KafkaMetricsGroup):
    metrics_group = "kafka.network"
    metrics_type_name = "RequestMetrics"


def test_metric_name_from_module_and_class() -> None:
    """Group is the module's package and type the class name, as Kafka derives them from the JVM class."""
    name = ReplicaManager().metric_name("LeaderCount")
    assert name.mbean_name == "kafka.server:type=ReplicaManager,name=LeaderCount"
    assert (name.group, name.type, name.name, name.scope) == ("kafka.server", "ReplicaManager", "LeaderCount", None)


def test_metric_name_with_tags_in_order_and_scope_sorted() -> None:
    """Tags follow the name in the order given, empty values are dropped, the scope is sorted with dots replaced."""
    name = ReplicaManager().metric_name("Size", {"topic": "a.b", "partition": "0", "empty": ""})
    assert name.mbean_name == "kafka.server:type=ReplicaManager,name=Size,topic=a.b,partition=0"
    assert name.scope == "partition.0.topic.a_b"


def test_overridden_group_and_type() -> None:
    """A class may set Kafka's group and type where they differ from the Python module and class."""
    name = Renamed().metric_name("RequestsPerSec", {"request": "Produce", "version": "9"})
    assert name.mbean_name == "kafka.network:type=RequestMetrics,name=RequestsPerSec,request=Produce,version=9"


def test_tag_values_are_jmx_quoted() -> None:
    """Tag values with characters JMX does not allow are quoted as ObjectName.quote does."""
    assert jmx_sanitize("client-1.x %20") == "client-1.x %20"
    assert jmx_sanitize('a:b*"c') == '"a:b\\*\\"c"'
    assert explicit_metric_name("g", "T", "", {"user": "a,b"}).mbean_name == 'g:type=T,user="a,b"'


def test_new_and_remove_metric_in_default_registry() -> None:
    """new_meter registers in the default registry (the same meter twice) and remove_metric takes it out."""
    group = ReplicaManager()
    registry = KafkaYammerMetrics.default_registry()
    meter = group.new_meter("TestMeterPerSec", "events", TimeUnit.SECONDS, {"topic": "t"})
    assert isinstance(meter, Meter)
    assert group.new_meter("TestMeterPerSec", "events", TimeUnit.SECONDS, {"topic": "t"}) is meter
    name = group.metric_name("TestMeterPerSec", {"topic": "t"})
    assert registry.all_metrics()[name] is meter
    gauge = group.new_gauge("TestGauge", lambda: 7)
    assert gauge.value() == 7
    group.remove_metric("TestMeterPerSec", {"topic": "t"})
    group.remove_metric("TestGauge")
    assert name not in registry.all_metrics()
    assert group.metric_name("TestGauge") not in registry.all_metrics()
