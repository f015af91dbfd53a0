// murmur-flock is an ES module package; Node ≥ 20.19 loads it with require() (it has no
// top-level await). Asynchronous backends work as usual from CommonJS.
const { createFlock, createFlockSync, ParamError } = require('murmur-flock');

const flock = { preset: 'reynolds', prey: 1000, seed: 42 };
const steps = 20;
const hex = (h) => h.toString(16).padStart(8, '0');

const reference = createFlockSync(flock);
reference.stepSync(steps);
console.log(`cpu js ${hex(reference.stateHash())}`);

try {
  createFlockSync({ ...flock, prey: -1 });
} catch (e) {
  console.log(`refused: ${e instanceof ParamError}`);
}

(async () => {
  const f = await createFlock({ ...flock, backend: 'workers', kernel: 'js', threads: 2 });
  await f.step(steps);
  console.log(`workers js ${hex(f.stateHash())}`);
  await f.dispose();
})().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
