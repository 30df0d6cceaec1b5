"""mahjong_site/log_filters.py: a Redis reconnect is a warning line, not a traceback."""

from __future__ import annotations

import logging

import redis.exceptions

from mahjong_site.log_filters import ReconnectWithoutTraceback


def _record(error: BaseException) -> logging.LogRecord:
    try:
        raise error
    except BaseException as e:  # noqa: BLE001 - any exception, as channels_redis logs it
        info = (type(e), e, e.__traceback__)
    return logging.LogRecord(
        "channels_redis.pubsub",
        logging.ERROR,
        __file__,
        1,
        "Unexpected exception in receive task",
        None,
        info,
    )


def test_a_lost_redis_connection_becomes_one_warning_line() -> None:
    record = _record(redis.exceptions.ConnectionError("Connection closed by server."))
    assert ReconnectWithoutTraceback().filter(record)
    assert record.levelno == logging.WARNING and record.exc_info is None
    assert "Connection closed by server." in record.getMessage()


def test_any_other_exception_keeps_its_traceback() -> None:
    record = _record(ValueError("a bug"))
    assert ReconnectWithoutTraceback().filter(record)
    assert record.levelno == logging.ERROR and record.exc_info is not None
