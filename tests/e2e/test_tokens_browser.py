"""The account page's API tokens (issue 45), in German: an account makes a token with its scopes
and sees its secret once, the list names it (never its secret) with its scopes, and revoking it
empties the list; the token then opens nothing."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Callable
from urllib.error import HTTPError

from playwright.sync_api import Page, expect

from .conftest import LOCALES
from .test_accounts_browser import PASSWORD
from .test_browser import Shot

DE = LOCALES["de"]


def upgrade_status(server: str, token: str) -> int:
    request = urllib.request.Request(
        f"{server}/api/bot/account/upgrade",
        method="POST",
        headers={"Authorization": f"Bearer {token}"},
    )
    try:
        with urllib.request.urlopen(request) as answer:
            return int(answer.status)
    except HTTPError as err:
        assert json.loads(err.read())["code"] == "unauthorized"
        return int(err.code)


def test_an_account_makes_a_token_sees_it_once_and_revokes_it(
    open_page: Callable[..., Page], server: str, shot: Shot
) -> None:
    page = open_page(locale="de-DE")
    page.goto("/account")
    page.locator("#sign-up-username").fill("tokenmaker")
    page.locator("#sign-up-password").fill(PASSWORD)
    page.locator("#sign-up-submit").click()
    signed_in = DE["account"]["signed_in_as"].replace("{username}", "tokenmaker")
    expect(page.locator("#account-status")).to_have_text(signed_in)
    form = page.locator("#token-form")
    expect(form).to_be_visible()
    expect(form.locator("#tokens")).to_contain_text(DE["bots"]["none"])
    form.locator("#token-label").fill("mein Bot")
    form.locator("#token-create").click()
    secret = form.locator("#token-secret")
    expect(secret).not_to_be_empty()
    token = secret.inner_text()
    expect(form.locator("#token-made")).to_contain_text(DE["bots"]["shown_once"])
    listed = form.locator("#tokens li")
    expect(listed).to_have_count(1)
    expect(listed).to_contain_text("mein Bot")
    expect(listed).to_contain_text(DE["bots"]["scope_names"]["bot:play"])
    assert token not in listed.inner_text()
    shot(page, "account-tokens-de")

    listed.get_by_role("button", name=DE["bots"]["revoke"]).click()
    expect(form.locator("#tokens")).to_contain_text(DE["bots"]["none"])
    assert upgrade_status(server, token) == 401
