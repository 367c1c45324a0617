"""Nations (2-5 players, four ages): a pure, seeded implementation of the Game protocol."""
