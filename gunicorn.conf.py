"""gunicorn settings for `make serve` (and production: `gunicorn -c gunicorn.conf.py 'judge.web:create_app()'`).

gthread workers: a slow client (or a slowloris) holds a thread, not a whole worker, and the engine's
per-request budget (JUDGE_BUDGET_SECONDS, 2 s) keeps every request far below `timeout`, so a worker
is never killed mid-request (gunicorn's own HTML 500). Put a buffering reverse proxy in front
(deploy/nginx.conf): it absorbs slow uploads and slow readers before they reach a thread.
Every value can be overridden from the environment (GUNICORN_* below) or the command line.

Several instances (README "Running several instances", deploy/nginx-two-instances.conf): run this
same file once per port or machine, each with its own PORT and JUDGE_INSTANCE (its search index),
and the same DATABASE_URL, RATELIMIT_STORAGE_URI and JUDGE_SECRET_KEY. Workers are not preloaded:
each opens its own database connections after the fork.
"""

import multiprocessing
import os

bind = os.environ.get("GUNICORN_BIND", f"{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '8000')}")
worker_class = "gthread"
workers = int(os.environ.get("GUNICORN_WORKERS", os.environ.get("WORKERS", min(4, multiprocessing.cpu_count()))))
threads = int(os.environ.get("GUNICORN_THREADS", "4"))
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))        # a worker silent this long is restarted
graceful_timeout = int(os.environ.get("GUNICORN_GRACEFUL_TIMEOUT", "20"))
keepalive = int(os.environ.get("GUNICORN_KEEPALIVE", "5"))      # seconds an idle keep-alive socket is kept
backlog = 256
limit_request_line = 4094                                       # bytes of the request line
limit_request_fields = 60
limit_request_field_size = 8190
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", "5000"))   # recycle workers now and then
max_requests_jitter = 500
accesslog = os.environ.get("GUNICORN_ACCESSLOG", "-")
errorlog = "-"
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")


def post_worker_init(worker) -> None:
    """Hand the GIL round more often (1 ms, not 5): a quick page waiting behind a thread that resolves
    a costly scenario in the same worker gets its turn sooner."""
    import sys

    sys.setswitchinterval(0.001)
