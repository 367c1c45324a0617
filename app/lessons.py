"""Tutorial matches: the lessons each game offers, their scripted paths (replayed once per
process), and what a tutorial match adds to its learner's view and to the computer's moves."""

from __future__ import annotations

from functools import cache
from typing import Any

from engine.core.game import JSON, JSONObject, Viewer
from engine.core.lessons import Lesson, LessonPath, Teachable
from engine.registry import game_ids, get_game

from .errors import ApiError


def lessons_of(game_id: str) -> dict[str, Lesson]:
    """The lessons of a game (none for a game without tutorials)."""
    game = get_game(game_id)
    return dict(game.lessons()) if isinstance(game, Teachable) else {}


def all_lessons() -> list[tuple[str, Lesson]]:
    """Every (game id, lesson) the site offers, in registration order."""
    return [(g, lesson) for g in game_ids() for lesson in lessons_of(g).values()]


@cache  # a handful of lessons, each a path of a few dozen states: built once, kept
def lesson_path(game_id: str, lesson_id: str) -> LessonPath:
    """The path of a lesson (KeyError when the game has no such lesson)."""
    return LessonPath(get_game(game_id), lessons_of(game_id)[lesson_id])


def checked_lesson(game_id: str, lesson_id: str) -> LessonPath:
    """The lesson asked for, or a 404 naming what exists."""
    if game_id not in game_ids() or lesson_id not in lessons_of(game_id):
        raise ApiError(404, "no_such_lesson", "There is no such lesson.")
    return lesson_path(game_id, lesson_id)


def lesson_of(options: dict[str, Any]) -> str | None:
    """The lesson a match plays (its options say so from its creation), or None."""
    lesson = options.get("tutorial")
    return lesson if isinstance(lesson, str) else None


def coach_json(game_id: str, path: LessonPath) -> JSONObject:
    """What the learner's coach needs: the learner's own scripted moves and the topics each
    explains (never the opponent's moves: those would tell its hand)."""
    steps: list[JSON] = [
        {"version": s.version, "topics": list(s.topics), "action": s.action, "only": s.only}
        for s in path.steps
    ]
    return {
        "game": game_id,
        "lesson": path.lesson.id,
        "seat": path.lesson.seat,
        "length": path.length,
        "steps": steps,
        "closing": list(path.closing),
    }


def tutorial_facts(game_id: str, options: dict[str, Any], state: Any, viewer: Viewer) -> JSON:
    """A tutorial match's fact for its learner's view: which lesson, and whether the match is
    still on the lesson's path (None for everyone else, and for any other match)."""
    lesson = lesson_of(options)
    if lesson is None or viewer is None:
        return None
    path = lesson_path(game_id, lesson)
    if viewer != path.lesson.seat:
        return None
    return {"lesson": lesson, "on_path": path.on_path(state)}
