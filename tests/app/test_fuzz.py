"""Schema-driven fuzzing (schemathesis 4 over the app's own /openapi.json): for every operation,
generated requests — valid and invalid — never get a server error, and every 4xx answer carries
{"code", "message"}. Each case is sent twice: as generated (mostly without credentials) and with a
real seat or admin token and a real match id, so that the handlers behind authentication are fuzzed
too. Deterministic: Hypothesis is derandomized and keeps no example database."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode

from app.config import Settings
from app.main import create_app

from .conftest import ADMIN_TOKEN


def _operations() -> list[tuple[str, str]]:
    """Every operation the app documents (read from a throw-away app: no database is opened)."""
    schema = create_app(Settings(database_url="sqlite://")).openapi()
    return sorted((m.upper(), path) for path, item in schema["paths"].items() for m in item)


OPERATIONS = _operations()
# examples per operation and mode; all of them on SQLite, fewer again on PostgreSQL
EXAMPLES = {"sqlite": 30, "postgres": 12}


class Table:
    """An app with an active match, and what a well-informed client would send it."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        made = client.post("/api/matches", json={"role": "editor", "opponent": "human"}).json()
        code = made["invite_url"].rsplit("/invite/", 1)[1]
        claimed = client.post(f"/api/invites/{code}/claim").json()
        self.match_id = made["match_id"]
        self.tokens = {"editor": made["seat_token"], "nixon": claimed["seat_token"]}
        # a second, unclaimed invite for the claim operation to hit
        spare = client.post("/api/matches", json={"role": "nixon", "opponent": "human"}).json()
        self.spare_code = spare["invite_url"].rsplit("/invite/", 1)[1]
        self.schema = schemathesis.openapi.from_dict(client.get("/openapi.json").json())

    def informed(self, case: Any) -> dict[str, str]:
        """Point the case at the real match and give it the right credentials."""
        params = case.path_parameters or {}
        if "match_id" in params:
            params["match_id"] = self.match_id
        if "code" in params:
            params["code"] = self.spare_code
        admin = case.operation.path.startswith("/api/admin")
        token = ADMIN_TOKEN if admin else self.tokens["editor"]
        return {"Authorization": f"Bearer {token}"}

    def send(self, case: Any, extra_headers: dict[str, str]) -> Any:
        kwargs = case.as_transport_kwargs(base_url="http://testserver")
        headers = {**kwargs.get("headers", {}), **extra_headers}
        body: dict[str, Any] = {}
        if "json" in kwargs:
            body["json"] = kwargs["json"]
        elif isinstance(kwargs.get("data"), dict):
            body["data"] = kwargs["data"]
        elif kwargs.get("data") is not None:
            body["content"] = kwargs["data"]
        return self.client.request(
            kwargs["method"], kwargs["url"], headers=headers, params=kwargs.get("params"), **body
        )


@pytest.fixture
def table(any_db_url: str, make_client: Callable[..., TestClient]) -> Iterator[Table]:
    """On SQLite and on PostgreSQL (which refuses some strings SQLite takes, e.g. NUL)."""
    client = make_client(any_db_url)
    client.raise_server_exceptions = False  # a crash must show up as the 500 a user would get
    yield Table(client)


def check(case: Any, response: Any) -> None:
    where = f"{case.operation.method.upper()} {response.request.url} -> {response.status_code}"
    case.validate_response(response, checks=[schemathesis.checks.not_a_server_error])
    assert response.status_code < 500, f"{where}: {response.text[:300]}"
    if 400 <= response.status_code < 500:
        body = response.json()
        assert isinstance(body, dict), where
        assert isinstance(body.get("code"), str) and body["code"], f"{where}: {body}"
        assert isinstance(body.get("message"), str) and body["message"], f"{where}: {body}"


def test_the_schema_documents_the_contract_operations(table: Table) -> None:
    found = {
        (op.method.upper(), op.path)
        for op in (result.ok() for result in table.schema.get_all_operations())
    }
    assert found == set(OPERATIONS)
    assert found >= {
        ("POST", "/api/matches"),
        ("POST", "/api/invites/{code}/claim"),
        ("GET", "/api/matches/{match_id}"),
        ("POST", "/api/matches/{match_id}/actions"),
        ("GET", "/api/admin/matches"),
        ("GET", "/api/admin/matches/{match_id}"),
        ("GET", "/healthz"),
    }


def fuzz(
    table: Table, operation: Any, mode: GenerationMode, examples: int, sent: Counter[str]
) -> None:
    @settings(
        max_examples=examples,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(case=operation.as_strategy(generation_mode=mode))
    def run(case: Any) -> None:
        check(case, table.send(case, {}))
        check(case, table.send(case, table.informed(case)))
        sent[mode.value] += 2

    run()


@pytest.mark.parametrize("operation", OPERATIONS, ids=" ".join)
def test_no_generated_request_gets_a_server_error(
    table: Table, operation: tuple[str, str], request: pytest.FixtureRequest
) -> None:
    """Valid requests first, then invalid ones where the schema constrains anything (a body, a
    typed parameter); a bare string path parameter has no invalid form."""
    method, path = operation
    api_operation = table.schema[path][method]
    examples = EXAMPLES[request.node.callspec.params["any_db_url"]]
    sent: Counter[str] = Counter()

    for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
        try:
            fuzz(table, api_operation, mode, examples, sent)
        except Unsatisfiable:
            assert mode is GenerationMode.NEGATIVE, "no valid request could be generated"
    assert sent["positive"] > 0
    if "requestBody" in api_operation.definition.raw:
        assert sent["negative"] > 0, "invalid bodies were never sent"
    assert table.client.get("/healthz").status_code == 200
