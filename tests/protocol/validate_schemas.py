#!/usr/bin/env python3
"""Validates protocol traffic against protocol/schema/.

Input: a file of JSON lines, each {"direction": "client"|"server", "message": {...}}. Each
message is checked against protocol/schema/<direction>/<type>.json (a type without a schema
is a failure: the sets of messages are closed). Prints every failure and exits 1 if there was
any, 0 otherwise (2 for unusable input or schemas). With --expect-invalid every line must be
refused instead (for testing that the schemas are strict).

    python3 tests/protocol/validate_schemas.py traffic.jsonl [--schemas protocol/schema]

Works with python3-jsonschema from Debian 12 (4.10, RefResolver) and with newer releases
(4.18+, the `referencing` registry), so the same script serves CI and developer machines.
"""

import argparse
import json
import pathlib
import sys
import warnings

import jsonschema

HERE = pathlib.Path(__file__).resolve().parent
DEFAULT_SCHEMAS = HERE.parent.parent / "protocol" / "schema"


def load_schemas(root):
    """Every schema under root, by path relative to root and by $id; each checked as a schema."""
    by_path, by_id = {}, {}
    for path in sorted(root.rglob("*.json")):
        schema = json.loads(path.read_text())
        jsonschema.Draft202012Validator.check_schema(schema)
        if "$id" not in schema:
            raise ValueError(f"{path}: no $id")
        by_path[path.relative_to(root).as_posix()] = schema
        by_id[schema["$id"]] = schema
    return by_path, by_id


def make_validator(schema, by_id):
    """A validator that resolves $ref between the schema files by their $id."""
    try:
        from referencing import Registry, Resource  # jsonschema >= 4.18
        from referencing.jsonschema import DRAFT202012

        registry = Registry().with_resources(
            (uri, Resource.from_contents(s, default_specification=DRAFT202012)) for uri, s in by_id.items()
        )
        return jsonschema.Draft202012Validator(schema, registry=registry)
    except ImportError:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            resolver = jsonschema.RefResolver.from_schema(schema, store=dict(by_id))
            return jsonschema.Draft202012Validator(schema, resolver=resolver)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("traffic", help="file of JSON lines {direction, message}")
    parser.add_argument("--schemas", default=str(DEFAULT_SCHEMAS), help="schema folder (default: %(default)s)")
    parser.add_argument("--expect-invalid", action="store_true",
                        help="negative test: every line must fail validation; a line that passes is the failure")
    args = parser.parse_args()

    try:
        by_path, by_id = load_schemas(pathlib.Path(args.schemas))
    except (OSError, ValueError, jsonschema.SchemaError) as e:
        print(f"bad schemas: {e}", file=sys.stderr)
        return 2

    validators = {}
    failures = checked = 0
    with open(args.traffic, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            where = f"line {number}"
            try:
                entry = json.loads(line)
                direction, message = entry["direction"], entry["message"]
            except (ValueError, KeyError, TypeError) as e:
                print(f"{where}: not a {{direction, message}} line: {e}")
                failures += 1
                continue
            checked += 1
            kind = message.get("type") if isinstance(message, dict) else None
            key = f"{direction}/{kind}.json"
            if direction not in ("client", "server") or not isinstance(kind, str) or key not in by_path:
                if not args.expect_invalid:  # no schema: refused, as expected
                    print(f"{where}: no schema for direction {direction!r} type {kind!r}")
                    failures += 1
                continue
            if key not in validators:
                validators[key] = make_validator(by_path[key], by_id)
            errors = sorted(validators[key].iter_errors(message), key=lambda e: list(e.absolute_path))
            if args.expect_invalid:
                if not errors:
                    failures += 1
                    print(f"{where}: {key}: valid, but expected to be refused: {json.dumps(message)[:300]}")
                continue
            if errors:
                failures += 1
                best = jsonschema.exceptions.best_match(errors)
                path = "/" + "/".join(str(p) for p in best.absolute_path)
                print(f"{where}: {key} at {path}: {best.message[:300]}")

    print(f"{checked} messages checked, {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
