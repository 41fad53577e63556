"""Former home of the metrics code, kept as an import path for callers written against it.

The code lives in modules named for what they hold: :mod:`warehouse.metrics_refresh` (derived
metrics with lineage), :mod:`warehouse.compare`, :mod:`warehouse.growth`, :mod:`warehouse.checks`
and :mod:`warehouse.vocabulary` (metric and concept names, aliases, errors).
"""

from warehouse.checks import check_names, run_check, run_checks
from warehouse.compare import MISALIGNED_DAYS, compare
from warehouse.growth import growth
from warehouse.metrics_refresh import refresh_metrics
from warehouse.vocabulary import MetricsError, UnknownMetricError, metric_names

__all__ = ["MISALIGNED_DAYS", "MetricsError", "UnknownMetricError", "check_names", "compare", "growth",
           "metric_names", "refresh_metrics", "run_check", "run_checks"]
