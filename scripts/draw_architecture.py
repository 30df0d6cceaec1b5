"""Draw the packages of the Django project and the imports between them, from the code itself.

Reads every module of accounts/, common/, games/ and mahjong_site/ (not the migrations) with `ast`,
takes each import it makes — at the top, inside a function or under TYPE_CHECKING alike — and
folds the modules into their packages (docs/architecture.md, "Packages"). Writes
docs/architecture-imports.md, a Mermaid flowchart that GitHub and most Markdown viewers draw;
tests/test_structure.py checks that the committed drawing is this script's output and that no
modules import each other in a circle outside the engine.

    .venv/bin/python scripts/draw_architecture.py          # rewrite the drawing
    .venv/bin/python scripts/draw_architecture.py --check  # exit 1 if it is out of date
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROJECT = ("accounts", "common", "games", "mahjong_site")
DRAWING = ROOT / "docs" / "architecture-imports.md"


def modules(root: Path = ROOT) -> dict[str, Path]:
    """Dotted name → file, for every module of the project's packages but their migrations."""
    out = {}
    for package in PROJECT:
        for path in sorted((root / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


def _imported(node: ast.AST, package: str) -> Iterable[str]:
    if isinstance(node, ast.Import):
        yield from (alias.name for alias in node.names)
    elif isinstance(node, ast.ImportFrom):
        base = node.module or ""
        if node.level:  # relative: from the module's own package up
            parts = package.split(".")[: len(package.split(".")) - node.level + 1]
            base = ".".join([*parts, base] if base else parts)
        for alias in node.names:
            yield f"{base}.{alias.name}"  # a module, or a name in `base`
            yield base


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    """Module → the project modules it imports (anywhere in its body)."""
    found = modules(root)

    def resolve(name: str) -> str | None:
        while name and name not in found:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for name, path in found.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        targets = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ImportFrom) and not node.level:
                # `from a.b import c`: the module a.b.c when it is one, else a.b
                names = [f"{node.module}.{alias.name}" for alias in node.names]
                targets |= {n if n in found else resolve(node.module or "") for n in names}
            else:
                targets |= {resolve(n) for n in _imported(node, package)}
        graph[name] = {t for t in targets if t and t != name}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        out.append(sorted(group))
    return out


def package_of(module: str) -> str:
    """The package a module is drawn in: `games.<package>` for the packages inside games, else
    the top package. The app's rows are drawn as one: each package's `models` module sits with
    games/models.py in `games` (the app root with its admin and config), below every concern."""
    parts = module.split(".")
    if parts[0] == "games" and parts[-1] == "models":
        return "games"
    if parts[0] == "games" and len(parts) > 1 and (ROOT / "games" / parts[1]).is_dir():
        return f"games.{parts[1]}"
    return parts[0]


def package_edges(graph: dict[str, set[str]]) -> set[tuple[str, str]]:
    return {(package_of(a), package_of(b)) for a, targets in graph.items() for b in targets} - {
        (p, p) for p in map(package_of, graph)
    }


def drawing(graph: dict[str, set[str]]) -> str:
    packages = sorted({package_of(m) for m in graph})
    ids = {p: p.replace(".", "_") for p in packages}
    lines = [
        "# Packages and their imports",
        "",
        "Generated by `scripts/draw_architecture.py` from the code's imports (do not edit: run the",
        "script). An arrow points from a package to one it imports; docs/architecture.md says what",
        "lives in each.",
        "",
        "```mermaid",
        "flowchart LR",
    ]
    lines += [f'    {ids[p]}["{p}"]' for p in packages]
    lines += [f"    {ids[a]} --> {ids[b]}" for a, b in sorted(package_edges(graph))]
    lines += ["```", ""]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    text = drawing(import_graph())
    if "--check" in argv:
        return 0 if DRAWING.exists() and DRAWING.read_text() == text else 1
    DRAWING.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
