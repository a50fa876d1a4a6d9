# The production image: gunicorn serves the site; the same image runs the Celery worker and beat.
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 HF_HUB_OFFLINE=1

RUN useradd --create-home --uid 1000 wovepaper
WORKDIR /app

# torch is pinned to 2.13.0; pass PIP_EXTRA_INDEX_URL at build time to take its CPU-only build.
ARG PIP_EXTRA_INDEX_URL=""
COPY pyproject.toml README.md ./
RUN pip install "torch==2.13.0" && pip install .

COPY . .
RUN SECRET_KEY=build-only-collectstatic-key-not-used-at-runtime-0123456789abcdef \
    python manage.py collectstatic --noinput --verbosity 0

USER wovepaper
EXPOSE 8000
CMD ["gunicorn", "wovepaper.wsgi", "--bind", "0.0.0.0:8000", "--workers", "3", "--threads", "4", "--access-logfile", "-"]
