#!/usr/bin/env python3
"""Lists the public declarations of the library that have no doc comment.

    python3 Scripts/check-docs.py [--all] [--summary] [PATH...]
    python3 Scripts/check-docs.py --guides [--ingest BINARY] [--links-only] [-v] [FILE...]

--guides checks the guides instead (README.md, Documentation/*.md, BENCHMARKS.md, ...):
every relative link resolves, to a file and to a heading's anchor, and every
command-line example runs with the ingest binary given; Scripts/check-guides.py does
that and says how.

PATH is a folder or file under Sources (default: every module but the command,
Sources/ingest, whose declarations are not a library's API). Each declaration that
a library user can see and that has no `///` (or `/** */`) comment right above it
(attributes such as `@discardableResult` may sit in between) is printed as

    Sources/IngestCore/Events/Name.swift:30: Name.description (var)

What counts as public, as Swift decides it:
- a declaration marked `public` or `open` whose enclosing types are public;
- every requirement of a public protocol, every case of a public enum;
- the members of a `public extension` that name no access level of their own.

Witnesses of standard-library protocols (`description`, `==`, `hash(into:)`,
`startIndex`, `encode(to:)`, ...) inherit the standard library's documentation and
are left out unless --all is given. --summary prints counts per folder only.

The exit status is 1 when something is undocumented, so the script can gate a
check; it reads sources only (no build needed), so it is quick but not a compiler:
it understands the code style of this repository, not every corner of Swift.
"""

import argparse
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXCLUDED = [os.path.join("Sources", "ingest")]

ACCESS = {"public", "open", "package", "internal", "fileprivate", "private"}
MODIFIERS = ACCESS | {
    "static", "class", "final", "override", "mutating", "nonmutating", "convenience",
    "required", "lazy", "weak", "unowned", "indirect", "dynamic", "nonisolated",
    "optional", "prefix", "postfix", "infix", "consuming", "borrowing", "distributed",
    "unowned(unsafe)", "unowned(safe)", "nonisolated(unsafe)", "private(set)",
    "fileprivate(set)", "internal(set)", "package(set)", "public(set)",
}
DECL_KEYWORDS = {
    "func", "var", "let", "init", "subscript", "class", "struct", "enum", "protocol",
    "case", "typealias", "actor", "associatedtype", "extension", "deinit", "macro",
}
TYPE_KEYWORDS = {"class", "struct", "enum", "protocol", "actor", "extension"}

# Witnesses of standard-library protocol requirements, which inherit its docs.
STANDARD_WITNESSES = [
    r"var description: String\s*\{", r"var debugDescription: String\s*\{", r"func ==", r"func <\s*\(",
    r"func hash\(into", r"var hashValue\b", r"var startIndex\b", r"var endIndex\b",
    r"func index\((after|before):", r"subscript\(position:", r"func makeIterator\(",
    r"func next\(\)", r"func encode\(to ", r"init\(from decoder", r"var errorDescription\b",
    r"func makeAsyncIterator\(", r"var localizedDescription\b",
]


def string_end(text, i):
    """The index just past the string literal that starts at `i` (a quote, three quotes, raw
    `#"`), skipping interpolations, which may hold strings of their own."""
    n = len(text)
    hashes = len(re.match(r"#*", text[i:]).group(0))
    start = i + hashes
    multiline = text.startswith('"""', start)
    quote = '"""' if multiline else '"'
    close = quote + "#" * hashes
    escape = "\\" + "#" * hashes
    j = start + len(quote)
    while j < n:
        if text.startswith(close, j):
            return j + len(close)
        if text.startswith(escape + "(", j):
            j = interpolation_end(text, j + len(escape) + 1)
            continue
        if text.startswith(escape, j):
            j += len(escape) + 1
            continue
        if text[j] == "\n" and not multiline:
            return j
        j += 1
    return n


def interpolation_end(text, j):
    """The index just past the `)` that closes an interpolation whose code starts at `j`."""
    depth, n = 1, len(text)
    while j < n:
        c = text[j]
        if c == '"' or (c == "#" and re.match(r'#+"', text[j:])):
            j = string_end(text, j)
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return j + 1
        j += 1
    return n


def sanitize(text):
    """The source with comments and the contents of string literals blanked (newlines
    kept), and the set of line numbers that are (part of) a doc comment."""
    out = []
    doc_lines = set()
    i, n, line = 0, len(text), 1
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            if text.startswith("///", i) and not text.startswith("////", i):
                doc_lines.add(line)
            out.append(" " * (end - i))
            i = end
        elif text.startswith("/*", i):
            is_doc = text.startswith("/**", i) and not text.startswith("/**/", i)
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            chunk = text[i:j]
            if is_doc:
                for k in range(chunk.count("\n") + 1):
                    doc_lines.add(line + k)
            out.append(re.sub(r"[^\n]", " ", chunk))
            line += chunk.count("\n")
            i = j
        elif c == '"' or (c == "#" and re.match(r'#+"', text[i:])):
            j = string_end(text, i)
            chunk = text[i:j]
            out.append('"' + re.sub(r"[^\n]", " ", chunk[1:-1]) + '"' if len(chunk) >= 2 else chunk)
            line += chunk.count("\n")
            i = j
        else:
            if c == "\n":
                line += 1
            out.append(c)
            i += 1
    return "".join(out), doc_lines


def header_tokens(stripped):
    """(attributes-stripped words before the keyword, keyword, rest) of a declaration
    line, or None."""
    rest = stripped
    while True:
        m = re.match(r"@[\w.]+(\((?:[^()]|\([^()]*\))*\))?\s*", rest)
        if not m or not m.group(0):
            break
        rest = rest[m.end():]
    words = []
    while True:
        m = re.match(r"([a-z]+(?:\((?:set|unsafe|safe)\))?)\s+", rest)
        if not m:
            break
        word = m.group(1)
        if word in DECL_KEYWORDS and not (word == "class" and re.match(r"class\s+(func|var|let|subscript|override|final)\b", rest)):
            return words, word, rest[m.end():]
        if word not in MODIFIERS:
            return None
        words.append(word)
        rest = rest[m.end():]
    m = re.match(r"(init|deinit|subscript)\b[?!]?", rest)
    if m:
        return words, m.group(1), rest[m.end():]
    return None


def declared_name(keyword, rest, full):
    if keyword in ("init", "subscript"):
        labels = parameter_labels(full, keyword)
        return f"{keyword}({labels})"
    if keyword == "func":
        m = re.match(r"([^\s(<]+)", rest)
        name = m.group(1) if m else "?"
        return f"{name}({parameter_labels(full, 'func')})"
    if keyword == "case":
        return ", ".join(re.findall(r"(?:^|,)\s*`?(\w+)`?", re.sub(r"\([^)]*\)|=\s*[^,]+", "", rest)))
    m = re.match(r"`?([\w.]+)`?", rest)
    return m.group(1) if m else "?"


def parameter_labels(full, keyword):
    start = full.find("(", full.find(keyword))
    if start < 0:
        return ""
    depth, j = 0, start
    while j < len(full):
        if full[j] in "([":
            depth += 1
        elif full[j] in ")]":
            depth -= 1
            if depth == 0:
                break
        j += 1
    inner = full[start + 1:j]
    params, depth, current = [], 0, ""
    for ch in inner:
        if ch in "([<":
            depth += 1
        elif ch in ")]>":
            depth -= 1
        if ch == "," and depth == 0:
            params.append(current)
            current = ""
        else:
            current += ch
    if current.strip():
        params.append(current)
    labels = []
    for p in params:
        head = p.split(":", 1)[0].split()
        if head:
            labels.append(head[0] + ":")
    return "".join(labels)


def scan(path):
    """Yields (line, qualified name, keyword, text) of each undocumented public
    declaration in the file at `path`."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    clean, doc_lines = sanitize(text)
    lines = clean.split("\n")
    raw = text.split("\n")
    # Context stack: dicts with kind ("type" or "body"), visible, default_public,
    # keyword, name.
    stack = []
    pending = None  # the declaration whose `{` has not been met yet
    for index, line in enumerate(lines):
        number = index + 1
        stripped = line.strip()
        in_body = any(frame["kind"] == "body" for frame in stack)
        if stripped and not stripped.startswith("#") and not in_body:
            parsed = header_tokens(stripped)
            if parsed:
                words, keyword, rest = parsed
                full = stripped
                # The header may go on over the next lines (parameters, where clauses).
                k = index
                while full.count("(") > full.count(")") and k + 1 < len(lines):
                    k += 1
                    full += " " + lines[k].strip()
                pending = {"keyword": keyword, "words": words, "rest": rest, "line": number,
                           "name": declared_name(keyword, rest, full)}
                visible = is_visible(stack, keyword, words)
                if visible and keyword not in ("deinit", "extension") and not documented(number, raw, doc_lines):
                    owner = ".".join(f["name"] for f in stack if f["kind"] == "type")
                    name = pending["name"]
                    qualified = f"{owner}.{name}" if owner else name
                    yield number, qualified, keyword, full
        for position, ch in enumerate(line):
            if ch == "{":
                if pending and pending["keyword"] in TYPE_KEYWORDS and not any(f["kind"] == "body" for f in stack):
                    words = pending["words"]
                    access = next((w for w in words if w in ACCESS), None)
                    parent_visible = all(f["visible"] for f in stack)
                    parent_default = stack[-1]["default_public"] if stack else False
                    if pending["keyword"] == "extension":
                        visible = access in (None, "public", "open")
                        default_public = access in ("public", "open")
                    else:
                        visible = parent_visible and (access in ("public", "open") or
                                                      (access is None and (parent_default or is_requirement(stack))))
                        default_public = visible and pending["keyword"] == "protocol"
                    stack.append({"kind": "type", "visible": visible, "default_public": default_public,
                                  "keyword": pending["keyword"], "name": pending["name"]})
                    # A one-line body, `public enum Shape { case array, object }`: its
                    # cases have no line of their own for a comment.
                    inline = line[position + 1:].strip()
                    if visible and pending["keyword"] == "enum" and inline.startswith("case "):
                        cases = declared_name("case", inline[5:].split("}")[0], inline)
                        owner = ".".join(f["name"] for f in stack if f["kind"] == "type")
                        yield number, f"{owner}.{cases}", "case", inline
                else:
                    stack.append({"kind": "body", "visible": False, "default_public": False,
                                  "keyword": None, "name": ""})
                pending = None
            elif ch == "}":
                if stack:
                    stack.pop()
                pending = None


def is_requirement(stack):
    return bool(stack) and stack[-1]["keyword"] == "protocol"


def is_visible(stack, keyword, words):
    access = next((w for w in words if w in ACCESS), None)
    if any(f["kind"] == "body" for f in stack):
        return False
    if not stack:
        return access in ("public", "open")
    if not all(f["visible"] for f in stack):
        return False
    frame = stack[-1]
    if access in ("public", "open"):
        return True
    if access is not None:
        return False
    if frame["keyword"] == "protocol":
        return True
    if frame["keyword"] == "enum" and keyword == "case":
        return True
    return frame["default_public"]


def documented(number, raw, doc_lines):
    k = number - 1  # the declaration's line, 1-based; look above it
    while k >= 1:
        above = raw[k - 1].strip()
        if k in doc_lines:
            return True
        # An attribute on a line of its own sits between a declaration and its
        # comment; a line that starts with an attribute and goes on to declare
        # something (`@exclusivity(unchecked) public var x`) is a declaration.
        if above.startswith("@") and header_tokens(above) is not None:
            return False
        if above.startswith("@") or above.startswith("#if") or above.startswith("#else") or above.startswith("#endif"):
            k -= 1
            continue
        return False
    return False


def swift_files(paths):
    for base in paths:
        if os.path.isfile(base):
            yield base
            continue
        for folder, dirs, files in os.walk(base):
            dirs.sort()
            rel = os.path.relpath(folder, ROOT)
            if any(rel == e or rel.startswith(e + os.sep) for e in EXCLUDED):
                continue
            for name in sorted(files):
                if name.endswith(".swift"):
                    yield os.path.join(folder, name)


def main():
    if "--guides" in sys.argv[1:]:
        import importlib.util
        spec = importlib.util.spec_from_file_location("check_guides", os.path.join(ROOT, "Scripts", "check-guides.py"))
        guides = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(guides)
        return guides.main([a for a in sys.argv[1:] if a != "--guides"])
    parser = argparse.ArgumentParser(description="List public declarations without doc comments.")
    parser.add_argument("paths", nargs="*", help="folders or files (default: Sources, without Sources/ingest)")
    parser.add_argument("--all", action="store_true", help="include witnesses of standard-library protocols")
    parser.add_argument("--summary", action="store_true", help="print counts per folder only")
    args = parser.parse_args()
    paths = [os.path.abspath(p) for p in args.paths] or [os.path.join(ROOT, "Sources")]
    witnesses = re.compile("|".join(STANDARD_WITNESSES))
    found = []
    for path in swift_files(paths):
        for number, name, keyword, text in scan(path):
            if not args.all and witnesses.search(text):
                continue
            found.append((os.path.relpath(path, ROOT), number, name, keyword))
    if args.summary:
        counts = {}
        for path, *_ in found:
            folder = os.path.dirname(path)
            counts[folder] = counts.get(folder, 0) + 1
        for folder in sorted(counts):
            print(f"{counts[folder]:5} {folder}")
    else:
        for path, number, name, keyword in found:
            print(f"{path}:{number}: {name} ({keyword})")
    print(f"{len(found)} public declaration{'' if len(found) == 1 else 's'} without a doc comment", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
