"""Programs that use Watergate Online's public API from outside (issue 45): they import nothing
of the server or the engine, only httpx, as a stranger's program would."""
