"""Readers: the notebook API, queries under limits, compare, growth, resolve, export, the company report."""
