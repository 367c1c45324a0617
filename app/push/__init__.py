"""Live pushes: sockets per match, the fan-out of typed changes, presence, and frames."""
