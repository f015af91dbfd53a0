// The predator follows the pointer: the pointer's ray meets the flock's middle plane (the
// flock's z = world.z / 2, three's y = 0 here) and that point, in the flock's coordinates,
// becomes the predators' target.
import { Plane, Raycaster, Vector2, Vector3 } from 'three';

/**
 * Point the predators at (x, y, z) in the flock's coordinates. The one call of the steering API
 * (`flock.setTarget`, murmur-flock's steering); an older murmur-flock without it is named, not
 * hidden.
 */
export function steerPredator(flock, target) {
  if (typeof flock.setTarget !== 'function')
    throw new Error(
      'this murmur-flock has no flock.setTarget(kind, point): the predator cannot follow the pointer',
    );
  flock.setTarget('predator', target);
}

/** Call `onTarget(point)` with the flock point under the pointer as it moves over `canvas`. */
export function followPointer(canvas, camera, group, world, onTarget) {
  const ray = new Raycaster();
  const ndc = new Vector2();
  const plane = new Plane(new Vector3(0, 1, 0), 0);
  const hit = new Vector3();
  canvas.addEventListener('pointermove', (e) => {
    const r = canvas.getBoundingClientRect();
    ndc.set(((e.clientX - r.left) / r.width) * 2 - 1, -((e.clientY - r.top) / r.height) * 2 + 1);
    ray.setFromCamera(ndc, camera);
    if (!ray.ray.intersectPlane(plane, hit)) return;
    const p = group.worldToLocal(hit.clone());
    const clamp = (v, L) => Math.min(Math.max(v, 0), L * 0.999);
    onTarget({ x: clamp(p.x, world.x), y: clamp(p.y, world.y), z: clamp(p.z, world.z) });
  });
}

/**
 * How the first predator of a flock's last step stands to `target`: its distance and its heading
 * (the cosine between its velocity and the direction to the target; 1 = straight at it), both by
 * the nearest image in a wrap-around world, as the steering sees it. Null without a predator.
 */
export function predatorApproach(flock, target) {
  const kinds = flock.kinds();
  const { world } = flock.params;
  const wrap = world.boundary === 'wrap';
  const near = (d, L) => (wrap ? d - L * Math.round(d / L) : d);
  const p = flock.positions();
  const v = flock.velocities();
  for (let i = 0; i < kinds.length; i++) {
    if (kinds[i] !== 1) continue;
    const dx = near(target.x - p.x[i], world.x);
    const dy = near(target.y - p.y[i], world.y);
    const dz = near(target.z - p.z[i], world.z);
    const distance = Math.hypot(dx, dy, dz);
    const speed = Math.hypot(v.x[i], v.y[i], v.z[i]);
    const heading =
      distance > 0 && speed > 0 ? (dx * v.x[i] + dy * v.y[i] + dz * v.z[i]) / (distance * speed) : 0;
    return { distance, heading };
  }
  return null;
}
