# The game server image; docker-compose.yml runs it with PostgreSQL and Redis.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /srv/watergate

# What `python -m app` needs: the packages, and the migrations it runs before serving.
COPY pyproject.toml alembic.ini ./
COPY engine ./engine
COPY bench ./bench
COPY app ./app
COPY migrations ./migrations
COPY templates ./templates
COPY static ./static
RUN pip install . \
    && useradd --create-home --uid 10001 watergate

# `python -m app` is run from this folder, so it finds alembic.ini and migrations/ next to app/.
ENV HOST=0.0.0.0 \
    PORT=8000
EXPOSE 8000
USER watergate
CMD ["python", "-m", "app"]
