"""`/rules` words every card and momentum space as the rules version it shows does (issue 41):
today's version by default — what every new match plays — and any published one by `?version=`.
It used to show the first edition's wording of five cards and a momentum space that every new
match plays otherwise. The engine's data and the locale's editions must change the same entries
in every version, so a page can never word a card otherwise than the matches play it."""

from __future__ import annotations

import html
import re
from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient

from app.http.editions import worded
from app.http.i18n import LOCALES, locale
from engine.watergate.ruleset import as_of
from engine.watergate.standard import GAME
from engine.watergate.versions import RULES_VERSION, VERSIONS

from .accounts_helpers import execute

FIRST = GAME.edition("1")


def shown_texts(page: str) -> list[str]:
    return [html.unescape(t) for t in re.findall(r'<p class="card-text">(.*?)</p>', page)]


def changed_in_data(version: str) -> set[str]:
    """The cards and momentum spaces whose data this version plays in a later edition's wording."""
    assert FIRST.documents is not None
    cards, _, _, momentum = FIRST.documents
    data = VERSIONS[version].data
    found = {str(c["id"]) for c in cards["cards"] if as_of(c, data) != c}  # type: ignore[union-attr, index]
    editor = momentum["editor"]["spaces"]  # type: ignore[index, call-overload]
    found |= {f"M{s['space']}" for s in editor if as_of(s, data) != s}
    return found


@pytest.mark.parametrize("version", sorted(VERSIONS))
@pytest.mark.parametrize("lang", sorted(LOCALES))
def test_every_version_rewords_in_text_exactly_the_entries_its_data_changes(
    version: str, lang: str
) -> None:
    first, shown = worded(locale(lang), "1"), worded(locale(lang), version)
    reworded = {c for c in shown.cards if shown.cards[c] != first.cards[c]}
    reworded |= {f"M{s}" for s in shown.momentum if shown.momentum[s] != first.momentum[s]}
    assert reworded == changed_in_data(version)


def test_the_rules_page_words_the_cards_as_todays_version_plays_them(client: TestClient) -> None:
    page = client.get("/rules?lang=en")
    assert page.status_code == 200
    today = worded(locale("en"), RULES_VERSION)
    order = sorted(today.cards, key=card_order)
    texts = dict(zip(order, shown_texts(page.text), strict=True))
    assert texts == today.cards
    for card in ("E07", "E12", "E18", "N04", "N13"):  # reworded since the first edition
        assert texts[card] != worded(locale("en"), "1").cards[card], card
    assert "v" + RULES_VERSION in page.text and 'aria-current="page">v' + RULES_VERSION in page.text


def card_order(card_id: str) -> tuple[int, str]:
    return (0 if card_id.startswith("E") else 1, card_id)


@pytest.mark.parametrize("version", sorted(VERSIONS))
def test_any_published_version_is_shown_as_asked(client: TestClient, version: str) -> None:
    page = client.get(f"/rules?version={version}&lang=de")
    wanted = worded(locale("de"), version)
    assert shown_texts(page.text) == [wanted.cards[c] for c in sorted(wanted.cards, key=card_order)]
    for text in wanted.momentum.values():
        assert f"<li>{html.escape(text)}</li>" in page.text or f"<li>{text}</li>" in page.text
    assert html.escape(locale("de")["rules_edition"]["names"][version]) in page.text


def test_an_unknown_version_shows_todays(client: TestClient) -> None:
    page = client.get("/rules?version=99&lang=en")
    assert page.status_code == 200
    assert shown_texts(page.text) == shown_texts(client.get("/rules?lang=en").text)


@pytest.mark.parametrize(("asked", "shown"), [("4", "4"), ("1", "1"), ("99", RULES_VERSION)])
def test_the_card_gallery_words_the_version_asked_for(
    client: TestClient, asked: str, shown: str
) -> None:
    """The gallery's script words its cards by the version the page boots with."""
    page = client.get(f"/watergate/cards?version={asked}")
    assert f'"rules_version": "{shown}"' in page.text


def edition_line(page: str) -> str | None:
    found = re.search(r'<p id="rules-edition">(.*?)</p>', page, re.S)
    return None if found is None else html.unescape(re.sub(r"<[^>]+>", "", found.group(1)))


def test_the_table_names_the_edition_its_match_plays(
    sqlite_url: str, make_client: Callable[..., TestClient]
) -> None:
    """The table's menu names its match's rules version in words and links the rules as that
    version words them; a match stored under an earlier version is named so."""
    first = make_client(sqlite_url)
    made = first.post("/api/matches", json={"role": "editor", "opponent": "bot"}).json()
    names = locale("en")["rules_edition"]["names"]
    page = first.get(f"/match/{made['match_id']}?lang=en").text
    assert edition_line(page) == f"{locale('en')['rules_edition']['label']}: {names[RULES_VERSION]}"
    assert f'href="/rules?version={RULES_VERSION}"' in page

    execute(sqlite_url, "update matches set rules_version = '4' where id = :m", m=made["match_id"])
    other = make_client(sqlite_url)  # a process that has not cached the match
    page = other.get(f"/match/{made['match_id']}?lang=en").text
    assert edition_line(page) == f"{locale('en')['rules_edition']['label']}: {names['4']}"
    assert 'href="/watergate/cards?version=4"' in page
    assert edition_line(other.get("/match/nosuchmatch?lang=en").text) is None


def test_a_replay_names_its_edition_only_once_the_match_has_ended(client: TestClient) -> None:
    made = client.post("/api/matches", json={"role": "editor", "opponent": "bot"}).json()
    assert edition_line(client.get(f"/replay/{made['match_id']}?lang=pt-BR").text) is None
    resigned = client.post(
        f"/api/matches/{made['match_id']}/resign",
        headers={"Authorization": f"Bearer {made['seat_token']}"},
    )
    assert resigned.status_code == 200, resigned.text
    line = edition_line(client.get(f"/replay/{made['match_id']}?lang=pt-BR").text)
    assert line is not None and locale("pt-BR")["rules_edition"]["names"][RULES_VERSION] in line
