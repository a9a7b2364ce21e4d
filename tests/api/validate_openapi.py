#!/usr/bin/env python3
"""Validates HTTP API answers against docs/openapi.yaml.

Two modes:

  validate_openapi.py ANSWERS.jsonl [docs/openapi.yaml]
      Each input line is {"schema": "<components/schemas name>", "body": <answer>, "valid":
      true|false} ("valid" defaults to true: a real answer; false: a deliberately broken one
      that must be rejected, so the check is known to be able to fail). Prints one line per
      failure and exits 1 if any line did not get the expected verdict, 2 for bad input.

  validate_openapi.py --serve [docs/openapi.yaml]
      Reads whole exchanges, one JSON line each: {"method", "target", "status", "headers":
      {name: value}, "body": "<the body as text>"}, and answers each with one line: "ok", or
      why the answer breaks the document (a route, method or status it does not list, a content
      type it does not give, a body its schema refuses). The API tests' main runs it for every
      answer they receive (tests/api/openapi_contract.hpp).

  validate_openapi.py --routes TABLE.json [docs/openapi.yaml]
      Compares the server's route table ([{"path", "allow"}], server/http/route_table.hpp)
      with the document's paths and methods, both ways (HEAD goes with GET). Exits 1 if they
      differ.

Rules of --serve, besides the document's paths:
  - paths outside /api/, /healthz, /readyz, /metrics and /ws are the browser client's static
    files (not the API): only their error answers are checked (404 with an Error body);
  - a path the document does not list must answer 404 with an Error (code not_found);
  - 413 and 431 (a body or headers too large) may come from any path, before any route;
  - HEAD is GET without a body; a method the path does not list must answer 405 with an Error
    and an Allow header that names exactly the documented methods (HEAD with GET).

$ref to protocol/schema/*.json go by their $id (https://game-server.invalid/protocol/v1/...).
"""
import json
import os
import pathlib
import re
import sys

import yaml
from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent
METHODS = ["get", "put", "post", "delete", "patch", "options", "head", "trace"]


def protocol_schemas():
    by_id = {}
    for path in sorted((ROOT / "protocol" / "schema").rglob("*.json")):
        schema = json.loads(path.read_text())
        if "$id" in schema:
            by_id[schema["$id"]] = schema
    return by_id


def validator_for(spec, by_id, schema):
    """A validator of `schema` (a fragment of the document) that resolves local and protocol $refs."""
    # The whole document is the root, so "#/components/schemas/..." references resolve.
    wrapped = dict(spec)
    wrapped["x-checked"] = schema
    wrapped["$ref"] = "#/x-checked"
    try:
        from referencing import Registry, Resource  # jsonschema >= 4.18
        from referencing.jsonschema import DRAFT202012

        registry = Registry().with_resources(
            (uri, Resource.from_contents(s, default_specification=DRAFT202012)) for uri, s in by_id.items())
        return Draft202012Validator(wrapped, registry=registry)
    except ImportError:
        import warnings

        import jsonschema
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            resolver = jsonschema.RefResolver.from_schema(wrapped, store=dict(by_id))
            return Draft202012Validator(wrapped, resolver=resolver)


def load_spec(path):
    with open(path, encoding="utf-8") as f:
        spec = yaml.safe_load(f)
    if not str(spec.get("openapi", "")).startswith("3.1"):
        raise ValueError("openapi.yaml: expected OpenAPI 3.1 (JSON Schema 2020-12 schemas)")
    for name, schema in spec.get("components", {}).get("schemas", {}).items():
        try:
            Draft202012Validator.check_schema(schema)
        except SchemaError as e:
            raise ValueError(f"openapi.yaml: schema {name} is not valid JSON Schema: {e.message}")
    return spec


def first_error(validator, instance):
    errors = sorted(validator.iter_errors(instance), key=lambda e: list(e.absolute_path))
    if not errors:
        return None
    from jsonschema.exceptions import best_match
    best = best_match(errors)
    where = "/" + "/".join(str(p) for p in best.absolute_path)
    return f"at {where}: {best.message[:300]}"


class Contract:
    def __init__(self, spec):
        self.spec = spec
        self.by_id = protocol_schemas()
        self.validators = {}
        self.routes = []
        for template, item in spec.get("paths", {}).items():
            pattern = "^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template)) + "$"
            # Exact paths before templated ones (/api/matches before /api/matches/{id}).
            self.routes.append((template.count("{"), re.compile(pattern), template, item))
        self.routes.sort(key=lambda r: r[0])
        self.error = self.validator({"$ref": "#/components/schemas/Error"})

    def resolve(self, node):
        while isinstance(node, dict) and "$ref" in node and node["$ref"].startswith("#/"):
            target = self.spec
            for part in node["$ref"][2:].split("/"):
                target = target[part]
            node = target
        return node

    def validator(self, schema):
        key = json.dumps(schema, sort_keys=True)
        if key not in self.validators:
            self.validators[key] = validator_for(self.spec, self.by_id, schema)
        return self.validators[key]

    def error_body(self, text, code):
        try:
            body = json.loads(text)
        except ValueError:
            return "the body is not JSON (expected an Error)"
        problem = first_error(self.error, body)
        if problem:
            return f"the Error body is not one {problem}"
        if code and body.get("code") != code:
            return f"expected an Error with code {code}, got {body.get('code')!r}"
        return None

    def request_problem(self, operation, method, template, text):
        """Why an accepted request body is outside the document, or None."""
        body_spec = self.resolve(operation.get("requestBody"))
        if not body_spec:
            return f"{method.upper()} {template} accepted a request body where it documents none"
        content = body_spec.get("content", {})
        if "application/json" not in content:
            return f"{method.upper()} {template} accepted a JSON body; it documents {', '.join(content)}"
        try:
            body = json.loads(text)
        except ValueError:
            return f"{method.upper()} {template} accepted a request body that is not JSON"
        problem = first_error(self.validator(content["application/json"].get("schema", {})), body)
        return f"{method.upper()} {template} accepted a request the document refuses: {problem}" if problem else None

    def check(self, exchange):
        method = exchange["method"].lower()
        target = exchange["target"]
        status = int(exchange["status"])
        headers = {k.lower(): v for k, v in exchange.get("headers", {}).items()}
        text = exchange.get("body", "")
        path = re.split(r"[?#]", target, maxsplit=1)[0]
        # Refused before any route (info.description): headers or a body too large.
        if status in (413, 431):
            return self.error_body(text, "payload_too_large" if status == 413 else "header_too_large")
        api = path.startswith("/api/") or path == "/api" or path in ("/healthz", "/readyz", "/metrics", "/ws")
        if not api:
            if status >= 400:
                return self.error_body(text, None) if status != 404 else self.error_body(text, "not_found")
            return None
        item = None
        for _, pattern, template, candidate in self.routes:
            if pattern.match(path):
                item = candidate
                break
        if item is None:
            if status == 404:
                return self.error_body(text, "not_found")
            return f"undocumented route {path} (answered {status})"
        operation_method = "get" if method == "head" else method
        documented = [m for m in METHODS if m in item]
        if operation_method not in item:
            if status != 405:
                return f"undocumented method {method.upper()} on {template} (answered {status})"
            allow = sorted(m.strip().lower() for m in headers.get("allow", "").split(",") if m.strip())
            expected = sorted(set(documented) | ({"head"} if "get" in documented else set()))
            if allow != expected:
                return f"405 with Allow {headers.get('allow')!r}, but {template} documents {', '.join(m.upper() for m in expected)}"
            return None if method == "head" else self.error_body(text, "method_not_allowed")
        operation = item[operation_method]
        responses = operation.get("responses", {})
        response = responses.get(str(status)) or responses.get("default")
        if response is None:
            return f"undocumented status {status} for {operation_method.upper()} {template}"
        response = self.resolve(response)
        # What the server accepted, the document must allow: a client that sends only what it
        # documents can rely on every request the server takes (refusals are the tests' own
        # malformed bodies, checked by their answers above and below).
        request_text = exchange.get("request", "")
        if request_text and 200 <= status < 300:
            problem = self.request_problem(operation, operation_method, template, request_text)
            if problem:
                return problem
        content = response.get("content")
        if method == "head":
            return None
        if not content:
            if text:
                return f"a body where {operation_method.upper()} {template} {status} documents none"
            return None
        kind = headers.get("content-type", "").split(";")[0].strip().lower()
        if kind not in content:
            return f"content type {kind!r}, but {template} {status} documents {', '.join(content)}"
        schema = content[kind].get("schema", {})
        validator = self.validator(schema)
        if kind == "application/json":
            try:
                body = json.loads(text)
            except ValueError:
                return "the body is not JSON"
            problem = first_error(validator, body)
            return f"{template} {status}: {problem}" if problem else None
        if kind == "application/x-ndjson":
            for number, line in enumerate(text.splitlines(), 1):
                try:
                    body = json.loads(line)
                except ValueError:
                    return f"line {number} is not JSON"
                problem = first_error(validator, body)
                if problem:
                    return f"{template} {status}, line {number}: {problem}"
            return None
        problem = first_error(validator, text)
        return f"{template} {status}: {problem}" if problem else None


def serve(spec_path):
    try:
        contract = Contract(load_spec(spec_path))
    except (OSError, ValueError) as e:
        print(f"cannot load {spec_path}: {e}", file=sys.stderr)
        return 2
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            verdict = contract.check(json.loads(line))
        except Exception as e:  # a bug here must be seen, not hang the tests
            verdict = f"validator error: {type(e).__name__}: {e}"
        print("ok" if verdict is None else verdict.replace("\n", " "), flush=True)
    return 0


def components(answers_path, spec_path):
    try:
        spec = load_spec(spec_path)
    except ValueError as e:
        print(e)
        return 2
    schemas = spec.get("components", {}).get("schemas", {})
    by_id = protocol_schemas()
    failures = 0
    checked = 0
    with open(answers_path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            item = json.loads(line)
            name = item["schema"]
            if name not in schemas:
                print(f"line {number}: no schema named {name} in components/schemas")
                failures += 1
                continue
            validator = validator_for(spec, by_id, {"$ref": f"#/components/schemas/{name}"})
            errors = sorted(validator.iter_errors(item["body"]), key=lambda e: list(e.path))
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


def routes(table_path, spec_path):
    """The server's route table ([{path, allow}]) against the document's paths, both ways."""
    spec = load_spec(spec_path)
    with open(table_path, encoding="utf-8") as f:
        table = {r["path"]: r["allow"] for r in json.load(f)}
    failures = 0
    for path, item in spec.get("paths", {}).items():
        documented = {m.upper() for m in METHODS if m in item}
        if "GET" in documented:
            documented.add("HEAD")
        if path not in table:
            print(f"{path}: in docs/openapi.yaml, not in the server's route table")
            failures += 1
            continue
        served = {m.strip() for m in table[path].split(",") if m.strip()}
        if served != documented:
            print(f"{path}: the server answers {sorted(served)}, docs/openapi.yaml lists {sorted(documented)}")
            failures += 1
    for path in table:
        if path not in spec.get("paths", {}):
            print(f"{path}: in the server's route table, not in docs/openapi.yaml")
            failures += 1
    print(f"{len(table)} routes compared, {failures} differ")
    return 1 if failures else 0


def main() -> int:
    args = sys.argv[1:]
    default_spec = str(ROOT / "docs" / "openapi.yaml")
    if args and args[0] == "--serve":
        return serve(args[1] if len(args) > 1 else default_spec)
    if args and args[0] == "--routes" and len(args) > 1:
        return routes(args[1], args[2] if len(args) > 2 else default_spec)
    if not args:
        print(__doc__)
        return 2
    return components(args[0], args[1] if len(args) > 1 else default_spec)


if __name__ == "__main__":
    sys.exit(main())
