// Validates every manifest in a folder (deploy/k8s) against Kubernetes' own OpenAPI schemas, as
// packaged by kubernetes-models (its classes' validate() runs the schema of their apiVersion and
// kind). A document whose apiVersion or kind Kubernetes does not define fails too. The
// Kustomization is kustomize's, not an API object, and is left to check_k8s.sh's structural
// check. Not checked: fields the schemas do not know (Kubernetes' schemas allow them; a server
// would drop them, `kubectl --validate=strict` would refuse them).
//
// Usage: node validate.mjs FOLDER   (exit 1 when any document is invalid)
import fs from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';

const folder = process.argv[2];
let valid = 0;
const problems = [];
for (const file of fs.readdirSync(folder).filter((f) => f.endsWith('.yaml')).sort()) {
  for (const doc of yaml.loadAll(fs.readFileSync(path.join(folder, file), 'utf8'))) {
    if (!doc || doc.kind === 'Kustomization') continue;
    const where = `${file}: ${doc.kind} ${doc.metadata?.name ?? ''}`;
    const [group, version] = String(doc.apiVersion).includes('/')
      ? doc.apiVersion.split('/')
      : ['', doc.apiVersion];
    let Model;
    try {
      const module = await import(`kubernetes-models/${group ? `${group}/` : ''}${version}/${doc.kind}`);
      Model = module[doc.kind];
    } catch {
      problems.push(`${where}: Kubernetes has no ${doc.apiVersion} ${doc.kind}`);
      continue;
    }
    try {
      new Model(doc).validate();
      valid += 1;
      console.log(`valid: ${where}`);
    } catch (e) {
      problems.push(`${where}: ${e.message}`);
    }
  }
}
for (const p of problems) console.log(`INVALID ${p}`);
console.log(`${valid} manifests valid against Kubernetes' schemas, ${problems.length} invalid`);
process.exit(problems.length > 0 || valid === 0 ? 1 : 0);
