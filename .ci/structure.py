#!/usr/bin/env python3
"""Structure limits of crates/ (issue 29): no file over 800 lines (generated tables excepted),
no function over 100 lines, no two functions of one name in one file (trait impls excepted:
`fn fmt` in two `Display` impls is one name by the trait's choice).

    .ci/structure.py [--max-file 800] [--max-fn 100] [ROOT ...]

Prints one line per violation and exits 1 if there is any. A file whose first lines say
`@generated` is a generated table and is skipped for the file limit.
"""
import re, sys, pathlib

max_file, max_fn, roots = 800, 100, []
args = sys.argv[1:]
while args:
    a = args.pop(0)
    if a == "--max-file": max_file = int(args.pop(0))
    elif a == "--max-fn": max_fn = int(args.pop(0))
    else: roots.append(a)
roots = roots or ["crates"]

FN = re.compile(r"^\s*(?:#\[[^\]]*\]\s*)*(?:pub(?:\([^)]*\))?\s+)?(?:const\s+)?(?:async\s+)?(?:unsafe\s+)?(?:extern\s+\"[^\"]*\"\s+)?fn\s+([A-Za-z_][A-Za-z0-9_]*)")
IMPL = re.compile(r"^\s*(?:unsafe\s+)?impl\b(.*)")

def strip(line, state):
    """Drops comments and string/char contents from a line; state carries block comments."""
    out, i, n = [], 0, len(line)
    while i < n:
        if state["block"]:
            j = line.find("*/", i)
            if j < 0: return "".join(out)
            state["block"] -= 1; i = j + 2; continue
        c = line[i]
        if line.startswith("//", i): break
        if line.startswith("/*", i): state["block"] += 1; i += 2; continue
        if c == '"':
            j = i + 1
            while j < n and line[j] != '"':
                j += 2 if line[j] == "\\" else 1
            out.append('""'); i = j + 1; continue
        if c == "'" and i + 2 < n and (line[i + 2] == "'" or (line[i + 1] == "\\")):
            j = line.find("'", i + 2 if line[i + 1] != "\\" else i + 3)
            out.append("' '"); i = (j + 1) if j > 0 else n; continue
        out.append(c); i += 1
    return "".join(out)

bad = 0
for root in roots:
    for path in sorted(pathlib.Path(root).rglob("*.rs")):
        if "target" in path.parts: continue
        lines = path.read_text().splitlines()
        head = "\n".join(lines[:5])
        if len(lines) > max_file and "@generated" not in head:
            print(f"{path}: {len(lines)} lines (> {max_file})"); bad += 1
        state = {"block": 0}
        depth = 0
        stack = []      # (kind, name, start_line, depth_at_open, trait_impl)
        pending = None  # a fn or impl header waiting for its `{`
        names = {}
        for no, raw in enumerate(lines, 1):
            line = strip(raw, state)
            m = FN.match(line)
            if m and pending is None:
                in_trait_impl = any(k == "impl" and t for k, _, _, _, t in stack)
                in_trait_def = any(k == "trait" for k, _, _, _, _ in stack)
                pending = ("fn", m.group(1), no, in_trait_impl or in_trait_def)
            elif pending is None:
                im = IMPL.match(line)
                if im:
                    pending = ("impl", "", no, " for " in im.group(1))
                elif re.match(r"^\s*(?:pub(?:\([^)]*\))?\s+)?(?:unsafe\s+)?trait\s", line):
                    pending = ("trait", "", no, False)
                elif re.match(r"^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+\w+\s*\{", line):
                    pending = ("mod", "", no, False)
            for ch in line:
                if ch == "{":
                    if pending is not None:
                        kind, name, start, flag = pending
                        stack.append((kind, name, start, depth, flag)); pending = None
                    else:
                        stack.append(("block", "", no, depth, False))
                    depth += 1
                elif ch == "}":
                    depth -= 1
                    if stack:
                        kind, name, start, _, flag = stack.pop()
                        if kind == "fn":
                            length = no - start + 1
                            if length > max_fn:
                                print(f"{path}:{start}: fn {name} is {length} lines (> {max_fn})"); bad += 1
                            if not flag and not any(k == "fn" for k, *_ in stack):
                                mods = tuple(s for k, _, s, _, _ in stack if k == "mod")
                                names.setdefault((mods, name), []).append(start)
                elif ch == ";" and pending is not None and pending[0] == "fn":
                    pending = None  # a declaration without a body
        for (mods, name), starts in names.items():
            if len(starts) > 1:
                print(f"{path}:{starts[1]}: fn {name} also at line {starts[0]}"); bad += 1
sys.exit(1 if bad else 0)
