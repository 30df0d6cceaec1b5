"""The settings module itself, run in a fresh process with production-shaped environments."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SECRET = "x7#Kq9!vR2mZp4@Lw8sT1nB6yH3jF0cD5gA-eU_oI+rE&tY*uP"  # 50 characters, test only


def manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_passes_with_real_values() -> None:
    result = manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DEBUG="0",
        SECRET_KEY=SECRET,
        ALLOWED_HOSTS="example.com",
        CSRF_TRUSTED_ORIGINS="https://example.com",
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_production_refuses_to_start_without_secret_key() -> None:
    result = manage("check", DEBUG="0", SECRET_KEY="", ALLOWED_HOSTS="example.com")
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr


def test_production_settings_values() -> None:
    code = (
        "from django.conf import settings as s;"
        "print(s.DEBUG, s.SECURE_SSL_REDIRECT, s.SESSION_COOKIE_SECURE, s.ALLOWED_HOSTS,"
        " s.STORAGES['staticfiles']['BACKEND'], s.CHANNEL_LAYERS['default']['BACKEND'])"
    )
    result = manage(
        "shell",
        "--no-imports",
        "-c",
        code,
        DEBUG="0",
        SECRET_KEY=SECRET,
        ALLOWED_HOSTS="a.example b.example",
        SECURE_SSL_REDIRECT="0",
        REDIS_URL="redis://127.0.0.1:6379/0",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "False",
        "False",
        "True",
        "['a.example',",
        "'b.example']",
        "whitenoise.storage.CompressedManifestStaticFilesStorage",
        "channels_redis.pubsub.RedisPubSubChannelLayer",
    ]
