/**
 * examples/k8s, checked offline: every document against the Kubernetes API's OpenAPI schema
 * (kubernetes-models: the schemas compiled to validators; types, enums and required fields — a
 * field the API does not know passes, as the schema allows any, so the keys murmur's example
 * relies on are checked by hand below), and the example's own invariants: an Indexed Job whose
 * completions equal the N of --shard, node exec'd (no npx or shell left to swallow SIGTERM), one
 * ReadWriteMany claim shared by both Jobs.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { parseAllDocuments } from 'yaml';

// biome-ignore lint/suspicious/noExplicitAny: YAML documents, walked by key
type Doc = Record<string, any>;
const read = (name: string): Doc[] =>
  parseAllDocuments(readFileSync(new URL(`../../examples/k8s/${name}`, import.meta.url), 'utf8')).map(
    (d) => d.toJS() as Doc,
  );

/** The validators, or why they are missing (a devDependency: CI installs it). */
async function validators(): Promise<Record<string, new (o: Doc) => { validate(): void }> | string> {
  // specifiers in variables: tsc need not resolve a package that may be missing
  const job = 'kubernetes-models/batch/v1/Job';
  const pvc = 'kubernetes-models/v1/PersistentVolumeClaim';
  try {
    const { Job } = await import(job);
    const { PersistentVolumeClaim } = await import(pvc);
    return { Job, PersistentVolumeClaim };
  } catch (e) {
    return `kubernetes-models is not installed here (npm install): ${(e as Error).message.split('\n')[0]}`;
  }
}

const models = await validators();
// in CI the devDependency is installed: a missing validator is a failure there, not a skip
const skip = typeof models === 'string' && !process.env.CI ? models : false;

test('every document of examples/k8s is valid against the Kubernetes schema', { skip }, () => {
  assert.equal(typeof models, 'object', String(models));
  const m = models as Exclude<typeof models, string>;
  const docs = [...read('sweep-job.yaml'), ...read('collect-job.yaml')];
  assert.deepEqual(
    docs.map((d) => `${d.kind}/${d.metadata.name}`),
    ['Job/murmur-sweep', 'PersistentVolumeClaim/murmur-results', 'Job/murmur-collect'],
  );
  for (const d of docs)
    assert.doesNotThrow(() => new m[d.kind](d).validate(), `${d.kind} ${d.metadata.name}`);
  // the validator is no rubber stamp: a wrong type and a bad enum are refused
  const bad = structuredClone(docs[0]);
  bad.spec.completions = 'eight';
  assert.throws(() => new m.Job(bad).validate(), /completions must be integer/);
  const mode = structuredClone(docs[0]);
  mode.spec.completionMode = 'Indexd';
  assert.throws(() => new m.Job(mode).validate(), /completionMode/);
});

test('the sweep Job: an Indexed Job whose completions are the N of --shard, node exec’d', () => {
  const [job, pvc] = read('sweep-job.yaml');
  const [collect] = read('collect-job.yaml');
  const spec = job.spec;
  assert.equal(spec.completionMode, 'Indexed');
  assert.ok(spec.parallelism <= spec.completions);
  const [container] = spec.template.spec.containers;
  const script = container.args.join(' ');
  const shard = /--shard "\$JOB_COMPLETION_INDEX\/(\d+)"/.exec(script);
  assert.ok(shard, script);
  assert.equal(Number(shard[1]), spec.completions, 'pod I of N runs shard I/N');
  assert.equal(spec.template.spec.restartPolicy, 'Never');
  for (const c of [container, collect.spec.template.spec.containers[0]]) {
    const s = c.args.join(' ');
    assert.doesNotMatch(s, /npx/, 'npx would stand between the pod and node');
    assert.match(s, /&& exec node node_modules\/murmur-flock\/bin\/murmur\.js (sweep|collect) /);
  }
  // both Jobs mount the one ReadWriteMany claim at /results
  assert.equal(pvc.kind, 'PersistentVolumeClaim');
  assert.deepEqual(pvc.spec.accessModes, ['ReadWriteMany']);
  for (const j of [job, collect]) {
    const vol = j.spec.template.spec.volumes.find((v: Doc) => v.name === 'results');
    assert.equal(vol.persistentVolumeClaim.claimName, pvc.metadata.name);
    const mount = j.spec.template.spec.containers[0].volumeMounts.find((v: Doc) => v.name === 'results');
    assert.equal(mount.mountPath, '/results');
  }
});
