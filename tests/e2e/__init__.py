"""End-to-end tests: a real server and headless Chromium."""
