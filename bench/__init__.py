"""Benchmarks: programs that print `name value` lines."""
