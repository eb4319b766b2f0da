"""The tools/desync package has no import cycle: a module imports only modules that do not import
it back, directly or through others (imports inside functions count: they hide a cycle, they do
not remove it). The graph is read from the source with ast, subpackages included (view_commands,
campaign_commands): relative imports of any level and absolute ones (`import desync.x`,
`from desync.x import y`, `from desync import x`)."""

import ast
import os
import unittest

PACKAGE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "desync")


def package_modules(package_dir):
    """{dotted name: path} of every module under package_dir, the package itself "desync" (its
    __init__.py), a subpackage "desync.sub", a module "desync.sub.mod"."""
    root = os.path.basename(os.path.normpath(package_dir))
    out = {}
    for where, dirs, files in os.walk(package_dir):
        dirs[:] = sorted(d for d in dirs if os.path.isfile(os.path.join(where, d, "__init__.py")))
        rel = os.path.relpath(where, package_dir)
        parts = [root] + ([] if rel == "." else rel.split(os.sep))
        for f in sorted(files):
            if f.endswith(".py"):
                name = parts if f == "__init__.py" else parts + [f[:-3]]
                out[".".join(name)] = os.path.join(where, f)
    return out


def imported(module, is_package, node):
    """The dotted names an import node of module names (before checking they exist): for
    `from X import a, b` both X and X.a, X.b (a name may be a submodule or an attribute)."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if node.level:
        base = module.split(".")
        if not is_package:
            base = base[:-1]  # a module's relative imports start from its package
        base = base[:len(base) - (node.level - 1)] if node.level > 1 else base
        target = ".".join(base + ([node.module] if node.module else []))
    else:
        target = node.module or ""
    return [target] + [target + "." + a.name for a in node.names if a.name != "*"]


def import_graph(package_dir):
    """{module: {modules of the package it imports}} for every module of package_dir."""
    modules = package_modules(package_dir)
    graph = {}
    for m, path in modules.items():
        with open(path, encoding="utf-8") as fh:
            tree = ast.parse(fh.read(), filename=path)
        is_package = path.endswith("__init__.py")
        deps = set()
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                deps.update(d for d in imported(m, is_package, node) if d in modules)
        deps.discard(m)
        graph[m] = deps
    return graph


def find_cycle(graph):
    """One cycle as a list [a, b, ..., a], or None."""
    state = {}
    stack = []

    def visit(v):
        state[v] = "open"
        stack.append(v)
        for w in sorted(graph.get(v, ())):
            if state.get(w) == "open":
                return stack[stack.index(w):] + [w]
            if w not in state:
                found = visit(w)
                if found:
                    return found
        stack.pop()
        state[v] = "done"
        return None

    for v in sorted(graph):
        if v not in state:
            found = visit(v)
            if found:
                return found
    return None


class ImportGraph(unittest.TestCase):
    def test_finder_sees_a_cycle(self):
        self.assertEqual(find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}), ["a", "b", "c", "a"])
        self.assertEqual(find_cycle({"a": {"a"}}), ["a", "a"])
        self.assertIsNone(find_cycle({"a": {"b"}, "b": {"c"}, "c": set()}))

    def test_resolves_every_kind_of_import(self):
        def deps(module, is_package, source):
            return imported(module, is_package, ast.parse(source).body[0])

        self.assertEqual(deps("desync.cli", False, "from .view_commands import summary"),
                         ["desync.view_commands", "desync.view_commands.summary"])
        self.assertEqual(deps("desync.view_commands.summary", False, "from ..h5file import open_output"),
                         ["desync.h5file", "desync.h5file.open_output"])
        self.assertEqual(deps("desync.view_commands", True, "from . import options"),
                         ["desync.view_commands", "desync.view_commands.options"])
        self.assertEqual(deps("desync.compare", False, "from desync.errors import DesyncError"),
                         ["desync.errors", "desync.errors.DesyncError"])
        self.assertEqual(deps("desync.x", False, "import desync.phases"), ["desync.phases"])

    def test_reads_function_level_imports(self):
        graph = import_graph(PACKAGE)
        self.assertIn("desync.cli", graph)
        self.assertIn("desync.view_commands.timeline", graph)
        self.assertIn("desync.view_commands.summary", graph["desync.cli"])
        self.assertIn("desync.summary", graph["desync.view_commands.summary"])
        self.assertTrue(any(graph.values()), "no import found at all: the reader is broken")

    def test_function_level_import_closes_a_cycle(self):
        import tempfile

        with tempfile.TemporaryDirectory() as tmp:
            pkg = os.path.join(tmp, "desync")
            os.makedirs(os.path.join(pkg, "sub"))
            for name, text in (("__init__.py", ""), ("a.py", "from .sub import b\n"),
                               ("sub/__init__.py", ""),
                               ("sub/b.py", "def f():\n    from ..a import g\n    return g\n")):
                with open(os.path.join(pkg, name), "w") as fh:
                    fh.write(text)
            self.assertEqual(find_cycle(import_graph(pkg)), ["desync.a", "desync.sub.b", "desync.a"])

    def test_package_has_no_cycle(self):
        cycle = find_cycle(import_graph(PACKAGE))
        self.assertIsNone(cycle, "import cycle in tools/desync: %s" % " -> ".join(cycle or []))


if __name__ == "__main__":
    unittest.main()
