"""Port of clients/src/main/java/org/apache/kafka/common/metrics/stats (Kafka 2.8): the stats a sensor records into.

# PORT: Percentiles, Histogram and Frequencies are not ported yet (nothing in the broker uses them so far); the
# deprecated aliases Sum, Count, Total and Rate.SampledTotal are left out in favour of WindowedSum, WindowedCount
# and CumulativeSum.
"""

from kafka.common.metrics.stats.avg import Avg
from kafka.common.metrics.stats.cumulative_count import CumulativeCount
from kafka.common.metrics.stats.cumulative_sum import CumulativeSum
from kafka.common.metrics.stats.max import Max
from kafka.common.metrics.stats.meter import Meter
from kafka.common.metrics.stats.min import Min
from kafka.common.metrics.stats.rate import Rate
from kafka.common.metrics.stats.sampled_stat import Sample, SampledStat
from kafka.common.metrics.stats.simple_rate import SimpleRate
from kafka.common.metrics.stats.token_bucket import TokenBucket
from kafka.common.metrics.stats.value import Value
from kafka.common.metrics.stats.windowed_count import WindowedCount
from kafka.common.metrics.stats.windowed_sum import WindowedSum

__all__ = [
    "Avg",
    "CumulativeCount",
    "CumulativeSum",
    "Max",
    "Meter",
    "Min",
    "Rate",
    "Sample",
    "SampledStat",
    "SimpleRate",
    "TokenBucket",
    "Value",
    "WindowedCount",
    "WindowedSum",
]
