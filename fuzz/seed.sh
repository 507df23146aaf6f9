#!/usr/bin/env bash
# Seed corpus of the `shader` target: every WGSL string of the repository's crates, tests,
# examples, benches and docs, one file per distinct shader.
#
#   fuzz/seed.sh [OUT_DIR]     (default: fuzz/corpus/shader)
#
# WGSL lives in Rust string literals (plain and raw, also inside `///` and `//!` doc comments),
# in Rust code blocks of the Markdown guides and in ```wgsl blocks; `.wgsl` files are taken
# whole. A literal counts as WGSL when it has an entry point attribute, a `var<…>` or a struct
# declaration. The committed seeds are fuzz/seeds/shader (`fuzz/seed.sh fuzz/seeds/shader`).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$root/fuzz/corpus/shader}"
mkdir -p "$out"
python3 - "$root" "$out" <<'PY'
import hashlib, os, re, sys

root, out = sys.argv[1], sys.argv[2]
WGSL = re.compile(r"@(vertex|fragment|compute)\b|\bvar<|\bstruct\s+\w+\s*\{")
IDENT = re.compile(r"[A-Za-z0-9_]")


def unescape(s):
    """A plain Rust string literal's value."""
    out, i = [], 0
    while i < len(s):
        c = s[i]
        if c != "\\":
            out.append(c)
            i += 1
            continue
        n = s[i + 1] if i + 1 < len(s) else ""
        if n == "\n":  # line continuation: the newline and the next line's indentation go
            i += 2
            while i < len(s) and s[i] in " \t\n\r":
                i += 1
            continue
        simple = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "\\": "\\", '"': '"', "'": "'"}
        if n in simple:
            out.append(simple[n])
            i += 2
        elif n == "u":
            m = re.match(r"u\{([0-9a-fA-F_]+)\}", s[i + 1 :])
            if m:
                out.append(chr(int(m.group(1).replace("_", ""), 16)))
                i += 1 + m.end()
            else:
                i += 2
        elif n == "x":
            out.append(chr(int(s[i + 2 : i + 4], 16)))
            i += 4
        else:
            out.append(n)
            i += 2
    return "".join(out)


def literals(src):
    """String literals of Rust source (comments and char literals skipped)."""
    i, n = 0, len(src)
    while i < n:
        c = src[i]
        if src.startswith("//", i):
            j = src.find("\n", i)
            i = n if j < 0 else j
        elif src.startswith("/*", i):
            j = src.find("*/", i + 2)
            i = n if j < 0 else j + 2
        elif c == "r" and (i == 0 or not IDENT.match(src[i - 1])) and re.match(r'r#*"', src[i:]):
            hashes = re.match(r'r(#*)"', src[i:]).group(1)
            start = i + 2 + len(hashes)
            end = src.find('"' + hashes, start)
            if end < 0:
                return
            yield src[start:end]
            i = end + 1 + len(hashes)
        elif c == '"':
            j = i + 1
            while j < n and src[j] != '"':
                j += 2 if src[j] == "\\" else 1
            yield unescape(src[i + 1 : j])
            i = j + 1
        elif c == "'":
            m = re.match(r"'(\\u\{[0-9a-fA-F]+\}|\\.|[^\\'])'", src[i:])
            i += m.end() if m else 1
        else:
            i += 1


def doc_comments(src):
    lines = []
    for line in src.splitlines():
        m = re.match(r"\s*//[/!] ?(.*)", line)
        if m:
            lines.append(m.group(1))
    return "\n".join(lines)


def fenced(md):
    """(language, body) of the fenced code blocks of Markdown."""
    for m in re.finditer(r"^```([^\n]*)\n(.*?)^```", md, re.S | re.M):
        yield m.group(1).strip(), m.group(2)


def shaders(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    if path.endswith(".wgsl"):
        yield text
    elif path.endswith(".rs"):
        yield from literals(text)
        yield from literals(doc_comments(text))
    elif path.endswith(".md"):
        for lang, body in fenced(text):
            if lang.startswith("wgsl"):
                yield body
            elif lang == "" or lang.startswith("rust") or lang.startswith("no_run"):
                yield from literals(body)
                yield from literals(doc_comments(body))


seen, total = set(), 0
for top in ["crates", "tests", "examples", "benches", "docs", "README.md"]:
    base = os.path.join(root, top)
    paths = [base] if os.path.isfile(base) else [
        os.path.join(d, f) for d, _, fs in os.walk(base) for f in fs
    ]
    for path in sorted(paths):
        if "/target/" in path or not path.endswith((".rs", ".md", ".wgsl")):
            continue
        for s in shaders(path):
            if not WGSL.search(s) or s in seen:
                continue
            seen.add(s)
            name = "seed-" + hashlib.sha1(s.encode()).hexdigest()[:16] + ".wgsl"
            with open(os.path.join(out, name), "w", encoding="utf-8") as f:
                f.write(s)
            total += len(s.encode())
print(f"{len(seen)} shaders, {total} bytes -> {out}")
PY
