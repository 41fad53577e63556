"""Loading: items, runs and batches in one transaction, one module per document kind, the kind registry, the way in."""
