# The production image: gunicorn serves the site; the same image runs the Celery workers and beat.
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 HF_HUB_OFFLINE=1

RUN useradd --create-home --uid 1000 wovepaper
WORKDIR /app

# Exactly the versions of requirements.lock, each checked against its hash: a build next month installs
# what was tested. torch is locked as its CPU build (2.13.0+cpu, no CUDA libraries), which PyPI does not
# carry: give pip the PyTorch project's CPU wheel index, e.g.
#   docker compose build --build-arg PIP_EXTRA_INDEX_URL=<the PyTorch CPU wheel index URL>
# or a directory holding that wheel with PIP_FIND_LINKS. Without either the build stops at torch rather
# than install another build.
ARG PIP_EXTRA_INDEX_URL=""
ARG PIP_FIND_LINKS=""
COPY requirements.lock ./
RUN pip install --require-hashes --no-deps -r requirements.lock

COPY . .
# var/keyword-index is a volume in docker-compose.yml: made here so the volume starts owned by the app.
RUN mkdir -p /app/staticfiles /app/var/keyword-index \
    && chown wovepaper:wovepaper /app/staticfiles /app/var /app/var/keyword-index
USER wovepaper
RUN SECRET_KEY=build-only-collectstatic-key-not-used-at-runtime-0123456789abcdef \
    python manage.py collectstatic --noinput --verbosity 0
# The embedding model exported to ONNX once, here, into the image's var/onnx (EMBEDDING_ONNX_DIR), so no
# container exports it at start (or, unable to write, falls back to torch).
RUN SECRET_KEY=build-only-collectstatic-key-not-used-at-runtime-0123456789abcdef \
    python -c "import django; django.setup(); from papers.embedding import get_model; get_model()"

EXPOSE 8000
CMD ["gunicorn", "-c", "gunicorn.conf.py", "wovepaper.wsgi"]
