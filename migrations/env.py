"""Alembic environment: the tables of app.persistence, the URL from Settings (or -x url=...)."""

from __future__ import annotations

from alembic import context

from app.config import Settings
from app.persistence import (  # noqa: F401 (tables)
    api_tokens,
    models,
    people_tables,
    sessions,
    tournament_tables,
)
from app.persistence.db import Base, make_engine

config = context.config
url = context.get_x_argument(as_dictionary=True).get("url") or config.attributes.get("url")
url = url or Settings().database_url


def run_migrations_offline() -> None:
    context.configure(
        url=url, target_metadata=Base.metadata, literal_binds=True, render_as_batch=True
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    engine = make_engine(url, writer=False)
    with engine.connect() as connection:
        sqlite = connection.dialect.name == "sqlite"
        if sqlite:
            # A batch migration rebuilds a table (copy, drop, rename); dropping one that others
            # refer to fails while foreign keys are enforced, and deferring them does not help
            # (SQLite counts the drop's violations and never uncounts them). So enforcement is
            # off while migrating, outside any transaction (the pragma is ignored inside one),
            # and every reference is checked before the migration commits.
            connection.connection.dbapi_connection.execute("PRAGMA foreign_keys=OFF")  # type: ignore[union-attr]
        context.configure(
            connection=connection,
            target_metadata=Base.metadata,
            render_as_batch=True,
            compare_type=True,
        )
        with context.begin_transaction():
            context.run_migrations()
            if sqlite:
                broken = connection.exec_driver_sql("PRAGMA foreign_key_check").all()
                if broken:
                    raise RuntimeError(f"migration left broken references: {broken[:5]}")
    engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
