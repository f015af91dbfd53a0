/**
 * Agent body shapes, in a local frame where +z is forward (the direction of travel), +y is up
 * (the back) and +x is the right wing. Each vertex carries a `flap` weight: how much the wing
 * flap moves it (0 for the body, 1 at the wing tips). Sizes are about one world unit long.
 */
import { BufferAttribute, BufferGeometry, ConeGeometry } from 'three';

/** Names of the shapes the viewer can draw. */
export type ShapeName = 'bird' | 'fish' | 'cone';
export const SHAPES: readonly ShapeName[] = ['bird', 'fish', 'cone'];

/**
 * Build a non-indexed geometry from triangles (flat shading: one normal per face). Closed bodies
 * wind counter-clockwise seen from outside, so normals point out and back-face culling (WebGL and
 * WebGPU alike) draws the outside.
 */
function fromTriangles(tris: readonly number[][], flapOf: (x: number) => number): BufferGeometry {
  const pos = new Float32Array(tris.length * 9);
  const flap = new Float32Array(tris.length * 3);
  tris.forEach((t, i) => {
    pos.set(t, i * 9);
    for (let k = 0; k < 3; k++) flap[i * 3 + k] = flapOf(t[k * 3]);
  });
  const g = new BufferGeometry();
  g.setAttribute('position', new BufferAttribute(pos, 3));
  g.setAttribute('flap', new BufferAttribute(flap, 1));
  g.computeVertexNormals();
  return g;
}

/** A dart-shaped bird: a body with two wings that flap about the body axis. */
function bird(): BufferGeometry {
  const nose = [0, 0, 0.6];
  const tail = [0, 0, -0.5];
  const top = [0, 0.12, -0.1];
  const bottom = [0, -0.1, -0.05];
  const wl = [-0.65, 0, -0.25];
  const wr = [0.65, 0, -0.25];
  const wfl = [-0.08, 0.02, 0.15];
  const wfr = [0.08, 0.02, 0.15];
  const wbl = [-0.08, 0.02, -0.3];
  const wbr = [0.08, 0.02, -0.3];
  const tris = [
    // body: four faces around the axis
    [...nose, ...wfr, ...top],
    [...nose, ...top, ...wfl],
    [...nose, ...bottom, ...wfr],
    [...nose, ...wfl, ...bottom],
    [...tail, ...top, ...wfr],
    [...tail, ...wfl, ...top],
    [...tail, ...wfr, ...bottom],
    [...tail, ...bottom, ...wfl],
    // wings, both sides (double faces so they read from below too)
    [...wfr, ...wr, ...wbr],
    [...wfr, ...wbr, ...wr],
    [...wfl, ...wbl, ...wl],
    [...wfl, ...wl, ...wbl],
  ];
  return fromTriangles(tris, (x) => Math.min(1, Math.abs(x) / 0.65));
}

/** A fish: a diamond body and a forked tail that sways. */
function fish(): BufferGeometry {
  const nose = [0, 0, 0.6];
  const back = [0, 0.16, 0.05];
  const belly = [0, -0.13, 0.05];
  const l = [-0.15, 0, 0.1];
  const r = [0.15, 0, 0.1];
  const waist = [0, 0, -0.35];
  // a forked tail in the two diagonal planes, so it reads from the side and from above
  const t1 = [0.15, 0.12, -0.62];
  const t2 = [-0.15, -0.12, -0.62];
  const tris = [
    [...nose, ...r, ...back],
    [...nose, ...back, ...l],
    [...nose, ...belly, ...r],
    [...nose, ...l, ...belly],
    [...waist, ...back, ...r],
    [...waist, ...l, ...back],
    [...waist, ...r, ...belly],
    [...waist, ...belly, ...l],
    [...waist, ...t1, ...t2],
    [...waist, ...t2, ...t1],
  ];
  // the tail sways sideways: weight by distance behind the waist
  const g = fromTriangles(tris, () => 0);
  const pos = g.getAttribute('position');
  const flap = g.getAttribute('flap');
  for (let i = 0; i < pos.count; i++) flap.setX(i, Math.max(0, -pos.getZ(i) - 0.3) / 0.32);
  return g;
}

/** A cone pointing forward. */
function cone(): BufferGeometry {
  const g = new ConeGeometry(0.22, 1, 8).toNonIndexed();
  g.rotateX(Math.PI / 2); // cone tip from +y to +z
  g.setAttribute('flap', new BufferAttribute(new Float32Array(g.getAttribute('position').count), 1));
  return g;
}

/** Build the geometry of a shape (a new object; the caller disposes it). */
export function shapeGeometry(name: ShapeName): BufferGeometry {
  return name === 'bird' ? bird() : name === 'fish' ? fish() : cone();
}

/** The shape that suits a preset: fish for the fish preset, birds otherwise. */
export function shapeForPreset(preset: string): ShapeName {
  return preset === 'fish' ? 'fish' : 'bird';
}
