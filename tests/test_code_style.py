"""The floor plan holds: ruff is clean, the shared core imports no domain app, imports stay at the top of
a module unless they break an import cycle (and say which; the benchmark's entry point also imports once
it has configured Django), and no two apps' files import each other in a cycle."""

import ast
import subprocess
import sys
from pathlib import Path

import networkx

BASE_DIR = Path(__file__).resolve().parent.parent
DOMAIN_APPS = {"accounts", "harvest", "institutions", "pages", "papers", "researchers", "analysis", "chat"}
PROJECT_PACKAGES = {"wovepaper"}
SOURCE_DIRS = ["core", "devserver", "wovepaper", "bench", *sorted(DOMAIN_APPS)]


def _modules() -> dict[str, Path]:
    modules = {}
    for directory in SOURCE_DIRS:
        for path in (BASE_DIR / directory).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            parts = path.relative_to(BASE_DIR).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            modules[name] = path
    return modules


def _imports(tree: ast.AST) -> list[tuple[ast.AST, str, bool]]:
    """(node, imported module, inside a function) for every import, TYPE_CHECKING blocks left out."""
    found = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                continue
            inside = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
            if isinstance(child, ast.Import):
                found.extend((child, alias.name, in_function) for alias in child.names)
            elif isinstance(child, ast.ImportFrom) and child.module and not child.level:
                found.extend((child, f"{child.module}.{alias.name}", in_function) for alias in child.names)
            visit(child, inside)

    visit(tree, False)
    return found


def _resolve(imported: str, modules: dict[str, Path]) -> str | None:
    """The project module an import names (`papers.models.Paper` is papers.models), or None."""
    while imported and imported not in modules:
        imported = imported.rpartition(".")[0]
    return imported or None


def test_the_code_passes_ruff():
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-cache", "."],
        cwd=BASE_DIR,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout


def test_the_core_imports_no_domain_app_nor_the_project():
    offences = [
        f"{name} imports {imported}"
        for name, path in _modules().items()
        if name.split(".")[0] == "core"
        for _node, imported, _inside in _imports(ast.parse(path.read_text()))
        if imported.split(".")[0] in DOMAIN_APPS | PROJECT_PACKAGES
    ]
    assert offences == []


def test_imports_inside_functions_name_the_cycle_they_break():
    offences = []
    for name, path in _modules().items():
        lines = path.read_text().splitlines()
        for node, imported, inside in _imports(ast.parse(path.read_text())):
            said = lines[node.lineno - 1] + (lines[node.lineno - 2] if node.lineno > 1 else "")
            reasons = ("cycle", "needs Django configured", "import cost")
            if inside and not any(reason in said for reason in reasons):
                offences.append(f"{name}:{node.lineno} imports {imported} inside a function")
    assert offences == []


def test_no_files_of_different_apps_import_each_other_in_a_cycle():
    """Module-level imports only: an import inside a function (commented) is how a cycle is broken."""
    modules = _modules()
    graph = networkx.DiGraph()
    for name, path in modules.items():
        for _node, imported, inside in _imports(ast.parse(path.read_text())):
            target = _resolve(imported, modules)
            if target and target != name and not inside:
                graph.add_edge(name, target)
    cycles = [cycle for cycle in networkx.simple_cycles(graph) if len({m.split(".")[0] for m in cycle}) > 1]
    assert cycles == []


def test_harvest_has_no_import_cycle():
    modules = {name: path for name, path in _modules().items() if name.split(".")[0] == "harvest"}
    graph = networkx.DiGraph()
    for name, path in modules.items():
        for _node, imported, _inside in _imports(ast.parse(path.read_text())):
            target = _resolve(imported, modules)
            if target and target != name:
                graph.add_edge(name, target)
    assert list(networkx.simple_cycles(graph)) == []
