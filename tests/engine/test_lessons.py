"""Tutorial lessons (contract v1.1 Tutorials): each lesson's stored path is legal from its deal
and shows every rule topic it promises; the topic watcher sees each kind of moment it is told
to look for, and only then."""

from __future__ import annotations

import pytest

from engine.core.lessons import Lesson, LessonPath, Moment, Teachable, Topic, TopicWatcher
from engine.registry import AnyGame, game_ids, get_game

LESSONS = [
    (g, lesson_id)
    for g in game_ids()
    if isinstance(game := get_game(g), Teachable)
    for lesson_id in game.lessons()
]


def test_watergate_teaches_both_seats() -> None:
    game = get_game("watergate")
    assert isinstance(game, Teachable)
    assert {lesson.seat for lesson in game.lessons().values()} == set(game.seats)


def test_nations_teaches_one_nation_against_the_computer() -> None:
    game = get_game("nations")
    assert isinstance(game, Teachable)
    assert [(x.id, x.seat) for x in game.lessons().values()] == [("p1", "p1")]
    # the lesson's deal is a two-player match at the default levels: no other table offers it
    bigger = game.with_players(3)
    assert isinstance(bigger, Teachable) and not bigger.lessons()


def test_the_nations_lesson_meets_the_rules_the_issue_names() -> None:
    """Growth, buying from each row, deploying, a wonder's section, a war, production with a
    shortage, end-of-age scoring: read from the path's own events, not through its topics."""
    game, lesson, _ = lesson_and_path("nations", "p1")
    state = game.start(lesson.seed, lesson.rules_version).state
    events: list[dict[str, object]] = []
    for seat, action in lesson.script:
        step = game.apply(state, seat, action)
        events += game.events_to_json(step.events)
        state = step.state
    mine = [e for e in events if e.get("seat") == "p1"]
    assert {e["row"] for e in mine if e["type"] == "card_bought"} == {1, 2, 3}
    kinds = {str(e["type"]) for e in mine}
    assert {"grew", "deployed", "architect_hired"} <= kinds
    assert any(e["type"] == "war_declared" for e in events)
    assert any(e["type"] == "short_of" and e["during"] == "production" for e in events)
    assert "age_scored" in kinds and game.round_of(state) > 2  # the first age ended on the path


def lesson_and_path(game_id: str, lesson_id: str) -> tuple[AnyGame, Lesson, LessonPath]:
    game = get_game(game_id)
    assert isinstance(game, Teachable)
    lesson = game.lessons()[lesson_id]
    return game, lesson, LessonPath(game, lesson)  # replays the script: an illegal move raises


@pytest.mark.parametrize(("game_id", "lesson_id"), LESSONS)
def test_a_lessons_path_is_legal_and_shows_every_topic(game_id: str, lesson_id: str) -> None:
    game, lesson, path = lesson_and_path(game_id, lesson_id)
    assert path.missing == ()
    assert lesson.topics and path.length > 0
    assert lesson.rules_version == game.rules_version  # written for today's rules
    # the path ends at a decision of the learner's: the match waits there, on the path
    end = game.start(lesson.seed, lesson.rules_version).state
    for seat, action in lesson.script:
        end = game.apply(end, seat, action).state
    assert game.to_move(end) == (lesson.seat,)
    assert path.on_path(end)


@pytest.mark.parametrize(("game_id", "lesson_id"), LESSONS)
def test_each_learner_move_of_the_path_has_a_coach_step(game_id: str, lesson_id: str) -> None:
    _, lesson, path = lesson_and_path(game_id, lesson_id)
    mine = [v for v, (seat, _) in enumerate(lesson.script) if seat == lesson.seat]
    assert [s.version for s in path.steps] == mine
    # every topic is explained once: at a learner's decision, or when the lesson closes
    explained = [t for s in path.steps for t in s.topics] + list(path.closing)
    assert sorted(explained) == sorted(t.id for t in lesson.topics)
    taught = [s for s in path.steps if s.only]
    assert taught, "a lesson allows only the taught move somewhere"


@pytest.mark.parametrize(("game_id", "lesson_id"), LESSONS)
def test_the_path_knows_its_own_states_and_no_other(game_id: str, lesson_id: str) -> None:
    game, lesson, path = lesson_and_path(game_id, lesson_id)
    state = game.start(lesson.seed, lesson.rules_version).state
    assert path.on_path(state)
    seat, action = lesson.script[0]
    assert path.next_move(state, seat) == action
    other = [a for a in game.legal_actions(state, seat) if game.action_to_json(a) != action]
    assert other, "the first decision of a lesson has a choice"
    off = game.apply(state, seat, other[0]).state
    assert not path.on_path(off)
    assert all(path.next_move(off, s) is None for s in game.seats)
    another_deal = game.start(lesson.seed + 1, lesson.rules_version).state
    assert not path.on_path(another_deal)


def moment(seat: str, kind: str, *events: dict[str, object], view: object = None) -> Moment:
    return Moment(seat, {"type": kind}, [dict(e) for e in events], {"board": view or {}})


def test_a_topic_is_seen_once_and_only_in_its_own_kind_of_moment() -> None:
    watcher = TopicWatcher(
        [
            Topic("ask", seat="editor", event="face_down_asked", role="editor"),
            Topic("gain", event="evidence_gained", role="editor", without="evaluation_started"),
            Topic("again", action="react", chain=2),
            Topic("link", view="board.connected"),
        ]
    )
    assert watcher.watch(moment("nixon", "play_value", {"type": "face_down_asked"})) == ()
    gained = {"type": "evidence_gained", "role": "editor"}
    assert watcher.watch(moment("editor", "pass", gained, {"type": "evaluation_started"})) == ()
    assert watcher.watch(moment("editor", "react")) == ()  # a first reaction is no chain
    assert watcher.watch(moment("nixon", "react", gained)) == ("gain", "again")
    asked = {"type": "face_down_asked", "role": "editor"}
    assert watcher.watch(moment("editor", "play_value", asked)) == ("ask",)
    assert watcher.watch(moment("editor", "play_value", asked)) == ()  # seen already
    assert watcher.missing() == ("link",)
    assert watcher.watch(moment("editor", "pin", view={"connected": []})) == ()
    assert watcher.watch(moment("editor", "pin", view={"connected": ["hugh_sloan"]})) == ("link",)
