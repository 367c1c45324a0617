"""Watergate Online server: a thin FastAPI layer over the rules engine."""
