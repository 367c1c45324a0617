"""Use cases: one module per family; each runs one transaction, then publishes a change."""
