/**
 * The public surface, pinned (as d3 pins its modules with `Object.keys(…).sort()`): the package's
 * entry points, each entry's run-time exports and its type exports, and the members of `Flock`.
 * A change here is a change of the API: it belongs in CHANGELOG.md (and, for a removal or a
 * rename, in its "Migrating" section).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { createFlockSync, type Flock } from '../../src/flock.ts';
import * as main from '../../src/index.ts';
import * as layout from '../../src/layout.ts';
import * as three from '../../src/three/index.ts';
import * as threeWebgpu from '../../src/three/webgpu.ts';
import * as webgpu from '../../src/webgpu.ts';

const root = new URL('../../', import.meta.url);

/** The package's entry points (package.json `exports`) and the source file of each. */
const ENTRIES = {
  '.': 'src/index.ts',
  './layout': 'src/layout.ts',
  './backends/webgpu': 'src/webgpu.ts',
  './three': 'src/three/index.ts',
  './three/webgpu': 'src/three/webgpu.ts',
  './worker': 'src/backends/workers/worker.ts',
};

/** Run-time exports of each entry. */
const VALUES = {
  'murmur-flock': [
    'CrossOriginIsolationError',
    'Flock',
    'FlockState',
    'KernelLoadingError',
    'METRIC_KEYS',
    'OrderStatistics',
    'PREDATOR',
    'PREY',
    'ParamError',
    'SPARE_SLOTS',
    'SnapshotError',
    'StateFormatError',
    'VERSION',
    'WebGpuUnavailableError',
    'WorkerFaultError',
    'computeMetrics',
    'createFlock',
    'createFlockSync',
    'densityOf',
    'engineOptions',
    'fields',
    'formatIssue',
    'groupVelocity',
    'meanKthNeighbourDistance',
    'presets',
    'resolveParams',
    'restoreFlock',
    'restoreFlockSync',
    'scaleWorld',
    'schema',
    'seededState',
  ],
  'murmur-flock/layout': [
    'AGENT_BYTES',
    'AGENT_OFFSETS',
    'FIELDS',
    'FIELD_BYTES',
    'H',
    'HEADER_BYTES',
    'SNAPSHOT_MAGIC',
    'SNAPSHOT_VERSION',
    'STATE_MAGIC',
    'STATE_VERSION',
    'stateByteLength',
  ],
  'murmur-flock/backends/webgpu': [
    'WebGpuBackend',
    'createFlockOnDevice',
    'createWebGpuBackend',
    'describeAdapter',
    'requestGpu',
    'webGpuBackendOf',
  ],
  'murmur-flock/three': ['FlockInstances'],
  'murmur-flock/three/webgpu': ['FlockGpuMesh', 'createFlockForRenderer'],
};

/** Type-only exports of each entry. */
const TYPES = {
  'murmur-flock': [
    'AgentEdit',
    'AnyBuffer',
    'BackendInfo',
    'BackendName',
    'BoolSpec',
    'EnumSpec',
    'FieldEntry',
    'FlockInfo',
    'FlockOptions',
    'GroupSpec',
    'Half',
    'IntSpec',
    'KernelChoice',
    'KernelName',
    'KnnWorld',
    'KthDistance',
    'LeafSpec',
    'LeafValue',
    'MetricFunction',
    'MetricInput',
    'Metrics',
    'NumberSpec',
    'OrderSummary',
    'ParamIssue',
    'Params',
    'ParamsOverride',
    'PartialValues',
    'Preset',
    'PresetName',
    'ResetOptions',
    'Schema',
    'SchemaShape',
    'SnapshotErrorDetail',
    'Sphere',
    'SphereListSpec',
    'StepTiming',
    'TargetKind',
    'ValuesOf',
    'Vec3',
    'Vec3Views',
    'WorldSides',
  ],
  'murmur-flock/layout': ['FieldName'],
  'murmur-flock/backends/webgpu': [
    'Backend',
    'DeviceFlockOptions',
    'GpuContext',
    'GpuOptions',
    'KernelTimes',
    'WebGpuBackendOptions',
    'WebGpuBuffers',
  ],
  'murmur-flock/three': ['FlockInstancesOptions', 'InstanceKinds'],
  'murmur-flock/three/webgpu': ['FlockGpuMeshOptions'],
};

/** Flock's public members (properties, getters and methods). */
const FLOCK_MEMBERS = [
  'addPredator',
  'alive',
  'backend',
  'count',
  'dispose',
  'ids',
  'info',
  'kernel',
  'kinds',
  'metrics',
  'params',
  'positions',
  'positionsInterleavedInto',
  'reset',
  'set',
  'setAgent',
  'setTarget',
  'snapshot',
  'state',
  'stateHash',
  'step',
  'stepCount',
  'stepSync',
  'timing',
  'velocities',
] as const;

// the compiler holds the list to the class: a member added, removed or renamed fails `tsc`
true satisfies [keyof Flock, (typeof FLOCK_MEMBERS)[number]] extends [
  (typeof FLOCK_MEMBERS)[number],
  keyof Flock,
]
  ? true
  : false;

/** The names an entry's source exports with `type` (`export type { … }` or `type X` in a list). */
function typeExports(file: string): string[] {
  const text = readFileSync(new URL(file, root), 'utf8');
  const names: string[] = [];
  for (const m of text.matchAll(/export\s+(type\s+)?\{([^}]*)\}/g))
    for (const item of m[2]
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)) {
      const typeOnly = m[1] !== undefined || item.startsWith('type ');
      if (typeOnly)
        names.push(
          item
            .replace(/^type\s+/, '')
            .split(/\s+as\s+/)
            .pop()!,
        );
    }
  return names.sort();
}

describe('the public surface', () => {
  test("package.json's entry points", () => {
    const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as {
      exports: Record<string, { default: string }>;
    };
    assert.deepEqual(Object.keys(pkg.exports), Object.keys(ENTRIES));
    for (const [entry, file] of Object.entries(ENTRIES))
      assert.equal(pkg.exports[entry].default, `./dist/${file.replace(/\.ts$/, '.js')}`, entry);
  });

  test('the run-time exports of each entry', () => {
    assert.deepEqual(Object.keys(main).sort(), VALUES['murmur-flock']);
    assert.deepEqual(Object.keys(layout).sort(), VALUES['murmur-flock/layout']);
    assert.deepEqual(Object.keys(webgpu).sort(), VALUES['murmur-flock/backends/webgpu']);
    assert.deepEqual(Object.keys(three).sort(), VALUES['murmur-flock/three']);
    assert.deepEqual(Object.keys(threeWebgpu).sort(), VALUES['murmur-flock/three/webgpu']);
  });

  test('the type exports of each entry', () => {
    assert.deepEqual(typeExports('src/index.ts'), TYPES['murmur-flock']);
    assert.deepEqual(typeExports('src/layout.ts'), TYPES['murmur-flock/layout']);
    assert.deepEqual(typeExports('src/webgpu.ts'), TYPES['murmur-flock/backends/webgpu']);
    assert.deepEqual(typeExports('src/three/index.ts'), TYPES['murmur-flock/three']);
    assert.deepEqual(typeExports('src/three/webgpu.ts'), TYPES['murmur-flock/three/webgpu']);
  });

  test('no name is exported by two entries', () => {
    const all = Object.values(VALUES).concat(Object.values(TYPES)).flat().sort();
    assert.deepEqual(
      all.filter((n, i) => all[i - 1] === n),
      [],
    );
  });

  test("Flock's members, each present on a flock", () => {
    const f = createFlockSync({ prey: 10 });
    for (const m of FLOCK_MEMBERS) assert.ok(m in f, m);
    assert.equal(f.kernel, 'js', 'Flock.kernel is the kernel name');
    assert.equal(f.backend, 'cpu');
    assert.equal(f.info().kernel, f.kernel);
  });
});
