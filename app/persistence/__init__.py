"""Storage: the database, its rows, every SQL statement, and the cache of match states."""
