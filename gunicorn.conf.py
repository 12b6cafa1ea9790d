"""gunicorn's settings for the app (read by gunicorn from the folder it starts in).

Every open table page and big screen holds one server-sent-event stream (chouette.push), and a
stream holds a worker thread for as long as the page is open: threaded workers (``gthread``)
hold many at once, where sync workers would block on the first. Size ``workers x threads`` above
the number of devices the club has open (phones, tablets, TVs) plus a margin for the commands:
2 workers x 200 threads serve a festival of 20 tables, 160 phones and 10 screens (connections
are not shared evenly between workers, hence the margin). Any of these
can be overridden on the command line or with ``GUNICORN_CMD_ARGS``.

Workers: one per core (``WEB_CONCURRENCY``; 2 by default, for a 2-core machine). Each worker
process draws every table state its devices need once for itself, so a worker more than the
cores can run only adds drawings. App nodes that share a machine share its cores: two nodes
on 2 cores run 1 worker each (measured: docs/performance.md, "Push").
"""

import os

worker_class = "gthread"
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
threads = int(os.environ.get("GUNICORN_THREADS", "200"))
# A stream sends a keep-alive every 15 s: the worker never looks idle for 30 s.
timeout = 30
# Streams end by themselves (chouette.push.STREAM_SECONDS) and the browsers reconnect at once:
# a graceful restart waits at most this long for them.
graceful_timeout = 10
