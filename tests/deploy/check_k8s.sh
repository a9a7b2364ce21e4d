#!/usr/bin/env bash
# ctest deploy.k8s_manifests: deploy/k8s/*.yaml parse, and hang together: each names its kind,
# apiVersion and name and no namespace; kustomization.yaml lists every manifest; the
# Deployment's selector matches its pods' labels and the Service's and the budget's selectors;
# the Service's target port is a port of the container; the pods probe /healthz; the node id
# comes from the pod's name; the database URL comes from the Secret.
# Then every manifest is validated against Kubernetes' own OpenAPI schemas (k8s-schema/validate.mjs,
# kubernetes-models from the npm registry, installed here by `npm ci` on the first run).
# No cluster and no kubectl here: a schema check, not a server-side dry run (deploy/README.md).
# Exit 77 (skipped) without python3's yaml module (Debian's python3-yaml) or without npm.
set -euo pipefail
dir=${1:-"$(dirname "${BASH_SOURCE[0]}")/../../deploy/k8s"}
if ! python3 -c 'import yaml' 2> /dev/null; then
  echo "SKIPPED: python3's yaml module (python3-yaml) is not installed; $dir not checked"
  exit 77
fi
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
python3 - "$dir" <<'PY'
import glob, os, sys, yaml

folder = sys.argv[1]
problems = []
docs = {}
for path in sorted(glob.glob(os.path.join(folder, "*.yaml"))):
    name = os.path.basename(path)
    with open(path) as f:
        try:
            loaded = [d for d in yaml.safe_load_all(f) if d is not None]
        except yaml.YAMLError as e:
            problems.append(f"{name}: does not parse: {e}")
            continue
    for d in loaded:
        if not isinstance(d, dict) or "kind" not in d or "apiVersion" not in d:
            problems.append(f"{name}: a document without kind or apiVersion")
            continue
        if d["kind"] != "Kustomization":
            meta = d.get("metadata") or {}
            if not meta.get("name"):
                problems.append(f"{name}: {d['kind']} without metadata.name")
            if "namespace" in meta:
                problems.append(f"{name}: {d['kind']} names a namespace (the manifests are namespace-less)")
        docs.setdefault(d["kind"], []).append((name, d))

def one(kind):
    found = docs.get(kind, [])
    if len(found) != 1:
        problems.append(f"expected one {kind}, found {len(found)}")
        return None
    return found[0][1]

kust, dep, svc, ing, pdb, cm, sec = (one(k) for k in (
    "Kustomization", "Deployment", "Service", "Ingress", "PodDisruptionBudget", "ConfigMap", "Secret"))
if kust:
    listed = set(kust.get("resources", []))
    files = {os.path.basename(p) for p in glob.glob(os.path.join(folder, "*.yaml"))} - {"kustomization.yaml"}
    if listed != files:
        problems.append(f"kustomization.yaml lists {sorted(listed)}, the folder has {sorted(files)}")
if dep:
    spec = dep["spec"]
    labels = spec["template"]["metadata"]["labels"]
    selector = spec["selector"]["matchLabels"]
    if any(labels.get(k) != v for k, v in selector.items()):
        problems.append("Deployment: selector does not match the pod labels")
    if spec.get("replicas") != 3:
        problems.append("Deployment: replicas is not 3")
    pod = spec["template"]["spec"]
    if not pod.get("terminationGracePeriodSeconds", 0) > 5:
        problems.append("Deployment: terminationGracePeriodSeconds must exceed the server's 5 s drain")
    (c,) = pod["containers"]
    ports = {p["name"]: p["containerPort"] for p in c.get("ports", [])}
    for probe in ("readinessProbe", "livenessProbe"):
        get = (c.get(probe) or {}).get("httpGet") or {}
        if get.get("path") != "/healthz" or get.get("port") not in ports:
            problems.append(f"Deployment: {probe} is not GET /healthz on a named port")
    env = {e["name"]: e for e in c.get("env", [])}
    node = env.get("SANTORINI_NODE_ID", {}).get("valueFrom", {}).get("fieldRef", {})
    if node.get("fieldPath") != "metadata.name":
        problems.append("Deployment: SANTORINI_NODE_ID is not the pod's name")
    refs = {(k, v["name"]) for f in c.get("envFrom", []) for k, v in f.items()}
    if cm and ("configMapRef", cm["metadata"]["name"]) not in refs:
        problems.append("Deployment: does not take its environment from the ConfigMap")
    if sec and ("secretRef", sec["metadata"]["name"]) not in refs:
        problems.append("Deployment: does not take its environment from the Secret")
    if sec and "SANTORINI_DATABASE_URL" not in (sec.get("stringData") or {}):
        problems.append("Secret: no SANTORINI_DATABASE_URL")
    if not (c.get("resources") or {}).get("requests"):
        problems.append("Deployment: no resource requests")
    for holder, what in ((svc, "Service"), (pdb, "PodDisruptionBudget")):
        if not holder:
            continue
        sel = holder["spec"]["selector"]
        sel = sel.get("matchLabels", sel)
        if not sel or any(labels.get(k) != v for k, v in sel.items()):
            problems.append(f"{what}: selector does not match the pods")
    if svc:
        for p in svc["spec"]["ports"]:
            if p["targetPort"] not in ports and p["targetPort"] not in ports.values():
                problems.append(f"Service: targetPort {p['targetPort']} is no port of the container")
if pdb and pdb["spec"].get("minAvailable") != 2:
    problems.append("PodDisruptionBudget: minAvailable is not 2")
if ing and svc:
    notes = ing["metadata"].get("annotations", {})
    for key in ("proxy-read-timeout", "proxy-send-timeout"):
        if notes.get(f"nginx.ingress.kubernetes.io/{key}") != "3600":
            problems.append(f"Ingress: {key} is not 3600")
    for rule in ing["spec"]["rules"]:
        for p in rule["http"]["paths"]:
            if p["backend"]["service"]["name"] != svc["metadata"]["name"]:
                problems.append("Ingress: a path to another service")

for p in problems:
    print("FAILED:", p)
if problems:
    sys.exit(1)
print(f"ok: {sum(len(v) for v in docs.values())} documents in {folder}")
PY

if ! command -v npm > /dev/null 2>&1; then
  echo "SKIPPED: npm is not installed; $dir not validated against Kubernetes' schemas"
  exit 77
fi
if [ ! -d "$here/k8s-schema/node_modules/kubernetes-models" ]; then
  (cd "$here/k8s-schema" && npm ci --no-audit --no-fund --loglevel=error)
fi
node "$here/k8s-schema/validate.mjs" "$dir"
