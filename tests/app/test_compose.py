"""docker-compose.yml runs the app against PostgreSQL and Redis (product.md: DATABASE_URL,
REDIS_URL, ADMIN_TOKEN from the environment). `docker compose config` validates the file without
an engine; the structure is also read directly, so most checks run even without docker."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from typing import Any
from urllib.parse import urlsplit

import pytest

from app.__main__ import ROOT

COMPOSE = ROOT / "docker-compose.yml"
DOCKERFILE = ROOT / "Dockerfile"
SENTINEL = "compose-test-admin-token"


def compose_command() -> list[str] | None:
    """`docker compose` (the plugin) or the standalone `docker-compose`, if either works."""
    for command in (["docker", "compose"], ["docker-compose"]):
        if shutil.which(command[0]) is None:
            continue
        try:
            done = subprocess.run([*command, "version"], capture_output=True, timeout=30)
        except (OSError, subprocess.TimeoutExpired):
            continue
        if done.returncode == 0:
            return command
    return None


def run_compose(*args: str, admin_token: str | None) -> subprocess.CompletedProcess[str]:
    command = compose_command()
    if command is None:
        pytest.skip("no docker compose here (neither the compose plugin nor docker-compose)")
    env = {k: v for k, v in os.environ.items() if k != "ADMIN_TOKEN"}
    if admin_token is not None:
        env["ADMIN_TOKEN"] = admin_token
    return subprocess.run(
        [*command, "-f", str(COMPOSE), *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=60,
    )


def load_compose() -> tuple[dict[str, Any], bool]:
    """The compose file as data, and whether it is raw (PyYAML) or interpolated by compose."""
    try:
        import yaml
    except ImportError:
        done = run_compose("config", "--format", "json", admin_token=SENTINEL)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout), False
    return yaml.safe_load(COMPOSE.read_text()), True


def environment(service: dict[str, Any]) -> dict[str, str]:
    env = service.get("environment") or {}
    if isinstance(env, list):  # the KEY=value list form
        env = dict(item.split("=", 1) for item in env)
    return {k: str(v) for k, v in env.items()}


def container_ports(service: dict[str, Any]) -> set[str]:
    """Container ports of `ports:` in the short ("8000:8000") or the long (target: 8000) form."""
    return {
        str(p["target"]) if isinstance(p, dict) else str(p).split(":")[-1].split("/")[0]
        for p in service.get("ports", [])
    }


def test_docker_compose_accepts_the_file() -> None:
    done = run_compose("config", "-q", admin_token=SENTINEL)
    assert done.returncode == 0, done.stderr


def test_docker_compose_refuses_to_run_without_an_admin_token() -> None:
    done = run_compose("config", "-q", admin_token=None)
    assert done.returncode != 0
    assert "ADMIN_TOKEN" in done.stderr


def test_the_app_runs_against_the_database_and_redis_services() -> None:
    data, raw = load_compose()
    services = data["services"]
    assert {"app", "db", "redis"} <= set(services)
    app, db, redis = services["app"], services["db"], services["redis"]

    env = environment(app)
    assert env["HOST"] == "0.0.0.0"  # reachable from outside the container
    assert env["BASE_URL"], "a public bind needs BASE_URL, or the app refuses to start"
    assert env["DATABASE_URL"] == "postgresql://postgres:postgres@db:5432/watergate"
    assert env["REDIS_URL"] == "redis://redis:6379/0"
    if raw:  # required: compose refuses to start without it (no default admin secret)
        assert re.fullmatch(r"\$\{ADMIN_TOKEN:\?[^}]+\}", env["ADMIN_TOKEN"])
    else:
        assert env["ADMIN_TOKEN"] == SENTINEL

    build = app["build"]
    context = build if isinstance(build, str) else build.get("context", ".")
    assert os.path.realpath(ROOT / context) == os.path.realpath(ROOT)
    assert env.get("PORT", "8000") in container_ports(app)

    database = urlsplit(env["DATABASE_URL"])  # the URL names the db service and its settings
    db_env = environment(db)
    assert str(db["image"]).startswith("postgres:16")
    assert database.hostname == "db" and database.port == 5432
    assert (database.username, database.password) == (
        db_env.get("POSTGRES_USER", "postgres"),
        db_env["POSTGRES_PASSWORD"],
    )
    assert database.path == "/" + db_env["POSTGRES_DB"]
    assert db["healthcheck"]["test"]
    assert app["depends_on"]["db"]["condition"] == "service_healthy"

    assert str(redis["image"]).startswith("redis:7")
    assert urlsplit(env["REDIS_URL"]).hostname == "redis"
    assert "redis" in app["depends_on"]


def test_the_image_installs_the_project_and_serves_with_python_m_app() -> None:
    lines = [
        line.strip()
        for line in DOCKERFILE.read_text().replace("\\\n", " ").splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]
    assert lines[0] == "FROM python:3.11-slim"
    assert any(re.match(r"RUN .*pip install \.(\s|$)", line) for line in lines)
    assert lines[-1] == 'CMD ["python", "-m", "app"]'
    copied = " ".join(line for line in lines if line.startswith("COPY"))
    for needed in ("pyproject.toml", "alembic.ini", "engine", "app", "migrations"):
        assert re.search(rf"\b{re.escape(needed)}\b", copied), f"{needed} is not copied"
