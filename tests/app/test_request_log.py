"""Request ids and the log's two formats (issue 11): every HTTP answer carries `X-Request-ID`
(the client's when it is short and plain, else one of ours) and one log line per request names
it, as does each accepted action's line; LOG_FORMAT=json writes each line as one JSON object
whose every value went through the same scrubbing as a text line."""

from __future__ import annotations

import json
import logging
import re
import sys
from collections.abc import Callable, Iterator

import pytest
from fastapi.testclient import TestClient

from app.config import Settings
from app.logs import REQUEST_ID, JsonFormatter, ScrubbingFormatter, configure, fields
from tests.app.test_ws import receive_view, send_action, socket, started, view_at

from .test_metrics import bearer

OURS = re.compile(r"[0-9a-f]{16}")


@pytest.fixture
def lines(caplog: pytest.LogCaptureFixture) -> Iterator[Callable[[str], list[logging.LogRecord]]]:
    caplog.set_level(logging.INFO)
    yield lambda logger: [r for r in caplog.records if r.name == logger]


def test_each_answer_carries_a_request_id_and_a_safe_one_is_kept(client: TestClient) -> None:
    made = {client.get("/healthz").headers["x-request-id"] for _ in range(3)}
    assert len(made) == 3 and all(OURS.fullmatch(rid) for rid in made)
    for kept in ("trace-42", "0af7651916cd43dd8448eb211c80319c", "req.1:a_b", "x" * 64):
        assert (
            client.get("/healthz", headers={"X-Request-ID": kept}).headers["x-request-id"] == kept
        )
    for junk in ("x" * 65, "a b", "id\u00e9".encode(), "<script>", "a=b", "", "t?token=1"):
        answered = client.get("/healthz", headers={"X-Request-ID": junk}).headers["x-request-id"]
        assert OURS.fullmatch(answered), junk
    # answers made before the routes (a body over the limit) carry it too
    too_big = client.post("/api/matches", content=b"x" * 70_000, headers={"X-Request-ID": "big-1"})
    assert (too_big.status_code, too_big.headers["x-request-id"]) == (413, "big-1")


def test_one_line_per_request_names_its_id_status_and_scrubbed_path(
    client: TestClient, lines: Callable[[str], list[logging.LogRecord]]
) -> None:
    client.get("/api/matches/m1?token=SECRET-T&lang=de", headers={"X-Request-ID": "one"})
    client.get("/healthz", headers={"X-Request-ID": "two"})
    found = {r.fields["status"]: r for r in lines("watergate.request")}  # type: ignore[attr-defined]
    assert set(found) == {401, 200}
    line = JsonFormatter().format(found[401])
    body = json.loads(line)
    assert (body["request_id"], body["method"], body["status"]) == ("one", "GET", 401)
    assert body["path"] == "/api/matches/m1?token=***&lang=de"
    assert body["message"] == '"GET /api/matches/m1?token=***&lang=de HTTP/1.1" 401'
    assert body["duration_ms"] >= 0
    assert "SECRET-T" not in line
    text = ScrubbingFormatter("%(message)s").format(found[200])
    assert text.startswith('"GET /healthz HTTP/1.1" 200 request_id=two ')


def test_each_accepted_action_has_a_line_with_its_own_request_id(
    client: TestClient, lines: Callable[[str], list[logging.LogRecord]]
) -> None:
    match_id, tokens = started(client)
    with (
        socket(client, match_id, tokens["editor"]) as ed,
        socket(client, match_id, tokens["nixon"]),
    ):
        view = receive_view(ed)
        send_action(ed, view["legal_actions"][0], view["version"])
        view_at(ed, 1)
    # and one by HTTP, whose line names the request's id
    view = client.get(f"/api/matches/{match_id}", headers=bearer(tokens["editor"])).json()
    role = view["state"]["decision"]["role"]
    view = client.get(f"/api/matches/{match_id}", headers=bearer(tokens[role])).json()
    body = {"action": view["legal_actions"][0]}
    moved = client.post(
        f"/api/matches/{match_id}/actions",
        headers={**bearer(tokens[role]), "X-Request-ID": "move-2"},
        json=body,
    )
    assert moved.status_code == 200, moved.text
    accepted = [json.loads(JsonFormatter().format(r)) for r in lines("watergate.play")]
    assert [(a["message"], a["version"], a["match_id"]) for a in accepted] == [
        ("action accepted", 1, match_id),
        ("action accepted", 2, match_id),
    ]
    assert OURS.fullmatch(accepted[0]["request_id"])  # the socket message's own
    assert accepted[1]["request_id"] == "move-2"
    assert accepted[0]["seat"] == "editor" and accepted[0]["action"] == body["action"].get("type")
    assert not any(token in json.dumps(accepted) for token in tokens.values())


def record(message: str, *args: object, **extra: object) -> logging.LogRecord:
    """A record as a logger makes it (through the record factory, as `log.warning` would)."""
    made = logging.getLogRecordFactory()(
        "watergate.test", logging.WARNING, __file__, 1, message, args, None
    )
    made.__dict__.update(extra)
    return made


def test_a_json_line_scrubs_every_value_and_keeps_its_own_keys() -> None:
    secret = "S3CR3T-value"
    token = REQUEST_ID.set("rid-7")  # the request being served when the line is logged
    try:
        line = record(
            'failed "GET /watch/m?key=%s"', secret,
            **fields(path=f"/invite/{secret}", header=f"Bearer {secret}", count=3, ok=True,
                     none=None, level="forged", message="forged"),
        )  # fmt: skip
    finally:
        REQUEST_ID.reset(token)
    try:
        raise ValueError(f"/api/x?seat_token={secret}")
    except ValueError:
        line.exc_info = sys.exc_info()
    text = JsonFormatter().format(line)  # formatted later, elsewhere: the id is the record's
    assert "\n" not in text and secret not in text
    body = json.loads(text)
    assert body["level"] == "WARNING" and body["message"] == 'failed "GET /watch/m?key=***"'
    assert body["logger"] == "watergate.test" and body["request_id"] == "rid-7"
    assert (body["path"], body["header"]) == ("/invite/***", "Bearer ***")
    assert (body["count"], body["ok"], body["none"]) == (3, True, None)
    assert "seat_token=***" in body["exception"] and "ValueError" in body["exception"]
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", body["time"])


def test_a_query_value_ending_in_a_quote_stays_valid_json() -> None:
    """Scrubbing the encoded line would eat the backslash of an escaped quote; each value is
    scrubbed before it is encoded."""
    text = JsonFormatter().format(record('GET /x?token=abc" then "more"'))
    assert json.loads(text)["message"] == 'GET /x?token=***" then "more"'


def test_a_text_line_puts_its_fields_before_the_traceback() -> None:
    line = record("broke", **fields(match_id="m1"))
    try:
        raise RuntimeError("?key=K1")
    except RuntimeError:
        line.exc_info = sys.exc_info()
    text = ScrubbingFormatter("%(message)s").format(line)
    first, _, rest = text.partition("\n")
    assert first == "broke match_id=m1"
    assert "RuntimeError: ?key=***" in rest and "K1" not in text


@pytest.mark.parametrize("given", ["json", "JSON", " text "])
def test_log_format_takes_text_or_json(given: str) -> None:
    assert Settings(log_format=given).log_format == given.strip().lower()


def test_another_log_format_stops_the_start() -> None:
    with pytest.raises(ValueError, match="LOG_FORMAT"):
        Settings(log_format="xml")


def test_uvicorn_s_socket_chatter_is_dropped_and_its_other_lines_kept() -> None:
    """ "connection open"/"connection closed" name nothing, "connection rejected" repeats the
    refusal line; the accepted and refused lines name the socket."""
    seen: list[str] = []
    catcher = logging.Handler()
    catcher.emit = lambda record: seen.append(record.getMessage())  # type: ignore[method-assign]
    saved = logging.getLogger().handlers[:], logging.getLogger().level
    try:
        configure()
        logging.getLogger().addHandler(catcher)
        uvicorn = logging.getLogger("uvicorn.error")
        uvicorn.setLevel(logging.INFO)  # a uvicorn started earlier in this process sets its own
        for line in (
            "connection open",
            '1.2.3.4:5 - "WebSocket /ws/x" [accepted]',
            "connection closed",
            '1.2.3.4:6 - "WebSocket /ws/watch/y" 429',
        ):
            uvicorn.info(line)
        uvicorn.info("connection rejected (%d %s)", 429, "Too Many Requests")  # as websockets logs
        assert seen == [
            '1.2.3.4:5 - "WebSocket /ws/x" [accepted]',
            '1.2.3.4:6 - "WebSocket /ws/watch/y" 429',
        ]
    finally:
        root = logging.getLogger()
        root.handlers[:], _ = saved[0], root.setLevel(saved[1])
