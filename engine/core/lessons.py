"""Tutorial lessons as data: a fixed deal, the scripted path through it, and the rule topics each
step of the path teaches (matched on the protocol's JSON, so one matcher serves every game)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from .game import JSON, Game, JSONObject, Seat


@dataclass(frozen=True, slots=True)
class Topic:
    """A rule a lesson must show, and how to see it happen in one step of a match: who moved
    (`seat`), what kind of action (`action`, an action's "type"), an event among those the step
    produced (`event`, optionally by `role`), an event that must not be among them (`without`),
    the `chain`-th action of that kind in a row (a re-reaction is the second reaction), or a
    non-empty list at a dotted path of the learner's view afterwards (`view`). `where` adds
    fields the event must have (a token moved `to` space 5 of a side)."""

    id: str
    seat: Seat | None = None
    action: str | None = None
    event: str | None = None
    role: str | None = None
    without: str | None = None
    chain: int = 1
    view: str | None = None
    where: tuple[tuple[str, JSON], ...] = ()

    def matches(self, event: JSONObject) -> bool:
        """Whether `event` is this topic's event (its type, role and fields)."""
        return (
            event.get("type") == self.event
            and (self.role is None or event.get("role") == self.role)
            and all(event.get(k) == v for k, v in self.where)
        )


@dataclass(frozen=True, slots=True)
class Moment:
    """One decision of a match as a lesson sees it: who moved, the action's JSON, every event
    it produced (as `events_to_json` gives them) and the learner's view afterwards."""

    seat: Seat
    action: JSONObject
    events: Sequence[JSONObject]
    view: JSONObject


@dataclass(frozen=True, slots=True)
class CoachStep:
    """What the coach says at the learner's decision at `version` of the scripted path: the
    topics to explain now (those the last moves showed, and the one this move will show), the
    move the script plays (the learner's own, never the opponent's), and whether only that move
    is allowed (`only`: the lesson needs it) or it is a suggestion."""

    version: int
    topics: tuple[str, ...]
    action: JSONObject
    only: bool


@dataclass(frozen=True, slots=True)
class Lesson:
    """A tutorial match: `seat` learns, from the deal of `seed` under `rules_version`; `script`
    is the path (seat, action JSON) both sides follow while the learner keeps to it; `topics`
    are what it teaches, each shown somewhere along `script` (a test checks it)."""

    id: str
    seat: Seat
    seed: int
    rules_version: str
    topics: tuple[Topic, ...]
    script: tuple[tuple[Seat, JSONObject], ...]

    def coach(
        self, covered: Sequence[tuple[str, ...]]
    ) -> tuple[tuple[CoachStep, ...], tuple[str, ...]]:
        """The coach's steps from `covered` (the topics each scripted move showed first): each
        learner decision explains what happened since its last one, and is taught (only that
        move allowed) when the move itself shows a new topic; and the topics the opponent's
        last moves showed, explained when the lesson closes."""
        steps: list[CoachStep] = []
        pending: list[str] = []
        for version, ((seat, action), shown) in enumerate(zip(self.script, covered, strict=True)):
            if seat == self.seat:
                steps.append(CoachStep(version, (*pending, *shown), action, bool(shown)))
                pending = []
            else:
                pending.extend(shown)
        return tuple(steps), tuple(pending)


@runtime_checkable
class Teachable(Protocol):
    """A game with tutorial lessons (the app asks through this, like `Analysable`)."""

    def lessons(self) -> Mapping[str, Lesson]: ...


def _at(view: JSON, path: str) -> JSON:
    for part in path.split("."):
        if not isinstance(view, dict):
            return None
        view = view.get(part)
    return view


class TopicWatcher:
    """Follows a match move by move and says which topics each move shows for the first time."""

    def __init__(self, topics: Sequence[Topic]) -> None:
        self.topics = tuple(topics)
        self.seen: set[str] = set()
        self._run: tuple[Seat, str] | None = None  # the kind of the last action, and its seat
        self._length = 0

    def watch(self, moment: Moment) -> tuple[str, ...]:
        kind = str(moment.action.get("type"))
        self._length = self._length + 1 if self._run is not None and self._run[1] == kind else 1
        self._run = (moment.seat, kind)
        shown = tuple(t.id for t in self.topics if t.id not in self.seen and self._shows(t, moment))
        self.seen.update(shown)
        return shown

    def missing(self) -> tuple[str, ...]:
        return tuple(t.id for t in self.topics if t.id not in self.seen)

    def _shows(self, topic: Topic, moment: Moment) -> bool:
        if topic.seat is not None and moment.seat != topic.seat:
            return False
        if topic.action is not None and moment.action.get("type") != topic.action:
            return False
        if topic.chain > 1 and self._length < topic.chain:
            return False
        types = {str(e.get("type")) for e in moment.events}
        if topic.without is not None and topic.without in types:
            return False
        if topic.event is not None and not any(topic.matches(e) for e in moment.events):
            return False
        return topic.view is None or bool(_at(moment.view, topic.view))


def topic_from_json(data: Mapping[str, JSON]) -> Topic:
    chain = data.get("chain", 1)
    where = data.get("where", {})

    def text(name: str) -> str | None:
        value = data.get(name)
        return None if value is None else str(value)

    return Topic(
        id=str(data["id"]),
        seat=text("seat"),
        action=text("action"),
        event=text("event"),
        role=text("role"),
        without=text("without"),
        chain=chain if isinstance(chain, int) else 1,
        view=text("view"),
        where=tuple(where.items()) if isinstance(where, dict) else (),
    )


def lesson_from_json(data: Mapping[str, JSON]) -> Lesson:
    topics = data["topics"]
    script = data["script"]
    assert isinstance(topics, list) and isinstance(script, list)
    steps: list[tuple[Seat, JSONObject]] = []
    for entry in script:
        assert isinstance(entry, list) and isinstance(entry[1], dict)
        steps.append((str(entry[0]), entry[1]))
    seed = data["seed"]
    assert isinstance(seed, int)
    return Lesson(
        id=str(data["id"]),
        seat=str(data["seat"]),
        seed=seed,
        rules_version=str(data["rules_version"]),
        topics=tuple(topic_from_json(t) for t in topics if isinstance(t, dict)),
        script=tuple(steps),
    )


def lessons_from_json(data: Mapping[str, JSON]) -> dict[str, Lesson]:
    """A game's lessons file (`{"lessons": [...]}`) as its lessons by id."""
    entries = data["lessons"]
    assert isinstance(entries, list)
    return {x.id: x for x in (lesson_from_json(e) for e in entries if isinstance(e, dict))}


class LessonPath:
    """A lesson's scripted path replayed once through the protocol: whether a match is still on
    it, and the move the script makes next. A match leaves the path for good once any move
    differs (the learner chose freely); from there the computer plays as in any match."""

    def __init__(self, game: Game[Any, Any, Any], lesson: Lesson) -> None:
        self.game, self.lesson = game, lesson
        state = game.start(lesson.seed, lesson.rules_version).state
        self._states: list[JSONObject] = [game.state_to_json(state)]
        watcher = TopicWatcher(lesson.topics)
        covered: list[tuple[str, ...]] = []
        for seat, action in lesson.script:
            step = game.apply(state, seat, action)
            events = game.events_to_json(step.events)
            view = game.view_for(step.state, lesson.seat)
            covered.append(watcher.watch(Moment(seat, action, events, view)))
            state = step.state
            self._states.append(game.state_to_json(state))
        self.missing = watcher.missing()  # topics the script never shows (a test wants none)
        self.steps, self.closing = lesson.coach(covered)

    @property
    def length(self) -> int:
        return len(self.lesson.script)

    def version_teaching(self, topic: str) -> int | None:
        """Where the lesson explains `topic`: the version of the learner's decision whose coach
        step does (the path's end for a topic explained at the close); None if it never does."""
        step = next((s for s in self.steps if topic in s.topics), None)
        if step is not None:
            return step.version
        return self.length if topic in self.closing else None

    def on_path(self, state: Any) -> bool:
        """Whether `state` is the path's own at its version (the script's moves so far)."""
        version = self.game.version(state)
        return version < len(self._states) and (
            self.game.state_to_json(state) == self._states[version]
        )

    def next_move(self, state: Any, seat: Seat) -> JSONObject | None:
        """The script's move for `seat` now, or None once the match is off the path or past it."""
        version = self.game.version(state)
        if version >= self.length or not self.on_path(state):
            return None
        mover, action = self.lesson.script[version]
        return action if mover == seat else None
