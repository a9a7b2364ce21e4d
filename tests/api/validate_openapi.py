#!/usr/bin/env python3
"""Validates HTTP API answers against the component schemas of docs/openapi.yaml.

Usage: validate_openapi.py ANSWERS.jsonl [docs/openapi.yaml]

Each input line is {"schema": "<components/schemas name>", "body": <answer>, "valid": true|false}
("valid" defaults to true: a real answer; false: a deliberately broken one that must be
rejected, so the check is known to be able to fail). Prints one line per failure and exits 1
if any line did not get the expected verdict, 2 for bad input.
"""
import json
import os
import sys

import yaml
from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError


def main() -> int:
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    spec_path = sys.argv[2] if len(sys.argv) > 2 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "openapi.yaml")
    with open(spec_path, encoding="utf-8") as f:
        spec = yaml.safe_load(f)
    if not str(spec.get("openapi", "")).startswith("3.1"):
        print("openapi.yaml: expected OpenAPI 3.1 (JSON Schema 2020-12 schemas)")
        return 2
    schemas = spec.get("components", {}).get("schemas", {})
    for name, schema in schemas.items():
        try:
            Draft202012Validator.check_schema(schema)
        except SchemaError as e:
            print(f"openapi.yaml: schema {name} is not valid JSON Schema: {e.message}")
            return 2
    failures = 0
    checked = 0
    with open(sys.argv[1], encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            item = json.loads(line)
            name = item["schema"]
            if name not in schemas:
                print(f"line {number}: no schema named {name} in components/schemas")
                failures += 1
                continue
            # The whole document is the root, so "#/components/schemas/..." references resolve.
            root = dict(spec)
            root["$ref"] = f"#/components/schemas/{name}"
            errors = sorted(Draft202012Validator(root).iter_errors(item["body"]), key=lambda e: list(e.path))
            expected = item.get("valid", True)
            checked += 1
            if expected and errors:
                failures += 1
                for e in errors[:5]:
                    where = "/".join(str(p) for p in e.absolute_path)
                    print(f"line {number}: {name} at /{where}: {e.message}")
            elif not expected and not errors:
                failures += 1
                print(f"line {number}: a broken {name} was accepted: {json.dumps(item['body'])[:300]}")
    print(f"{checked} answers checked, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
