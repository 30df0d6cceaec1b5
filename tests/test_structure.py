"""The structural rules, kept true: one source per fact, imports one way, no module
reaching into another's private names, a live side of small modules of one concern."""

from __future__ import annotations

import ast
import importlib.util
import re
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("accounts", "common", "games", "mahjong_site", "scripts", "tests")


def _sources(*packages: str) -> list[Path]:
    return [
        p
        for package in packages
        for p in sorted((ROOT / package).rglob("*.py"))
        if "migrations" not in p.parts
    ]


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def test_no_module_uses_another_modules_underscored_names() -> None:
    found = []
    for path in _sources(*PACKAGES):
        tree = ast.parse(path.read_text(), str(path))
        modules = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                found += [f"{path}:{node.lineno} {a.name}" for a in node.names if _private(a.name)]
                modules |= {a.asname or a.name for a in node.names}
            elif isinstance(node, ast.Import):
                modules |= {(a.asname or a.name).split(".")[0] for a in node.names}
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)):
                continue
            if _private(node.attr) and node.value.id in modules and node.attr != "_meta":  # (Django API)
                found.append(f"{path}:{node.lineno} {node.value.id}.{node.attr}")
    assert found == []


def _imports(path: Path) -> set[str]:
    out = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module.split(".")[0])
        elif isinstance(node, ast.Import):
            out |= {a.name.split(".")[0] for a in node.names}
    return out


def test_imports_run_one_way_common_then_accounts_then_games() -> None:
    backwards = [str(p) for p in _sources("common") if _imports(p) & {"accounts", "games", "mahjong_site"}]
    backwards += [str(p) for p in _sources("accounts") if "games" in _imports(p)]
    assert backwards == []


def test_the_live_table_is_small_modules_and_only_the_store_knows_sql() -> None:
    """The store and its statements (rows.py): every other table module goes through a Change."""
    modules = sorted((ROOT / "games" / "table").glob("*.py"))
    assert [m.name for m in modules if len(m.read_text().splitlines()) > 420] == []
    sql = [m.name for m in modules if re.search(r"\bRowSql\b|_ROWS\b|on_commit", m.read_text())]
    assert sql == ["rows.py", "store.py"]
    assert not (ROOT / "games" / "services.py").exists()  # callers import the table module they need


def _architecture() -> ModuleType:
    """scripts/draw_architecture.py: the project's import graph, read with `ast`."""
    spec = importlib.util.spec_from_file_location(
        "draw_architecture", ROOT / "scripts" / "draw_architecture.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_no_modules_import_each_other_in_a_circle_outside_the_engine() -> None:
    """Every import counts — at the top, inside a function, under TYPE_CHECKING — in accounts,
    common, games and mahjong_site. A circle is broken by moving the shared piece down (as the
    delay's hands moved from ranks to ratings) or by naming what is needed (the watchers' view
    of a table socket); the engine's actions ↔ rule sets circle is a type only (docs/engine.md)."""
    drawn = _architecture()
    found = drawn.circles(drawn.import_graph())
    assert [group for group in found if not all(m.startswith("games.engine.") for m in group)] == []


def test_modules_are_at_most_400_lines_outside_the_engine() -> None:
    """Every module of the project's packages but the pure engine (docs/engine.md), the
    migrations, and the scripts beside them: one that grows past this is split by concern, as the
    services, the consumers, rendering, the moderation admin, matchmaking, the load test and the
    fuzzer were."""
    live = _sources("accounts", "common", "games", "mahjong_site")
    live = [p for p in live if "engine" not in p.relative_to(ROOT).parts[:2]]
    live += sorted((ROOT / "scripts").glob("*.py"))
    assert len(live) > 100 and ROOT / "games" / "sockets" / "table.py" in live
    assert ROOT / "scripts" / "loadtest.py" in live
    assert [str(p) for p in live if len(p.read_text().splitlines()) > 400] == []


def test_the_architecture_page_lists_the_packages_of_the_tree_and_its_drawing_is_current() -> None:
    """docs/architecture.md's package map names each package of games/ (and the project's other
    packages) exactly once; docs/architecture-imports.md is what scripts/draw_architecture.py draws."""
    listed = re.findall(r"^\| `([\w/]+)/` \|", (ROOT / "docs" / "architecture.md").read_text(), re.M)
    tree = [f"games/{p.parent.name}" for p in sorted((ROOT / "games").glob("*/__init__.py"))]
    tree += [
        p.parent.name
        for p in sorted(ROOT.glob("*/__init__.py"))
        if p.parent.name in ("accounts", "common", "mahjong_site")
    ]
    assert sorted(listed) == sorted(tree)
    drawn = _architecture()
    assert (ROOT / "docs" / "architecture-imports.md").read_text() == drawn.drawing(drawn.import_graph())


def test_each_fact_is_defined_once() -> None:
    definitions = {
        r"^WIND_ZH\s*[:=]": 1,  # the engine's tiles
        r"东 East|\"东南西北\"|\(\"East\", \"South\"": 0,  # (spelled out again elsewhere)
        r"^MAX_BASE\s*[:=]": 1,  # the rule sets' base
        r"^def may_watch\b": 1,  # games.table.access
        r"^LOBBY_GROUP\b|lobby\.changed": 0,  # nobody joined the lobby's group: it polls
        r"^def after\b": 0,  # clock.after, unused
        r"except ImportError": 0,  # the consumers' renderers are always there
    }
    text = {path: path.read_text() for path in _sources("games", "common")}
    for pattern, count in definitions.items():
        hits = [str(p) for p, t in text.items() for _ in re.finditer(pattern, t, re.M)]
        assert len(hits) == count, (pattern, hits)


def test_the_even_stake_rule_is_the_rule_sets() -> None:
    """Yihua's even base stake is a fact of its `Ruleset`, not a variant name tested in the live code."""
    prose = {ROOT / "games" / "rules" / "content.py", ROOT / "games" / "rules" / "pages.py"}
    live = [p for p in _sources("games", "common") if "engine" not in p.parts and p not in prose]
    assert [str(p) for p in live if re.search(r"==\s*\"yihua\"\s*and\s*base", p.read_text())] == []
