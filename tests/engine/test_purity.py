"""The engine is a library: it never imports Django (DESIGN principle 1)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "games" / "engine"


def test_no_engine_module_mentions_django_imports():
    def imports_django(path: Path) -> bool:
        return any(line.lstrip().startswith(("import django", "from django")) for line in path.open())

    offenders = [str(p) for p in ENGINE.rglob("*.py") if imports_django(p)]
    assert offenders == []


def test_importing_every_engine_module_loads_no_django():
    modules = [
        "games.engine." + ".".join(p.relative_to(ENGINE).with_suffix("").parts)
        for p in ENGINE.rglob("*.py")
        if p.name not in ("__init__.py", "__main__.py")
    ]
    code = "import sys\n" + "".join(f"import {m}\n" for m in modules) + "print('django' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ENGINE.parents[1])
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"
