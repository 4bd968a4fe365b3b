#!/usr/bin/env python3
"""Merge an OpenAPI fragment (paths and components) into docs/api/openapi.yaml.

Usage: scripts/merge-openapi.py docs/api/<fragment>.yaml
Paths and component entries of the fragment replace those of the same name.
"""
import sys
import yaml

MAIN = "docs/api/openapi.yaml"


def _str(dumper, value):
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


yaml.SafeDumper.add_representer(str, _str)


def main() -> None:
    with open(MAIN) as f:
        doc = yaml.safe_load(f)
    for name in sys.argv[1:]:
        with open(name) as f:
            part = yaml.safe_load(f)
        doc.setdefault("paths", {}).update(part.get("paths", {}))
        for kind, entries in part.get("components", {}).items():
            doc.setdefault("components", {}).setdefault(kind, {}).update(entries)
        for tag in part.get("tags", []):
            tags = doc.setdefault("tags", [])
            if tag["name"] not in {t["name"] for t in tags}:
                tags.append(tag)
    doc["paths"] = dict(sorted(doc["paths"].items()))
    with open(MAIN, "w") as f:
        yaml.safe_dump(doc, f, sort_keys=False, allow_unicode=True, width=100)


if __name__ == "__main__":
    main()
