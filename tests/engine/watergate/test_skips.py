"""Instructions with nothing to do (issue 42 item 4, R14): the log says which one was skipped and
why (`instruction_skipped`), and a seat choosing a card is told beforehand, in its view's `idle`
(hints or no hints, so in a rated match too), which parts of an offered action
would do nothing now — from what the seat sees only; over random matches, the parts told are
exactly the parts the engine then skips, and a seat's `idle` is the same on its observation."""

from __future__ import annotations

from hypothesis import given, settings

from engine.watergate import MatchState, Role, apply, legal_actions
from engine.watergate.actions import PlayAction, action_to_json
from engine.watergate.events import InstructionSkipped
from engine.watergate.hints import hints_for
from engine.watergate.observation import observation_for
from engine.watergate.state import PlayD, ReactD
from engine.watergate.views import events_for, open_view, view_for

from .builders import do, of_type, pass_window, play_action, position
from .test_properties import SEEDS, random_match


def idle(s: MatchState, role: Role) -> dict[str, object]:
    """What the seat's view says is idle; its hints (unrated matches) say the same of them."""
    found = view_for(s, role)["idle"]
    assert isinstance(found, dict)
    hinted = hints_for(s, role).get("idle", {})
    assert isinstance(hinted, dict)
    assert {card: hinted[card] for card in found} == found
    return found


def test_r14_an_instruction_whose_picture_is_already_pinned_has_no_effect_and_says_why() -> None:
    # Martha Mitchell's phone calls pins her picture: it is pinned (face down, by Nixon) already
    s = position(
        turn="editor",
        editor_hand=["E11", "E15"],  # Pentagon Papers has a token to move: not idle
        nixon_hand=["N02"],
        pictures={"martha_mitchell": "down"},
        track=[("T02", 0, True)],
    )
    told = {
        "all": True,
        "parts": [{"at": 0, "reason": "picture_pinned", "what": "martha_mitchell"}],
    }
    assert idle(s, "editor") == {"E11": told}
    s, events = do(s, "editor", play_action("E11"))
    s, more = pass_window(s)
    skipped = of_type(events_for([*events, *more], "nixon"), "instruction_skipped")
    assert skipped == [
        {
            "type": "instruction_skipped",
            "role": "editor",
            "source": "E11",
            "reason": "picture_pinned",
            "what": "martha_mitchell",
        }
    ]
    assert s.pictures == position(pictures={"martha_mitchell": "down"}).pictures  # unchanged


def test_r19_howard_hunts_momentum_half_has_no_effect_once_the_token_is_gained() -> None:
    s = position(
        turn="nixon",
        nixon_hand=["N01", "N06"],  # John Mitchell: a reaction, so no action to call idle
        editor_hand=["E15"],
        nixon_deck=["N03"],
        track_momentum=None,
    )
    # only the momentum half is idle: the drawing half still draws and plays (R19)
    told = {"all": False, "parts": [{"at": 0, "reason": "token_gained", "what": "momentum"}]}
    assert idle(s, "nixon") == {"N01": told}
    s, _ = do(s, "nixon", play_action("N01"))
    s, more = pass_window(s)
    assert [(e["source"], e["reason"]) for e in of_type(more, "instruction_skipped")] == [
        ("N01", "token_gained")
    ]
    assert isinstance(s.decision, PlayD) and s.decision.card == "N03"  # drawn, to be played


def test_r14_with_the_momentum_on_the_track_nothing_is_idle() -> None:
    s = position(turn="nixon", nixon_hand=["N01", "N05"])
    assert idle(s, "nixon") == {}
    # a card whose action is not offered is explained by `actions`, never called idle
    s = position(turn="nixon", nixon_hand=["N08"], track_momentum=None)
    assert "N08" in hints_for(s, "nixon")["actions"] and idle(s, "nixon") == {}


def test_r13_moving_all_green_tokens_is_idle_for_the_editor_only_when_it_knows_every_colour() -> (
    None
):
    # Butterfield reveals the tapes: his picture (pinned already), then every green token moves.
    # A blue token lies face down and unseen: the Editor cannot know it is not green.
    hidden = position(
        turn="editor",
        editor_hand=["E13"],
        nixon_hand=["N02"],
        pictures={"alexander_butterfield": "up"},
        track=[("T02", 0, False)],
    )
    picture_only = [{"at": 0, "reason": "picture_pinned", "what": "alexander_butterfield"}]
    assert idle(hidden, "editor") == {"E13": {"all": False, "parts": picture_only}}
    # the same token face up: nothing green can move, and the Editor can see so
    shown = position(
        turn="editor",
        editor_hand=["E13"],
        pictures={"alexander_butterfield": "up"},
        track=[("T02", 0, True)],
    )
    both = [*picture_only, {"at": 1, "reason": "no_token", "what": "green"}]
    assert idle(shown, "editor") == {"E13": {"all": True, "parts": both}}
    # played with the blue token still hidden, the engine skips both (the blue one does not move)
    s, _ = do(hidden, "editor", play_action("E13"))
    s, events = pass_window(s)
    reasons = [e.reason for e in events if isinstance(e, InstructionSkipped)]
    assert reasons == ["picture_pinned", "no_token"]
    assert s.track[0].up is False  # nothing moved it: it stays face down


def test_r14_the_view_says_what_is_idle_without_hints_to_the_chooser_alone() -> None:
    # the view, not the hints: a rated match's seat (no hints) is told as well
    s = position(
        turn="editor",
        editor_hand=["E11", "E15"],
        nixon_hand=["N02"],
        pictures={"martha_mitchell": "down"},
        track=[("T02", 0, True)],
    )
    told = {
        "E11": {
            "all": True,
            "parts": [{"at": 0, "reason": "picture_pinned", "what": "martha_mitchell"}],
        }
    }
    assert view_for(s, "editor")["idle"] == told
    # the Editor's hand is not Nixon's to read, nor a spectator's, nor a replay's
    assert view_for(s, "nixon")["idle"] == {}
    assert view_for(s, None)["idle"] == {}
    assert open_view(s)["idle"] == {}
    # Nixon's turn: the Editor chooses no card, so nothing is foretold for its hand
    waiting = position(turn="nixon", editor_hand=["E11"], pictures={"martha_mitchell": "down"})
    assert view_for(waiting, "editor")["idle"] == {}


def test_r13_the_editors_idle_cannot_tell_an_unseen_tokens_colour() -> None:
    # Butterfield's second part moves every green token. With one face-down token the Editor has
    # not seen, the engine would skip it for a blue token and not for a green one: the Editor's
    # view must say the same of both, else it would read the colour off its view.
    def with_unseen(token: str) -> MatchState:
        return position(
            turn="editor",
            editor_hand=["E13"],
            nixon_hand=["N02"],
            pictures={"alexander_butterfield": "up"},
            track=[(token, 0, False)],
        )

    blue, green = with_unseen("T02"), with_unseen("T14")
    assert view_for(blue, "editor")["idle"] == view_for(green, "editor")["idle"]
    assert view_for(blue, "editor")["idle"] == {
        "E13": {
            "all": False,
            "parts": [{"at": 0, "reason": "picture_pinned", "what": "alexander_butterfield"}],
        }
    }


def test_r14_nixons_idle_cannot_tell_the_editors_hand_or_the_bag() -> None:
    # Howard Hunt's momentum half is idle (the token is gained); what Nixon cannot see, the
    # Editor's hand and deck and the bag's order, changes nothing he is told
    def with_secrets(editor_hand: list[str], bag: list[str]) -> MatchState:
        return position(
            turn="nixon",
            nixon_hand=["N01", "N06"],
            editor_hand=editor_hand,
            nixon_deck=["N03"],
            track_momentum=None,
            bag=bag,
        )

    one = with_secrets(["E15", "E11"], ["T02", "T14"])
    two = with_secrets(["E03", "E07"], ["T14", "T02"])
    assert view_for(one, "nixon")["idle"] == view_for(two, "nixon")["idle"]
    assert view_for(one, "nixon")["idle"] == {
        "N01": {"all": False, "parts": [{"at": 0, "reason": "token_gained", "what": "momentum"}]}
    }


@settings(max_examples=12, deadline=None)
@given(seed=SEEDS, bot_seed=SEEDS)
def test_r14_a_seats_idle_is_the_same_on_its_observation(seed: int, bot_seed: int) -> None:
    """Two states that differ only in what a seat cannot see give it the same observation, so an
    `idle` equal on the observation can tell the seat nothing hidden."""
    for ply in random_match(seed, bot_seed):
        for role in ("editor", "nixon"):
            seen = view_for(ply.before, role)["idle"]
            assert seen == view_for(observation_for(ply.before, role), role)["idle"]


def _resolve(s: MatchState, role: Role, card: str) -> tuple[MatchState, list[str]] | None:
    """Play the card's action and let it resolve (every window passed, every other choice the
    first offered): the reasons of its skipped instructions, in order; None if the match ended."""
    s = apply(s, role, {"type": "play_action", "card": card}).state
    reasons: list[str] = []
    while s.winner is None:
        d = s.decision
        if d is None or isinstance(d, PlayD):  # the next play (Howard Hunt's drawn card's too)
            return s, reasons
        offered = legal_actions(s, d.role)
        pick = {"type": "pass"} if isinstance(d, ReactD) else action_to_json(offered[0])
        step = apply(s, d.role, pick)
        reasons += [
            e.reason for e in step.events if isinstance(e, InstructionSkipped) and e.source == card
        ]
        s = step.state
    return None


@settings(max_examples=12, deadline=None)
@given(seed=SEEDS, bot_seed=SEEDS)
def test_r14_the_parts_told_idle_are_exactly_the_parts_the_engine_skips(
    seed: int, bot_seed: int
) -> None:
    for ply in random_match(seed, bot_seed):
        s, d = ply.before, ply.before.decision
        if not isinstance(d, PlayD):
            continue
        role = d.role
        told = idle(s, role)
        cards = {a.card for a in legal_actions(s, role) if isinstance(a, PlayAction)}
        for card in sorted(cards):
            entry = told.get(card)
            expected = [p["reason"] for p in entry["parts"]] if isinstance(entry, dict) else []
            ended = _resolve(s, role, card)
            if ended is None:
                continue  # a win ends the match before the card's later parts run (R27)
            skipped = ended[1]
            if role == "editor" and any(not t.up and not t.peeked for t in s.track):
                # moving all of a colour may find none among tokens the Editor cannot see
                assert set(expected) <= set(skipped), (card, expected, skipped)
            else:
                assert skipped == expected, (card, expected, skipped)
