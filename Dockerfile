# The game server image; docker-compose.yml runs it with PostgreSQL and Redis.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /srv/watergate

# Exactly the versions the tests ran with (requirements/app.txt is requirements/dev.txt cut to what
# the server needs), hash-checked; a layer of its own, so a code change does not reinstall them.
COPY requirements/app.txt ./requirements/app.txt
RUN pip install --require-hashes -r requirements/app.txt

# What `python -m app` needs: the packages, and the migrations it runs before serving.
COPY pyproject.toml alembic.ini ./
COPY engine ./engine
COPY bench ./bench
COPY app ./app
COPY migrations ./migrations
COPY templates ./templates
COPY static ./static
# The project alone: its dependencies are all installed above, and the locked setuptools builds it.
RUN pip install . --no-deps --no-build-isolation \
    && rm -rf build *.egg-info \
    && useradd --create-home --uid 10001 watergate

# `python -m app` is run from this folder, so it finds alembic.ini and migrations/ next to app/.
ENV HOST=0.0.0.0 \
    PORT=8000
EXPOSE 8000
USER watergate
CMD ["python", "-m", "app"]
