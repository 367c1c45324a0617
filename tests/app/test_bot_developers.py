"""The developers' page (contract v1.2 "Bots", issue 45): `/developers` in each of the three
languages, with every call of the bot API and its example; every call it shows is a route of
the app (a renamed route cannot leave the page describing one that is gone); the rate limits
printed are this server's; the footer of every page and the account's tokens panel link to it;
and its long words stay out of every page's script data."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient

from app.http.developers import CALLS, per_hour
from app.http.i18n import LOCALES, locale

from .test_security_headers import flat_routes

MakeClient = Callable[..., TestClient]


@pytest.mark.parametrize("lang", LOCALES)
def test_the_page_speaks_each_language_and_shows_every_call(client: TestClient, lang: str) -> None:
    page = client.get(f"/developers?lang={lang}")
    assert page.status_code == 200
    words = locale(lang)["developers"]
    assert f"<h1>{words['title']}</h1>" in page.text
    for call in CALLS:
        assert f"{call.method} {call.path}".replace("&", "&amp;") in page.text
        assert words["calls"]["what"][call.id].replace("'", "&#39;") in page.text
    assert "120/min, 3000/h" in page.text and "5/h" in page.text  # this server's limits
    # one request in flight per token, its minute's pause and its code (contract v1.2 "Bots")
    in_flight = words["limits"]["in_flight"].replace("{seconds}", "60").replace("'", "&#39;")
    assert in_flight in page.text and "too_many_requests_in_flight" in page.text


def test_every_call_shown_is_a_route_of_the_app(client: TestClient) -> None:
    routes = {
        (method, getattr(route, "path", ""))
        for route in flat_routes(client.app.routes)  # type: ignore[attr-defined]
        for method in getattr(route, "methods", None) or ()
    }
    for call in CALLS:
        assert (call.method, call.path.split("?")[0]) in routes, call


def test_the_limits_are_printed_as_configured(sqlite_url: str, make_client: MakeClient) -> None:
    assert per_hour("120/minute;3000/hour") == "120/min, 3000/h"
    assert per_hour("5/hour") == "5/h"
    client = make_client(sqlite_url, rate_limit_bot_challenge="2/hour", bot_idle_hours=6)
    page = client.get("/developers?lang=en").text
    assert "2/h per bot" in page and "6 hours" in page


def test_the_footer_and_the_tokens_panel_link_to_it_and_scripts_do_not_carry_it(
    client: TestClient,
) -> None:
    home = client.get("/")
    assert 'href="/developers"' in home.text
    assert locale("en")["developers"]["intro"] not in home.text  # not in the bootstrap data
    account = client.get("/account").text
    tokens_panel = account[account.index('id="token-form"') :]
    assert 'href="/developers"' in tokens_panel.split("</form>")[0]
