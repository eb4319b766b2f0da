"""The tools/desync package has no import cycle: a module imports only modules that do not import
it back, directly or through others (imports inside functions count: they hide a cycle, they do
not remove it). The graph is read from the source with ast."""

import ast
import os
import unittest

PACKAGE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "desync")


def import_graph(package_dir):
    """{module: {modules of the same package it imports}} for every .py file of package_dir."""
    name = os.path.basename(package_dir)
    modules = {f[:-3] for f in os.listdir(package_dir) if f.endswith(".py")}
    graph = {}
    for m in sorted(modules):
        with open(os.path.join(package_dir, m + ".py"), encoding="utf-8") as fh:
            tree = ast.parse(fh.read(), filename=m + ".py")
        deps = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level == 1:
                    target = base.split(".")[0]
                elif base == name or base.startswith(name + "."):
                    target = base[len(name) + 1:].split(".")[0]
                else:
                    continue
                if target:
                    deps.add(target)
                else:  # from . import a, b
                    deps.update(a.name for a in node.names)
            elif isinstance(node, ast.Import):
                for a in node.names:
                    if a.name.startswith(name + "."):
                        deps.add(a.name.split(".")[1])
        graph[m] = {d for d in deps if d in modules and d != m}
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
        self.assertIsNone(find_cycle({"a": {"b"}, "b": {"c"}, "c": set()}))

    def test_reads_function_level_imports(self):
        graph = import_graph(PACKAGE)
        self.assertIn("cli", graph)
        self.assertTrue(any(graph.values()), "no import found at all: the reader is broken")

    def test_package_has_no_cycle(self):
        cycle = find_cycle(import_graph(PACKAGE))
        self.assertIsNone(cycle, "import cycle in tools/desync: %s" % " -> ".join(cycle or []))


if __name__ == "__main__":
    unittest.main()
