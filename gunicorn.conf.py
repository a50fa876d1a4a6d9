"""gunicorn's settings for `make run` and the image (`gunicorn -c gunicorn.conf.py wovepaper.wsgi`).

Each value can be changed by an environment variable (GUNICORN_*), or on the command line, which wins.
"""

import os

bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")  # noqa: S104 - the container's port; nginx fronts it

# Two processes of four threads: a page spends most of its time waiting on PostgreSQL, and each process
# holds its own copy of the embedding model (about 300 MB) for search, so threads are cheaper than
# processes. On a bigger machine raise the workers (about one per core) before the threads.
# Each thread keeps one PostgreSQL connection open (CONN_MAX_AGE 60 s): a web host holds workers × threads
# of them (8), every Celery child one more; size max_connections from that, or put PgBouncer in
# transaction mode in front (DATABASE_TRANSACTION_POOLING). `make loadtest` measured these values (README,
# "Performance"): more threads than four only queue on the two cores' Python.
workers = int(os.environ.get("GUNICORN_WORKERS", "2"))
threads = int(os.environ.get("GUNICORN_THREADS", "4"))
# gthread that reads each request whole in its event loop before a thread takes it, and drops a request
# still incomplete after GUNICORN_HEADER_TIMEOUT seconds (10): slow clients hold no thread.
worker_class = "wovepaper.gunicorn_worker.BufferingThreadWorker"
worker_connections = 1000

# A worker whose event loop is stuck this long is killed and replaced; a page takes well under a second.
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = 30
keepalive = 5  # nginx keeps its connections to us open; a browser on `make run` too

# Each worker is replaced after about a thousand requests (the jitter keeps them from restarting at once):
# what a long-lived process accumulates (the model's allocator, caches, fragmentation) is handed back.
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", "1000"))
max_requests_jitter = max_requests // 10

# The request line and headers a browser sends fit well within these; larger ones get a 400.
limit_request_line = 8190
limit_request_fields = 100
limit_request_field_size = 8190

accesslog = "-"
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOG_LEVEL", "info")

# gunicorn 27's control socket sits at one path per user: several servers on a machine (make run, the
# tests) would take it from each other, and nothing here uses it.
control_socket_disable = True


def post_worker_init(worker) -> None:  # noqa: ANN001 - gunicorn's Worker
    """The worker has imported the WSGI module (Django, the embedding model) and takes connections from
    now on: the log shows which start-up work came before the first request could."""
    worker.log.info("worker %s ready: taking requests", worker.pid)
