#!/usr/bin/env python3
"""Add the standard error answers every operation of docs/api/openapi.yaml can give.

Usage: scripts/openapi-fix.py [--check] [FILE]

The server answers some errors for whole classes of routes (internal/httpapi):
  401  every route that is not public (`security: []`): no, expired or revoked token;
  400  every route that reads a body: malformed JSON or form;
  413  every route that reads a body: over the body limit;
  415  every route that reads a body: a content type the route does not take;
  422  every route that reads a body or query parameters: validation;
  404  every route with a path parameter: no such row, or one the caller may not see.
This script adds those that an operation does not list, as
`$ref: '#/components/responses/Error'`, inserted in code order into the
operation's `responses:` block. It edits the text (the file keeps its
formatting) and is idempotent: run it again after merging new paths.
It also turns the OpenAPI 3.0 `nullable: true` next to a `type: X` into the
OpenAPI 3.1 form `type: [X, 'null']` (the document is 3.1, where validators
ignore `nullable`, so null answers were refused).
With --check it changes nothing and exits 1 when something is missing.
"""
import re
import sys

import yaml

METHODS = {"get", "put", "post", "delete", "patch", "head", "options"}


def wanted(doc, path, op):
    codes = set()
    secured = op.get("security", doc.get("security", [])) != []
    params = list(op.get("parameters", [])) + list(doc["paths"][path].get("parameters", []))
    resolved = []
    for p in params:
        if "$ref" in p:
            name = p["$ref"].rsplit("/", 1)[-1]
            p = doc.get("components", {}).get("parameters", {}).get(name, {})
        resolved.append(p)
    if secured:
        codes.add("401")
    if "requestBody" in op:
        codes.update({"400", "413", "415", "422"})
    if any(p.get("in") == "query" for p in resolved):
        codes.add("422")
    if "{" in path:
        codes.add("404")
    return codes


def nullable_to_31(lines):
    """Rewrite `nullable: true` beside `type: X` as `type: [X, 'null']`."""
    out = list(lines)
    drop = set()
    changed = 0
    for i, line in enumerate(out):
        m = re.match(r"^( +)nullable: true\s*$", line)
        if not m:
            continue
        ind = m.group(1)
        # The sibling keys: lines at the same indent until a shallower one.
        j = i - 1
        found = None
        while j >= 0 and (out[j].startswith(ind) or out[j].strip() == ""):
            if re.match("^" + ind + r"type: ([A-Za-z]+)\s*$", out[j]):
                found = j
                break
            j -= 1
        if found is None:
            j = i + 1
            while j < len(out) and (out[j].startswith(ind) or out[j].strip() == ""):
                if re.match("^" + ind + r"type: ([A-Za-z]+)\s*$", out[j]):
                    found = j
                    break
                j += 1
        if found is None:
            continue
        t = re.match("^" + ind + r"type: ([A-Za-z]+)", out[found]).group(1)
        out[found] = f"{ind}type: [{t}, 'null']"
        drop.add(i)
        changed += 1
    # The same inside one-line mappings: {type: string, ..., nullable: true}.
    flow = re.compile(r"\{type: ([A-Za-z]+)((?:, (?!nullable)[^{}]*?)?), nullable: true((?:, [^{}]*)?)\}")
    for i, line in enumerate(out):
        if i in drop:
            continue
        new, n = flow.subn(lambda m: "{type: [" + m.group(1) + ", 'null']" + m.group(2) + m.group(3) + "}", line)
        if n:
            out[i] = new
            changed += n
    return [l for k, l in enumerate(out) if k not in drop], changed


def main():
    args = [a for a in sys.argv[1:] if a != "--check"]
    check = "--check" in sys.argv[1:]
    name = args[0] if args else "docs/api/openapi.yaml"
    with open(name) as f:
        text = f.read()
    doc = yaml.safe_load(text)
    lines, nulls = nullable_to_31(text.split("\n"))
    # Index the operations' lines: path at indent 2, method at 4,
    # responses at 6, codes at 8.
    missing_total = 0
    out = []
    i = 0
    path = method = None
    in_paths = False
    while i < len(lines):
        line = lines[i]
        if re.match(r"^\S", line):
            in_paths = line.startswith("paths:")
            path = method = None
        elif in_paths:
            m = re.match(r"^  (/\S*):\s*$", line)
            if m:
                path, method = m.group(1), None
            m = re.match(r"^    (\w+):\s*$", line)
            if m and path is not None:
                method = m.group(1) if m.group(1) in METHODS else None
            if method and re.match(r"^      responses:\s*$", line):
                op = doc["paths"][path][method]
                have = {str(c) for c in op.get("responses", {})}
                need = sorted(wanted(doc, path, op) - have)
                missing_total += len(need)
                out.append(line)
                i += 1
                # Copy the block, inserting each missing code before the
                # first listed code above it.
                while i < len(lines) and (lines[i].strip() == "" or lines[i].startswith("        ")):
                    cm = re.match(r"^        '?(\d{3}|default)'?:", lines[i])
                    if cm:
                        code = cm.group(1)
                        while need and (code == "default" or need[0] < code):
                            out.append(f"        '{need.pop(0)}':")
                            out.append("          $ref: '#/components/responses/Error'")
                    out.append(lines[i])
                    i += 1
                # Trailing blank lines belong after the block.
                trail = []
                while out and out[-1].strip() == "":
                    trail.append(out.pop())
                for code in need:
                    out.append(f"        '{code}':")
                    out.append("          $ref: '#/components/responses/Error'")
                out.extend(trail)
                continue
        out.append(line)
        i += 1
    if check:
        if missing_total or nulls:
            print(f"{name}: {missing_total} standard error answers missing (run scripts/openapi-fix.py)")
            sys.exit(1)
        return
    new = "\n".join(out)
    if new != text:
        yaml.safe_load(new)  # still valid YAML
        with open(name, "w") as f:
            f.write(new)
    print(f"{name}: added {missing_total} standard error answers, {nulls} nullable types in the 3.1 form")


if __name__ == "__main__":
    main()
