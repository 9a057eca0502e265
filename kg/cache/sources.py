"""The package's modules and the imports between them, read from the source (nothing is imported).

The extraction cache digests the files that extraction really imports (`import_closure`), so an
edit anywhere extraction reaches invalidates cached entries; a test checks the graph has no cycle.
"""
from __future__ import annotations

import ast
import importlib.util
import pkgutil
from pathlib import Path

TOP = "kg"
MAPPED = ("kg.extractors", "kg.ontology")  # installed inside kg from the repository's top-level folders


def module_files(top: str = TOP) -> dict[str, Path]:
    """Every module and package (its __init__.py) under `top`, wherever installed, and its file."""
    files: dict[str, Path] = {}
    pending = [top, *(name for name in MAPPED if name.startswith(top + ".") or name == top)]
    while pending:
        name = pending.pop()
        spec = importlib.util.find_spec(name)  # imports the parent packages only (all light)
        if spec is None or name in files:
            continue
        files[name] = Path(spec.origin)
        for info in pkgutil.iter_modules(spec.submodule_search_locations or []):
            child = f"{name}.{info.name}"
            if info.ispkg:
                pending.append(child)
            else:
                files[child] = Path(spec.submodule_search_locations[0]) / f"{info.name}.py"
    return files


def is_type_checking(node: ast.AST) -> bool:
    """An `if TYPE_CHECKING:` block (its imports never run)."""
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def imported_names(path: Path, module: str, is_package: bool) -> set[str]:
    """Absolute names of everything `path` imports, at any depth, outside TYPE_CHECKING blocks."""
    names: set[str] = set()
    pending: list[ast.AST] = [ast.parse(path.read_text(encoding="utf-8"))]
    while pending:
        node = pending.pop()
        if is_type_checking(node):
            continue
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = module.split(".")[: len(module.split(".")) - node.level + is_package]
                base = ".".join(parts + ([base] if base else []))
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
        pending.extend(statements(node))
    return names


def statements(node: ast.AST) -> list[ast.AST]:
    """The statements directly inside a node (bodies, branches, handlers, match cases): where imports can stand;
    expressions cannot hold one, so they are not walked."""
    found: list[ast.AST] = []
    for field in ("body", "orelse", "finalbody", "handlers", "cases"):
        value = getattr(node, field, None)
        if isinstance(value, list):
            found.extend(child for child in value if isinstance(child, (ast.stmt, ast.excepthandler, ast.match_case)))
    return found


def import_graph(top: str = TOP) -> dict[str, set[str]]:
    """For each module of `top`, the modules of `top` it imports (packages count as their __init__)."""
    files = module_files(top)
    return {module: {name for name in imported_names(path, module, path.name == "__init__.py")
                     if name in files and name != module}
            for module, path in files.items()}


def import_closure(*roots: str, top: str = TOP) -> list[str]:
    """The modules that importing `roots` runs: their imports, transitively, and parent packages (only the
    modules reached are read)."""
    files = module_files(top)
    seen: set[str] = set()
    pending = [r for r in roots if r in files]
    while pending:
        module = pending.pop()
        if module in seen:
            continue
        seen.add(module)
        path = files[module]
        imports = {n for n in imported_names(path, module, path.name == "__init__.py") if n in files and n != module}
        parents = [module.rsplit(".", i)[0] for i in range(1, module.count(".") + 1)]
        pending.extend(m for m in (*imports, *parents) if m in files)
    return sorted(seen)


def find_cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import cycle as a list of modules (first repeated at the end), or [] if there is none."""
    state: dict[str, int] = {}  # 1 = on the current path, 2 = done
    path: list[str] = []

    def visit(module: str) -> list[str]:
        state[module] = 1
        path.append(module)
        for target in sorted(graph.get(module, ())):
            if state.get(target) == 1:
                return path[path.index(target):] + [target]
            if target not in state and (cycle := visit(target)):
                return cycle
        state[module] = 2
        path.pop()
        return []

    for module in sorted(graph):
        if module not in state and (cycle := visit(module)):
            return cycle
    return []


WEIGHTS = "weights"  # trained weights: keyed by the combiner that reads them (its `fingerprint`), not as code


def data_files(directory: Path) -> list[Path]:
    """A package folder's files that are not Python modules, in data folders too (not in sub-packages, not
    `weights` folders)."""
    found = []
    for path in sorted(directory.iterdir()):
        if path.is_file() and path.suffix not in (".py", ".pyc"):
            found.append(path)
        elif path.is_dir() and path.name not in ("__pycache__", WEIGHTS) and not (path / "__init__.py").exists():
            found.extend(p for p in sorted(path.rglob("*")) if p.is_file() and "__pycache__" not in p.parts)
    return found


def package_files(modules: list[str], data_packages: dict[str, tuple[str, ...]] | None = None,
                  whole_packages: list[str] | None = None) -> list[tuple[str, Path]]:
    """(name, file) of each module's source, of the data files of its package and of `data_packages` (package ->
    the suffixes of the files read, all when none), and of every file of `whole_packages` (top-level packages
    outside kg), in a fixed order."""
    files = module_files()
    suffixes = data_packages or {}
    named: dict[str, Path] = {}
    for module in modules:
        named[module] = files[module]
    for package in sorted({*suffixes, *(m for m in modules if files[m].name == "__init__.py")}):
        folder, read = files[package].parent, suffixes.get(package, ())
        named.update((f"{package}/{p.relative_to(folder).as_posix()}", p) for p in data_files(folder)
                     if not read or p.suffix in read)
    for package in whole_packages or []:
        spec = importlib.util.find_spec(package)
        for location in (spec.submodule_search_locations or []) if spec else []:
            named.update((f"{package}/{p.relative_to(location).as_posix()}", p) for p in sorted(Path(location).rglob("*"))
                         if p.is_file() and "__pycache__" not in p.parts)
    return sorted(named.items())
