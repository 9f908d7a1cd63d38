"""gunicorn settings for `make serve` (and production: `gunicorn -c gunicorn.conf.py 'judge.web:create_app()'`).

gthread workers: the engine's per-request budget (JUDGE_BUDGET_SECONDS, 2 s) keeps every request far
below `timeout`, so a worker is never killed mid-request (gunicorn's own HTML 500).

Slowloris: gthread is NOT a defence against slow clients. Each slow socket (headers or body trickled
in) holds one of a worker's threads; 8 such sockets per worker (16 for the default 2 workers) block
every page, `/healthz` included. Never expose gunicorn directly: put the buffering reverse proxy of
deploy/nginx.conf in front, which reads whole requests (with header, body and reader timeouts) before
passing them on, and bind gunicorn to 127.0.0.1 or a private address only.
Every value can be overridden from the environment (GUNICORN_* below) or the command line.

Several instances (README "Running several instances", deploy/nginx-two-instances.conf): run this
same file once per port or machine, each with its own PORT and JUDGE_INSTANCE (its search index),
and the same DATABASE_URL, RATELIMIT_STORAGE_URI and JUDGE_SECRET_KEY. Workers are not preloaded:
each opens its own database connections after the fork.
"""

import multiprocessing
import os

bind = os.environ.get("GUNICORN_BIND", f"{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '8000')}")
# gthread's worker, taking turns: a request runs when its turn comes, the client that asked least lately
# first, so clients reading as fast as they are answered can't slow the site for everyone else
# (judge/web/fair.py); GUNICORN_WORKER_CLASS=gthread for gunicorn's own
worker_class = os.environ.get("GUNICORN_WORKER_CLASS", "judge.web.fair.FairThreadWorker")
workers = int(os.environ.get("GUNICORN_WORKERS", os.environ.get("WORKERS", min(4, multiprocessing.cpu_count()))))
# 8 threads, of which at most 3 run costly work at once (JUDGE_ENGINE_SLOTS): the others read pages,
# or wait (1 s at most) for an engine slot, so reading never queues behind costly requests
threads = int(os.environ.get("GUNICORN_THREADS", "8"))
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))        # a worker silent this long is restarted
graceful_timeout = int(os.environ.get("GUNICORN_GRACEFUL_TIMEOUT", "20"))
keepalive = int(os.environ.get("GUNICORN_KEEPALIVE", "5"))      # seconds an idle keep-alive socket is kept
backlog = 256
# bytes of the request line: the most gunicorn allows, so the longest query the API accepts (500
# characters, at most 12 bytes each percent-encoded: 6,000 bytes) reaches the app's JSON answer,
# never gunicorn's own HTML 414
limit_request_line = 8190
limit_request_fields = 60
limit_request_field_size = 8190
# Recycle a worker now and then (a leak can't grow for ever), but rarely: a recycled worker starts with
# an empty page cache, and at 1,000 reads a second 5,000 requests recycled each worker every 10 s.
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", "50000"))
max_requests_jitter = max_requests // 10
# No access log of gunicorn's own unless asked (GUNICORN_ACCESSLOG=- for standard output, or a file):
# the reverse proxy in front logs every request (deploy/nginx.conf), and formatting the line again here
# cost about 15 % of a kept page's read (bench/solid.py `reading`).
accesslog = os.environ.get("GUNICORN_ACCESSLOG") or None
errorlog = "-"
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
# gunicorn's control socket (gunicornc) defaults to one path per user ($XDG_RUNTIME_DIR/gunicorn.ctl or
# ~/.gunicorn/gunicorn.ctl): two servers on one machine would take it from each other. It is off unless
# GUNICORN_CONTROL_SOCKET names this server's own path (say one per port).
if os.environ.get("GUNICORN_CONTROL_SOCKET"):
    control_socket = os.environ["GUNICORN_CONTROL_SOCKET"]
else:
    control_socket_disable = True


def post_worker_init(worker) -> None:
    """Hand the GIL round more often (1 ms, not 5): a quick page waiting behind a thread that resolves
    a costly scenario in the same worker gets its turn sooner."""
    import sys

    sys.setswitchinterval(0.001)
