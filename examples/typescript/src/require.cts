// CommonJS TypeScript: compiled to require('murmur-flock'), which Node ≥ 20.19 loads.
import { createFlockSync, type Flock, ParamError } from 'murmur-flock';

const flock: Flock = createFlockSync({ preset: 'reynolds', prey: 1000, seed: 42 });
flock.stepSync(20);
console.log(
  `cpu js ${flock.stateHash().toString(16).padStart(8, '0')} (CommonJS, ParamError ${typeof ParamError})`,
);
