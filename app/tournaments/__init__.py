"""The rules of tournament formats (issue 46), pure: no database, no clock, no I/O. Each format
is a module of typed records and functions over them: `arena` (live pairing of whoever is free,
scores with streaks and berserk), `swiss` (rounds paired by the Dutch system, Buchholz and
Sonneborn-Berger) and `tables` (Nations table rounds seated by score, points per place). The
services in `app/services/` store their inputs and outputs; these modules only decide."""
