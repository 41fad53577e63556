"""Derived data of a batch: current standard values, derived metrics with lineage, data-quality checks."""
