"""Use case: start a tutorial match, at its beginning or at the step that teaches one topic (the
rules page links there): the lesson's path is played up to that step for both seats."""

from __future__ import annotations

from ..errors import ApiError
from ..lessons import checked_lesson
from .matches import Matches, SeatTaken
from .play import Play


class Lessons:
    def __init__(self, matches: Matches, play: Play) -> None:
        self.matches, self.play = matches, play

    async def start(
        self, game_id: str, lesson_id: str, player: str | None, at: str | None = None
    ) -> SeatTaken:
        """A tutorial match against the computer at the lesson's seat; with `at` (a topic of the
        lesson, else 422 no_such_topic), already on the path at the decision that teaches it."""
        path = checked_lesson(game_id, lesson_id)
        target = 0 if at is None else path.version_teaching(at)
        if target is None:
            raise ApiError(422, "no_such_topic", "This lesson has no such topic.")
        made = await self.matches.create(
            path.game.id, path.lesson.seat, "bot", None, player, lesson=path.lesson
        )
        for version, (seat, action) in enumerate(path.lesson.script[:target]):
            try:
                await self.play.act(made.match_id, seat, action, version)
            except ApiError as err:
                # the computer played its own scripted move of this version first: the same move
                if err.code != "stale_version":
                    raise
        return made
