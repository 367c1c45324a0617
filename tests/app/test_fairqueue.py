"""The analysis worker's order (issue 40, finding 7: one address finishing matches quickly kept
the one worker busy for everyone): asked-for jobs before the ones queued as matches finish, the
askers in turn, each asker's newest first, a few waiting per asker."""

from __future__ import annotations

import pytest

from app.services.fairqueue import AskerFull, FairQueue


def drain(queue: FairQueue) -> list[str]:
    taken = []
    while (job := queue.take()) is not None:
        taken.append(job)
    return taken


def test_a_flood_of_finished_matches_waits_behind_what_a_player_asks_for() -> None:
    queue = FairQueue(unasked_max=100)
    for n in range(50):  # one address finishing matches as fast as it can
        queue.offer(f"flood{n}")
    queue.ask("player:ana", "mine")
    assert queue.take() == "mine"
    assert drain(queue) == [f"flood{n}" for n in range(50)]  # then the rest, oldest first


def test_askers_take_turns_and_each_gets_its_newest_request_first() -> None:
    queue = FairQueue(per_asker=4)
    for n in range(4):
        queue.ask("address:10.0.0.1", f"spam{n}")
    queue.ask("player:ana", "ana1")
    queue.ask("player:bo", "bo1")
    queue.ask("player:ana", "ana2")
    assert drain(queue) == ["spam3", "ana2", "bo1", "spam2", "ana1", "spam1", "spam0"]


def test_an_asker_has_a_few_requests_waiting_at_most() -> None:
    queue = FairQueue(per_asker=2)
    queue.ask("address:10.0.0.1", "a")
    queue.ask("address:10.0.0.1", "b")
    with pytest.raises(AskerFull):
        queue.ask("address:10.0.0.1", "c")
    queue.ask("address:10.0.0.1", "a")  # asking again for a waiting job is no new request
    queue.ask("player:ana", "c")  # another asker is not held back
    assert queue.take() == "b"
    queue.ask("address:10.0.0.1", "d")  # one was taken: room for one more
    assert set(drain(queue)) == {"a", "c", "d"}


def test_asking_for_a_queued_match_moves_it_ahead_once() -> None:
    queue = FairQueue()
    queue.offer("old")
    queue.offer("match")
    queue.ask("player:ana", "match")
    queue.ask("player:bo", "match")  # the other seat asks for the same match: one job
    assert "match" in queue and len(queue) == 2
    assert drain(queue) == ["match", "old"]


def test_the_unasked_jobs_are_bounded_oldest_dropped() -> None:
    queue = FairQueue(unasked_max=3)
    for n in range(5):
        queue.offer(f"m{n}")
    assert drain(queue) == ["m2", "m3", "m4"]  # a dropped one is analysed when asked for
