# SPDX-License-Identifier: MIT
"""Names the band-aids a change made to a pytest test, read with Python's own
parser (the ast module): flakesweep compare and verify run it once per
changed file as

    python3 flakesweep_bandaids.py BEFORE AFTER [TEST]

BEFORE and AFTER are the file's two versions (an empty path: the file is
absent on that side); TEST is the test's function name, or empty. Each
top-level function, method and class is compared on its own. It prints one
line per finding, KIND<TAB>LINE<TAB>DECL<TAB>TEXT, LINE in AFTER (BEFORE for
what was removed), DECL the function or method that holds it (its
decorators included; a class's name for the rest of a class body, empty at
module level): sleep, retry, flaky-marker, timeout, assertion, swallowed,
skip, renamed (TEST gone), and sync for a synchronisation primitive added (a
sign of a real fix). When AFTER declares TEST, a last line
"uses<TAB>0<TAB>TEST<TAB>NAMES" lists the names, attributes and parameters
(fixtures) it names, space-separated. Exit status 0, or 2 when a version does
not parse (the error on stderr).
"""
import ast
import sys

SLEEPS = {("time", "sleep"), ("asyncio", "sleep"), ("trio", "sleep"), ("gevent", "sleep")}
SYNC = {
    ("threading", n) for n in ("Lock", "RLock", "Event", "Condition", "Semaphore",
                               "BoundedSemaphore", "Barrier")
} | {("asyncio", n) for n in ("Lock", "Event", "Condition", "Semaphore", "Queue", "Barrier",
                               "gather", "wait_for")} | {
    ("multiprocessing", n) for n in ("Lock", "Event", "Queue", "Barrier")
} | {("queue", "Queue")}
RETRY_DECORATORS = {"retry", "retrying", "backoff", "tenacity", "on_exception", "repeat"}
FLAKY_DECORATORS = {"flaky", "rerun", "reruns"}
FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)
SKIP_DECORATORS = {"skip", "skipif", "skipIf", "skipUnless", "xfail", "expectedFailure"}


class Version:
    """One side: its source lines, its imports' aliases and TEST."""

    def __init__(self, path, test):
        self.lines = []
        self.tree = None
        self.alias = {}
        self.test = None
        self.test_line = 0
        self.decl_line = {}
        if not path:
            return
        with open(path, encoding="utf-8", errors="replace") as f:
            src = f.read()
        self.lines = src.splitlines()
        self.tree = ast.parse(src, filename=path)
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Import):
                for a in node.names:
                    self.alias[a.asname or a.name] = (a.name, None)
            elif isinstance(node, ast.ImportFrom) and node.module:
                for a in node.names:
                    self.alias[a.asname or a.name] = (node.module, a.name)
        for node, name in self.decls():
            self.decl_line.setdefault(name, node.lineno)
            if test and name == test and isinstance(node, FUNCS) and self.test is None:
                self.test = node
                self.test_line = node.lineno

    def decls(self):
        """Each part compared on its own with its name: module-level
        statements (""), functions, methods, and the rest of class bodies."""
        out = []
        for node in self.tree.body if self.tree else []:
            if isinstance(node, FUNCS):
                out.append((node, node.name))
            elif isinstance(node, ast.ClassDef):
                out.append((node, node.name))
                out += [(n, n.name) for n in node.body if isinstance(n, FUNCS)]
            else:
                out.append((node, ""))
        return out

    def text(self, line):
        if 0 < line <= len(self.lines):
            return self.lines[line - 1].strip().replace("\t", " ")
        return ""

    def qualified(self, func):
        """(module, name) a call's function resolves to through the imports."""
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            mod = self.alias.get(func.value.id)
            if mod is not None and mod[1] is None:
                return (mod[0], func.attr)
            return (func.value.id, func.attr)
        if isinstance(func, ast.Name):
            mod = self.alias.get(func.id)
            if mod is not None and mod[1] is not None:
                return (mod[0], mod[1])
            return ("", func.id)
        return ("", "")

    def sites(self):
        """Every finding as (kind, line, detail, decl)."""
        out = []
        for scope, name in self.decls():
            out += [s + (name,) for s in self.scope_sites(scope)]
        return out

    def scope_sites(self, scope):
        """The findings of one part; a class's methods are parts of their own."""
        out = []
        todo = [scope]
        while todo:
            node = todo.pop()
            if isinstance(node, ast.ClassDef) and node is scope:
                todo += [n for n in ast.iter_child_nodes(node) if not isinstance(n, FUNCS)]
                out += [d for e in node.decorator_list for d in self.decorator(e)]
                continue
            if isinstance(node, FUNCS):
                for d in node.decorator_list:
                    out += self.decorator(d)
            out += self.node(node)
            todo += list(ast.iter_child_nodes(node))
        return out

    def uses(self):
        """The names, attributes and parameters TEST names, once each."""
        seen = []
        for n in ast.walk(self.test):
            name = getattr(n, "id", None) or getattr(n, "attr", None) or getattr(n, "arg", None)
            if isinstance(name, str) and name not in seen:
                seen.append(name)
        return seen

    def decorator(self, d):
        call = d.func if isinstance(d, ast.Call) else d
        name = call.attr if isinstance(call, ast.Attribute) else getattr(call, "id", "")
        if name in FLAKY_DECORATORS:
            return [("flaky-marker", d.lineno, name)]
        if name in RETRY_DECORATORS:
            return [("retry", d.lineno, name)]
        if name in SKIP_DECORATORS:
            return [("skip", d.lineno, name)]
        if name == "timeout" and isinstance(d, ast.Call) and d.args:
            return [("timeout", d.lineno, number(d.args[0]))]
        return []

    def node(self, node):
        out = []
        if isinstance(node, ast.Call):
            q = self.qualified(node.func)
            if q in SLEEPS:
                out.append(("sleep", node.lineno, q))
            elif q in SYNC:
                out.append(("sync", node.lineno, q))
            elif q[1] in ("skip", "skipTest") or q == ("pytest", "importorskip"):
                out.append(("skip", node.lineno, q))
            elif q[1].startswith("assert") or q == ("pytest", "raises"):
                out.append(("assertion", node.lineno, q))
            for k in node.keywords:
                if k.arg in ("timeout", "deadline"):
                    out.append(("timeout", node.lineno, number(k.value)))
        elif isinstance(node, ast.Assert):
            out.append(("assertion", node.lineno, "assert"))
        elif isinstance(node, (ast.For, ast.While, ast.AsyncFor)):
            if any(isinstance(n, (ast.Try, ast.Break, ast.Continue)) for n in ast.walk(node)):
                out.append(("retry", node.lineno, "loop"))
        elif isinstance(node, ast.ExceptHandler):
            broad = node.type is None or getattr(node.type, "id", "") in ("Exception",
                                                                          "BaseException",
                                                                          "AssertionError")
            quiet = all(isinstance(s, (ast.Pass, ast.Continue)) or
                        (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))
                        for s in node.body)
            if broad and quiet:
                out.append(("swallowed", node.lineno, "except"))
        elif isinstance(node, ast.With):
            for item in node.items:
                e = item.context_expr
                if isinstance(e, ast.Call) and self.qualified(e.func)[1] in ("suppress",):
                    out.append(("swallowed", node.lineno, "suppress"))
        return out


def number(node):
    try:
        return float(ast.literal_eval(node))
    except (ValueError, TypeError, SyntaxError):
        return None


def compare(before, after, old, new, decl):
    """What the change added to (or removed from) the part named decl."""
    old = [s for s in old if s[3] == decl]
    new = [s for s in new if s[3] == decl]
    found = []
    for kind in ("sleep", "retry", "flaky-marker", "skip", "swallowed", "sync"):
        had = [s for s in old if s[0] == kind]
        has = [s for s in new if s[0] == kind]
        if len(has) > len(had):
            texts = [before.text(s[1]) for s in had]
            for s in has:
                t = after.text(s[1])
                if t in texts:
                    texts.remove(t)
                else:
                    found.append((kind, s[1], decl, t))
    old_t = [s[2] for s in old if s[0] == "timeout" and s[2] is not None]
    for s in new:
        if s[0] == "timeout" and s[2] is not None and old_t and s[2] > max(old_t):
            found.append(("timeout", s[1], decl, after.text(s[1])))
    had = len([s for s in old if s[0] == "assertion"])
    has = len([s for s in new if s[0] == "assertion"])
    if has < had and decl in after.decl_line:
        found.append(("assertion", after.decl_line[decl] or 1, decl,
                      "%d assertions before, %d after" % (had, has)))
    return found


def main():
    before_path, after_path = sys.argv[1], sys.argv[2]
    test = sys.argv[3] if len(sys.argv) > 3 else ""
    try:
        before, after = Version(before_path, test), Version(after_path, test)
    except SyntaxError as e:
        print("%s:%s: %s" % (e.filename, e.lineno, e.msg), file=sys.stderr)
        return 2
    found = []
    if before.test is not None and after.test is None:
        found.append(("renamed", before.test_line, test, before.text(before.test_line)))
    old, new = before.sites(), after.sites()
    decls = {s[3] for s in new} | {s[3] for s in old if s[3] in after.decl_line}
    for decl in sorted(decls):
        found += compare(before, after, old, new, decl)
    for kind, line, decl, text in sorted(found, key=lambda f: f[1]):
        print("%s\t%d\t%s\t%s" % (kind, line, decl, text))
    if after.test is not None:
        print("uses\t0\t%s\t%s" % (test, " ".join(after.uses())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
