"""Logging filters (settings.LOGGING)."""

from __future__ import annotations

import logging

import redis.exceptions


class ReconnectWithoutTraceback(logging.Filter):
    """channels_redis logs a Redis connection lost (a Redis restart) with a full traceback as
    "Unexpected exception in receive task", then reconnects by itself: nothing went wrong in
    the application. One warning line says the same, and the server log's tracebacks stay the
    ones worth reading (the load test counts them as errors)."""

    # OSError covers a refused or reset connection (ConnectionError is one)
    LOST = (OSError, redis.exceptions.ConnectionError, redis.exceptions.TimeoutError)

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, self.LOST):
            record.msg = f"{record.getMessage()}: {error!r} (the channel layer reconnects)"
            record.args = None
            record.exc_info = record.exc_text = None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True
