#!/usr/bin/env python3
"""The shared layers name no workload (docs/design.md): no word equal to a workload's name
(a folder of miniapp/workloads/, in any case: "ChebFD" as well as "chebfd"; whole words) in any file of miniapp/config,
comm, record, io, metrics, loop or core. What a workload is lives in its module; a lower layer
that needs a workload's property reads it from the module's entry.

  check_shared_layers.py ROOT        exit 0, or 1 listing file:line: word
  check_shared_layers.py --self-test a made-up tree with one offence must fail, a clean one pass
"""
import os
import re
import sys
import tempfile

SHARED = ("config", "comm", "record", "io", "metrics", "loop", "core")


def offences(root):
    miniapp = os.path.join(root, "miniapp")
    names = sorted(d for d in os.listdir(os.path.join(miniapp, "workloads"))
                   if os.path.isdir(os.path.join(miniapp, "workloads", d)))
    if not names:
        raise SystemExit("no workload folders under %s/workloads" % miniapp)
    word = re.compile(r"(?<![\w])(%s)(?![\w])" % "|".join(map(re.escape, names)), re.IGNORECASE)
    found = []
    for layer in SHARED:
        for dirpath, _, files in os.walk(os.path.join(miniapp, layer)):
            for f in sorted(files):
                path = os.path.join(dirpath, f)
                with open(path, encoding="utf-8", errors="replace") as fh:
                    for n, line in enumerate(fh, 1):
                        for m in word.finditer(line):
                            found.append("%s:%d: %s" % (os.path.relpath(path, root), n, m.group(1)))
    return names, found


def self_test():
    with tempfile.TemporaryDirectory() as tmp:
        for d in ("miniapp/workloads/frob", "miniapp/comm", "miniapp/config"):
            os.makedirs(os.path.join(tmp, d))
        with open(os.path.join(tmp, "miniapp/comm/x.hpp"), "w") as fh:
            fh.write("// frobnicate is fine, frob_x too\nint a;\n")
        ok = not offences(tmp)[1]
        with open(os.path.join(tmp, "miniapp/config/y.hpp"), "w") as fh:
            fh.write("const char* w = \"frob\";\n// the Frob study's metric\n")
        caught = offences(tmp)[1] == ["miniapp/config/y.hpp:1: frob", "miniapp/config/y.hpp:2: Frob"]
    print("self-test: clean tree passes: %s, offence caught: %s" % (ok, caught))
    return 0 if ok and caught else 1


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    names, found = offences(sys.argv[1])
    if found:
        print("the shared layers (%s) name workloads (%s):" % (", ".join(SHARED), ", ".join(names)))
        print("\n".join(found))
        return 1
    print("no workload name (%s) in %s" % (", ".join(names), ", ".join(SHARED)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
