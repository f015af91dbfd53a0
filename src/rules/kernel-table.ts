/**
 * The kernel constant table: every value a step kernel reads, with its type and how it derives
 * from the parameters. The one place a rule parameter reaches the kernels: scripts/gen-kernel.ts
 * (`npm run gen`) writes from it the TypeScript `RuleConstants` and `deriveConstants`
 * (constants.generated.ts), the WebAssembly slot layout for the host and the AssemblyScript side
 * (src/backends/wasm/layout.generated.ts, wasm/slots.ts) with a layout version hashed from it,
 * and the derived members of the WGSL `Params` block with their packing
 * (src/backends/webgpu/derived.generated.ts). CI fails when a generated file is out of date.
 *
 * Derivations are TypeScript expressions (over `p: Params` and `predatorsPresent`, with the
 * helpers of derive-helpers.ts) so the generated code reads like hand-written code and the type
 * checker sees every one.
 */

/** How a constant is typed: in TypeScript, and in the wasm and WGSL blocks that carry it. */
export type KernelKind = 'f64' | 'i32' | 'bool' | 'enum' | 'vec3' | 'list';

/** One value the kernels read: a field of `RuleConstants`. */
export interface KernelConstant {
  readonly name: string;
  readonly kind: KernelKind;
  readonly doc?: string;
  /** TypeScript expression; for `enum` usually omitted (the code is the option index of `field`). */
  readonly derive?: string;
  /** `enum`: the schema field (dotted path) whose option index is the code, on CPU and GPU alike. */
  readonly field?: string;
  /**
   * The GPU reads this value from its `Params` block (an f32 member of the same name): the
   * expression computing it as the shader used to (f32 arithmetic), so the bytes stay the same.
   */
  readonly gpu?: string;
}

/** The constants, in `RuleConstants` order. */
export const kernelConstants: readonly KernelConstant[] = [
  { name: 'dt', kind: 'f64', derive: 'p.dt' },
  { name: 'dims', kind: 'i32', derive: 'p.dimensions' },
  { name: 'size', kind: 'vec3', derive: '[p.world.x, p.world.y, p.world.z]' },
  { name: 'boundary', kind: 'enum', field: 'world.boundary', doc: 'bounce, wrap, clamp, push, teleport' },
  {
    name: 'wall',
    kind: 'vec3',
    doc: 'Per axis: the largest float32 value not above the world size (where a wall position is stored).',
    derive: '[float32AtMost(p.world.x), float32AtMost(p.world.y), float32AtMost(p.world.z)]',
  },
  {
    name: 'sepR2',
    kind: 'f64',
    doc: 'Vicsek: 0 (the model has no separation).',
    derive: "sq(p.model === 'vicsek' ? 0 : p.separation.radius)",
    gpu: "f32sq(p.model === 'vicsek' ? 0 : p.separation.radius)",
  },
  {
    name: 'aliR2',
    kind: 'f64',
    doc: 'Vicsek: r² (the alignment sum is the sum of the neighbours’ velocities within r).',
    derive: "sq(p.model === 'vicsek' ? p.vicsek.radius : p.alignment.radius)",
    gpu: "f32sq(p.model === 'vicsek' ? p.vicsek.radius : p.alignment.radius)",
  },
  {
    name: 'cohR2',
    kind: 'f64',
    doc: 'Vicsek: 0 (no cohesion).',
    derive: "sq(p.model === 'vicsek' ? 0 : p.cohesion.radius)",
    gpu: "f32sq(p.model === 'vicsek' ? 0 : p.cohesion.radius)",
  },
  { name: 'sepW', kind: 'f64', derive: 'p.separation.weight' },
  { name: 'aliW', kind: 'f64', derive: 'p.alignment.weight' },
  { name: 'cohW', kind: 'f64', derive: 'p.cohesion.weight' },
  { name: 'sepFall', kind: 'enum', field: 'separation.falloff' },
  {
    name: 'aliFall',
    kind: 'enum',
    field: 'alignment.falloff',
    doc: 'Vicsek: none (every neighbour’s velocity counts once).',
    derive: "p.model === 'vicsek' ? ALIGNMENT_FALLOFF_NONE : ALIGNMENT_FALLOFF_CODE[p.alignment.falloff]",
  },
  { name: 'cohFall', kind: 'enum', field: 'cohesion.falloff' },
  { name: 'sepNorm', kind: 'bool', derive: 'p.separation.normalize' },
  { name: 'aliNorm', kind: 'bool', derive: 'p.alignment.normalize' },
  { name: 'cohNorm', kind: 'bool', derive: 'p.cohesion.normalize' },
  { name: 'aliRelative', kind: 'bool', derive: 'p.alignment.relative' },
  { name: 'reynolds', kind: 'bool', derive: "p.steering.style === 'reynolds'" },
  { name: 'priority', kind: 'bool', derive: "p.steering.combine === 'priority'" },
  {
    name: 'exclusiveZones',
    kind: 'bool',
    doc: 'A neighbour counts for alignment only outside the separation radius, for cohesion only outside both (Couzin’s zones).',
    derive: "p.steering.zones === 'exclusive'",
  },
  { name: 'maxForce', kind: 'f64', derive: 'p.steering.maxForce' },
  {
    name: 'normTol',
    kind: 'f64',
    doc: 'Normalisation leaves a vector whose squared length is at most this unchanged.',
    derive: 'p.steering.normalizeTolerance',
  },
  { name: 'maxAccel', kind: 'f64', derive: 'p.motion.maxAccel' },
  { name: 'minSpeed', kind: 'f64', derive: 'p.motion.minSpeed' },
  { name: 'maxSpeed', kind: 'f64', derive: 'p.motion.maxSpeed' },
  {
    name: 'fovCos',
    kind: 'f64',
    doc: 'cos(fov / 2); -1 or less means no blind cone (Vicsek: none).',
    derive: "fovCosine(p.model === 'vicsek' ? 360 : p.motion.fov)",
    gpu: "fovCosine(p.model === 'vicsek' ? 360 : p.motion.fov)",
  },
  { name: 'predSpeed', kind: 'f64', derive: 'p.predator.speed' },
  { name: 'predAccel', kind: 'f64', derive: 'p.predator.accel' },
  {
    name: 'predVisionR2',
    kind: 'f64',
    derive: 'sq(p.predator.vision)',
    gpu: 'f32sq(p.predator.vision)',
  },
  { name: 'predVision', kind: 'f64', derive: 'p.predator.vision' },
  { name: 'killR2', kind: 'f64', derive: 'sq(p.predator.killRadius)', gpu: 'f32sq(p.predator.killRadius)' },
  { name: 'fleeR2', kind: 'f64', derive: 'sq(p.flee.radius)', gpu: 'f32sq(p.flee.radius)' },
  { name: 'fleeW', kind: 'f64', derive: 'p.flee.weight' },
  {
    name: 'weights',
    kind: 'list',
    doc: 'Weights of separation, alignment, cohesion and flee, in that order.',
    derive: 'Float64Array.of(p.separation.weight, p.alignment.weight, p.cohesion.weight, p.flee.weight)',
  },
  {
    name: 'predatorsPresent',
    kind: 'bool',
    doc: 'Predators were present when derived: prey must check neighbour kinds.',
    derive: 'predatorsPresent',
  },
  {
    name: 'preyReach',
    kind: 'f64',
    doc: 'Largest radius a prey agent scans for (flocking, and fleeing/killing when predators exist).',
    derive: 'preyReach(p, predatorsPresent)',
  },
  {
    name: 'obstacles',
    kind: 'list',
    doc: 'Obstacles as (x, y, z, r) quadruples.',
    derive: 'obstacleQuads(p)',
  },
  { name: 'nObstacles', kind: 'i32', derive: 'p.obstacles.length' },
  { name: 'lookAhead', kind: 'f64', derive: 'p.avoidance.lookAhead' },
  { name: 'avoidW', kind: 'f64', derive: 'p.avoidance.weight' },
  {
    name: 'collision',
    kind: 'enum',
    field: 'avoidance.collision',
    doc: 'Hard-collision response: stay (at the previous position), retreat (Intel: undo, reverse, move back).',
  },
  { name: 'laser', kind: 'bool', derive: 'p.laser.enabled' },
  { name: 'laserO', kind: 'vec3', derive: '[p.laser.ox, p.laser.oy, p.laser.oz]' },
  { name: 'laserD', kind: 'vec3', doc: 'Unit direction of the laser.', derive: 'unitLaser(p)' },
  { name: 'laserR2', kind: 'f64', derive: 'sq(p.laser.radius)' },
  { name: 'laserStrength', kind: 'f64', derive: 'p.laser.strength' },
  { name: 'laserKill2', kind: 'f64', derive: 'sq(p.laser.killWidth)' },
  // The documents' own forms (issue 18; docs/model.md "The documents exactly"). The wasm kernel
  // computes them in its scalar float64 finish (wasm/agent-update.ts; the sweep's prey take it
  // through the generalPrey flag).
  {
    name: 'push',
    kind: 'f64',
    doc: 'Push walls: speed added inwards at a crossed wall.',
    derive: 'p.world.push',
  },
  {
    name: 'sepSum',
    kind: 'bool',
    doc: 'The separation offsets are added up, not averaged.',
    derive: "p.separation.reduce === 'sum'",
  },
  {
    name: 'limitEach',
    kind: 'bool',
    doc: 'Reynolds steering of each rule truncated to maxForce.',
    derive: 'p.steering.limitEach',
  },
  {
    name: 'desiredUnit',
    kind: 'bool',
    doc: 'A normalised desired velocity keeps length 1.',
    derive: "p.steering.desiredLength === 'unit'",
  },
  {
    name: 'integration',
    kind: 'enum',
    field: 'motion.integration',
    doc: 'acceleration (v += a·dt), increment (v += Σ), impulse (v += Σ limited to maxAccel)',
  },
  {
    name: 'drag',
    kind: 'f64',
    doc: 'Linear drag per second: the new velocity times max(0, 1 − drag·dt), before the speed limit.',
    derive: 'p.motion.drag',
  },
  {
    name: 'speedRamp',
    kind: 'bool',
    doc: 'Lindqvist’s LimitSpeed instead of the clamp.',
    derive: "p.motion.speedLimit === 'ramp'",
  },
  // Targets set from outside (flock.setTarget; docs/steering.md): the arrive steering of
  // src/rules/target.ts, its twin in wasm/agent-update.ts and step.wgsl.
  {
    name: 'preyTarget',
    kind: 'bool',
    doc: 'Prey steer towards their target (targets[0..4]).',
    derive: 'p.preyTarget.enabled',
  },
  {
    name: 'predTarget',
    kind: 'bool',
    doc: 'Predators steer towards their target (targets[5..9]).',
    derive: 'p.predatorTarget.enabled',
  },
  {
    name: 'targets',
    kind: 'list',
    doc: 'The prey target, then the predator target: x, y, z, strength, radius each (the point moves in place: retarget).',
    derive: 'targetList(p)',
  },
  // Couzin et al. 2002's zones (model 'couzin'; docs/model.md "Couzin's zones"): the prey's
  // update of src/backends/cpu/couzin-update.ts. Angles reach the kernels as cosines and sines
  // computed here in float64, so no kernel evaluates a trigonometric function of a parameter.
  {
    name: 'couzin',
    kind: 'bool',
    doc: 'model is couzin: prey move by the zones.',
    derive: "p.model === 'couzin'",
  },
  {
    name: 'couzinRepulsionR2',
    kind: 'f64',
    doc: 'r_r².',
    derive: 'sq(p.couzin.repulsionRadius)',
    gpu: 'f32sq(p.couzin.repulsionRadius)',
  },
  {
    name: 'couzinOrientationR2',
    kind: 'f64',
    doc: '(r_r + Δr_o)²: the zone of orientation’s outer radius, squared.',
    derive: 'sq(p.couzin.repulsionRadius + p.couzin.orientationWidth)',
    gpu: 'f32sq(p.couzin.repulsionRadius + p.couzin.orientationWidth)',
  },
  {
    name: 'couzinAttractionR2',
    kind: 'f64',
    doc: '(r_r + Δr_o + Δr_a)²: the zone of attraction’s outer radius, squared.',
    derive: 'sq(p.couzin.repulsionRadius + p.couzin.orientationWidth + p.couzin.attractionWidth)',
    gpu: 'f32sq(p.couzin.repulsionRadius + p.couzin.orientationWidth + p.couzin.attractionWidth)',
  },
  {
    name: 'couzinFovCos',
    kind: 'f64',
    doc: 'cos(α / 2); -1 or less means no blind cone.',
    derive: 'fovCosine(p.couzin.fieldOfView)',
    gpu: 'fovCosine(p.couzin.fieldOfView)',
  },
  {
    name: 'couzinTurnCos',
    kind: 'f64',
    doc: 'cos(θ·dt), the turn per step at most π: a heading within this cosine of the desired one takes it.',
    derive: 'Math.cos(Math.min(Math.PI, ((p.couzin.turnRate * Math.PI) / 180) * p.dt))',
    gpu: 'Math.cos(Math.min(Math.PI, ((p.couzin.turnRate * Math.PI) / 180) * p.dt))',
  },
  {
    name: 'couzinTurnSin',
    kind: 'f64',
    doc: 'sin(θ·dt), the turn per step at most π.',
    derive: 'Math.sin(Math.min(Math.PI, ((p.couzin.turnRate * Math.PI) / 180) * p.dt))',
    gpu: 'Math.sin(Math.min(Math.PI, ((p.couzin.turnRate * Math.PI) / 180) * p.dt))',
  },
  { name: 'couzinSpeed', kind: 'f64', doc: 's: the constant speed.', derive: 'p.couzin.speed' },
  { name: 'couzinNoise', kind: 'f64', doc: 'σ in radians.', derive: 'p.couzin.noise' },
  // Topological neighbours (docs/model.md "Topological neighbours"): the k nearest, ties by id,
  // found by the k-NN gather (src/backends/cpu/knn-gather.ts, wasm/knn.ts, knn.wgsl).
  {
    name: 'neighboursTopological',
    kind: 'bool',
    doc: 'The rules see the k nearest agents (neighbours.kind "topological"), not those within their radii.',
    derive: "p.neighbours.kind === 'topological'",
  },
  {
    name: 'neighboursK',
    kind: 'i32',
    doc: 'Topological: how many nearest neighbours.',
    derive: 'p.neighbours.k',
  },
  {
    name: 'neighboursMaxR2',
    kind: 'f64',
    doc: 'Topological: a neighbour counts only at d² below this (Infinity: no limit).',
    derive: 'p.neighbours.maxRadius > 0 ? sq(p.neighbours.maxRadius) : Number.POSITIVE_INFINITY',
    gpu: 'p.neighbours.maxRadius > 0 ? Math.min(f32sq(p.neighbours.maxRadius), 3.4e38) : 3.4e38',
  },
  {
    name: 'generalFinish',
    kind: 'bool',
    doc: 'Obstacles, the laser, a prey target, the Vicsek model or any of the forms above not the default: prey take the general update (updateAgent; the wasm finish()), not the plain prey update.',
    derive:
      "p.model === 'vicsek' || p.obstacles.length > 0 || p.laser.enabled || p.preyTarget.enabled || p.separation.reduce === 'sum' || !p.steering.limitEach || p.steering.desiredLength === 'unit' || p.motion.integration !== 'acceleration' || p.motion.speedLimit === 'ramp' || p.motion.drag > 0",
  },
  // The Vicsek model (docs/model.md "The Vicsek model"): src/backends/cpu/vicsek-update.ts,
  // wasm/vicsek.ts, src/backends/webgpu/vicsek.wgsl.
  {
    name: 'vicsek',
    kind: 'bool',
    doc: 'model "vicsek": every agent takes the Vicsek update instead of the rules.',
    derive: "p.model === 'vicsek'",
  },
  { name: 'vicsekSpeed', kind: 'f64', doc: 'v₀.', derive: 'p.vicsek.speed' },
  { name: 'vicsekNoise', kind: 'f64', doc: 'η, radians.', derive: 'p.vicsek.noise' },
  {
    name: 'vicsekVectorial',
    kind: 'bool',
    doc: 'Vectorial (extrinsic) noise, Grégoire & Chaté 2004, instead of angular.',
    derive: "p.vicsek.noiseKind === 'vectorial'",
  },
  {
    name: 'vicsekSelf',
    kind: 'bool',
    doc: 'The own heading is in the mean.',
    derive: 'p.vicsek.includeSelf',
  },
  {
    name: 'vicsekCapBelow',
    kind: 'f64',
    doc: 'The 3D angular noise’s cap: 1 − cos(η/2) (src/random/counter.ts capBelow; the host’s float64 for every kernel).',
    derive: 'capBelow(p.vicsek.noise)',
    gpu: 'capBelow(p.vicsek.noise)',
  },
  {
    name: 'vicsekCapAbove',
    kind: 'f64',
    doc: '1 + cos(η/2) (capAbove).',
    derive: 'capAbove(p.vicsek.noise)',
    gpu: 'capAbove(p.vicsek.noise)',
  },
  // The counter-based noise stream's key (src/random/counter.ts): the seed here, the step
  // written by the host before each step (src/rules/noise-key.ts; its twins read it as slots).
  {
    name: 'noiseKey',
    kind: 'list',
    doc: 'seed, then the step being computed (completed steps before it) as low and high 32-bit words: set by setNoiseStep before each step.',
    derive: 'Float64Array.of(p.seed, 0, 0)',
  },
];

/** One slot (or `count` consecutive slots) of the wasm kernel's I (i32) or F (f64) block. */
export interface WasmSlot {
  /** Key in the host's `I` / `F` object; the AssemblyScript name is I_/F_ + its UPPER_SNAKE form. */
  readonly name: string;
  readonly count?: number;
  /** AssemblyScript name when it is not the derived one. */
  readonly as?: string;
  readonly doc?: string;
  /**
   * What the host writes from `c: RuleConstants` (one expression per slot). Absent: the host's
   * own code writes it (pointers, sizes, grid values).
   */
  readonly write?: string | readonly string[];
}

/** The I block (i32 slots): pointers and sizes the host sets per call, then integer constants. */
export const wasmISlots: readonly WasmSlot[] = [
  { name: 'src', as: 'I_PX', count: 8, doc: 'src px py pz vx vy vz id kind' },
  { name: 'dst', as: 'I_OPX', count: 7, doc: 'dst px py pz vx vy vz alive' },
  { name: 'cellStart', as: 'I_CELLSTART' },
  { name: 'n', count: 3, doc: 'nx ny nz' },
  { name: 'preyReach', count: 3, doc: 'kx ky kz' },
  { name: 'predReach', count: 3 },
  { name: 'wrap', write: 'c.boundary === WORLD_BOUNDARY_WRAP ? 1 : 0' },
  { name: 'dims2', write: 'c.dims === 2 ? 1 : 0' },
  { name: 'boundary', write: 'c.boundary' },
  { name: 'fall', count: 3, doc: 'sep ali coh', write: ['c.sepFall', 'c.aliFall', 'c.cohFall'] },
  { name: 'flags', doc: 'the FLAG bits', write: 'FLAGS' },
  { name: 'ranges' },
  { name: 'nb', doc: 'Neighbour list: 9 arrays of `nbStride` bytes (j dx dy dz d2 vx vy vz kind).' },
  { name: 'nbStride' },
  { name: 'lut', doc: '16 swizzle patterns that move the set lanes of a 4-bit mask to the front.' },
  {
    name: 'acc',
    doc: 'Symmetric sweep: accumulator slots (12 f32 each), ring, tail start, the share’s first tail agent, sink slot, window.',
  },
  { name: 'ring' },
  { name: 'tailStart' },
  { name: 'tailLo' },
  { name: 'sink' },
  { name: 'window' },
  { name: 'keys', doc: 'The sweep’s next-step cell keys per agent and per-cell counts (0: not written).' },
  { name: 'counts' },
  {
    name: 'integration',
    doc: 'motion.integration: 0 acceleration, 1 increment, 2 impulse.',
    write: 'c.integration',
  },
  {
    name: 'rank',
    doc: 'Morton order: the grid’s u32 rank table (linear cell → key; the host copies UniformGrid.rank), 0 for linear order.',
  },
  { name: 'obstacles', doc: 'The obstacles: f64 x, y, z, r each (the host writes them).' },
  { name: 'nObstacles', write: 'c.nObstacles' },
  { name: 'collision', doc: 'stay 0, retreat 1', write: 'c.collision' },
  {
    name: 'noiseKey',
    count: 3,
    doc: 'the noise stream’s seed and step (low, high word): u32s',
    write: ['c.noiseKey[0]', 'c.noiseKey[1]', 'c.noiseKey[2]'],
  },
  {
    name: 'neighboursK',
    doc: 'Topological neighbours: k (0: metric neighbours).',
    write: 'c.neighboursTopological ? c.neighboursK : 0',
  },
  {
    name: 'knnSeed',
    count: 2,
    doc: 'Topological neighbours: each prey’s last k-th neighbour distance by id (f32; 0: none), and how many ids it holds',
  },
];

/** The F block (f64 slots). */
export const wasmFSlots: readonly WasmSlot[] = [
  { name: 'inv', count: 3, doc: 'the grid’s inverse cell widths' },
  { name: 'size', count: 3, write: ['c.size[0]', 'c.size[1]', 'c.size[2]'] },
  { name: 'preyReach2', write: 'c.preyReach * c.preyReach' },
  { name: 'sepR2', write: 'c.sepR2' },
  { name: 'aliR2', write: 'c.aliR2' },
  { name: 'cohR2', write: 'c.cohR2' },
  { name: 'fleeR2', write: 'c.fleeR2' },
  { name: 'killR2', write: 'c.killR2' },
  { name: 'predVisionR2', write: 'c.predVisionR2' },
  { name: 'fovCos', write: 'c.fovCos' },
  { name: 'sepW', write: 'c.sepW' },
  { name: 'aliW', write: 'c.aliW' },
  { name: 'cohW', write: 'c.cohW' },
  { name: 'fleeW', write: 'c.fleeW' },
  { name: 'maxForce', write: 'c.maxForce' },
  { name: 'maxAccel', write: 'c.maxAccel' },
  { name: 'minSpeed', write: 'c.minSpeed' },
  { name: 'maxSpeed', write: 'c.maxSpeed' },
  { name: 'predSpeed', write: 'c.predSpeed' },
  { name: 'predAccel', write: 'c.predAccel' },
  { name: 'dt', write: 'c.dt' },
  { name: 'normTol', write: 'c.normTol' },
  { name: 'push', doc: 'Push walls: speed added inwards at a crossed wall.', write: 'c.push' },
  {
    name: 'wall',
    count: 3,
    doc: 'per axis, the largest float32 not above the world size (where the walls put agents)',
    write: ['c.wall[0]', 'c.wall[1]', 'c.wall[2]'],
  },
  { name: 'lookAhead', write: 'c.lookAhead' },
  { name: 'avoidW', write: 'c.avoidW' },
  { name: 'laserO', count: 3, write: ['c.laserO[0]', 'c.laserO[1]', 'c.laserO[2]'] },
  { name: 'laserD', count: 3, doc: 'unit direction', write: ['c.laserD[0]', 'c.laserD[1]', 'c.laserD[2]'] },
  { name: 'laserR2', write: 'c.laserR2' },
  { name: 'laserStrength', write: 'c.laserStrength' },
  { name: 'laserKill2', write: 'c.laserKill2' },
  { name: 'drag', doc: 'Linear drag per second (0: none).', write: 'c.drag' },
  {
    name: 'target',
    count: 10,
    doc: 'prey target x y z strength radius, then the predators’',
    write: Array.from({ length: 10 }, (_, k) => `c.targets[${k}]`),
  },
  { name: 'vicsekSpeed', write: 'c.vicsekSpeed' },
  { name: 'vicsekNoise', write: 'c.vicsekNoise' },
  { name: 'vicsekCapBelow', write: 'c.vicsekCapBelow' },
  { name: 'vicsekCapAbove', write: 'c.vicsekCapAbove' },
  { name: 'couzinRepulsionR2', write: 'c.couzinRepulsionR2' },
  { name: 'couzinOrientationR2', write: 'c.couzinOrientationR2' },
  { name: 'couzinAttractionR2', write: 'c.couzinAttractionR2' },
  { name: 'couzinFovCos', write: 'c.couzinFovCos' },
  { name: 'couzinTurnCos', write: 'c.couzinTurnCos' },
  { name: 'couzinTurnSin', write: 'c.couzinTurnSin' },
  { name: 'couzinSpeed', write: 'c.couzinSpeed' },
  { name: 'couzinNoise', write: 'c.couzinNoise' },
  {
    name: 'neighboursMaxR2',
    doc: 'Topological neighbours: d² below this (Infinity: no limit).',
    write: 'c.neighboursMaxR2',
  },
];

/** Slots reserved per block (the host lays its arrays out after them). */
export const WASM_I_SLOTS = 64;
export const WASM_F_SLOTS = 96;

/** Bits of the I block's `flags` slot, lowest first: name and the `c` expression that sets it. */
export const wasmFlags: readonly { readonly name: string; readonly from: string; readonly doc?: string }[] = [
  { name: 'sepNorm', from: 'c.sepNorm' },
  { name: 'aliNorm', from: 'c.aliNorm' },
  { name: 'cohNorm', from: 'c.cohNorm' },
  { name: 'aliRelative', from: 'c.aliRelative' },
  { name: 'reynolds', from: 'c.reynolds' },
  { name: 'priority', from: 'c.priority' },
  { name: 'useFov', from: 'c.fovCos > -1' },
  {
    name: 'predators',
    from: 'c.predatorsPresent',
    doc: 'Predators may be among the candidates (else kinds are not read).',
  },
  {
    name: 'generalPrey',
    from: 'c.generalFinish || c.boundary === WORLD_BOUNDARY_PUSH || c.boundary === WORLD_BOUNDARY_TELEPORT',
    doc: 'The sweep finishes each prey with the scalar finish() (obstacles, laser, the documents’ forms, push and teleport walls), not the float32 quad.',
  },
  { name: 'sepSum', from: 'c.sepSum', doc: 'separation.reduce "sum": the separation sum is not averaged.' },
  { name: 'limitEach', from: 'c.limitEach', doc: 'Reynolds steering of each rule truncated to maxForce.' },
  { name: 'desiredUnit', from: 'c.desiredUnit', doc: 'A normalised desired velocity keeps length 1.' },
  { name: 'speedRamp', from: 'c.speedRamp', doc: 'Lindqvist’s LimitSpeed instead of the clamp.' },
  { name: 'laser', from: 'c.laser', doc: 'Prey are repelled from the laser line, predators on it die.' },
  { name: 'exclusiveZones', from: 'c.exclusiveZones', doc: 'steering.zones "exclusive" (Couzin’s zones).' },
  { name: 'preyTarget', from: 'c.preyTarget', doc: 'Prey steer towards their target (F_TARGET).' },
  { name: 'predTarget', from: 'c.predTarget', doc: 'Predators steer towards theirs (F_TARGET + 5).' },
  {
    name: 'vicsek',
    from: 'c.vicsek',
    doc: 'The Vicsek model: the finish takes vicsekFinish (wasm/vicsek.ts).',
  },
  { name: 'vicsekSelf', from: 'c.vicsekSelf', doc: 'Vicsek: the own heading is in the mean.' },
  { name: 'vicsekVectorial', from: 'c.vicsekVectorial', doc: 'Vicsek: vectorial noise.' },
  { name: 'couzin', from: 'c.couzin', doc: 'model couzin: prey move by the zones (wasm/couzin.ts).' },
];
