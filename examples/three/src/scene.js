// What both pages share: a camera over the flock's world, a group that maps the flock's
// coordinates (z up, the box [0, world]) into three's (y up, centred), the agents' shapes, the
// status line and the error box.
import { ConeGeometry, Group, PerspectiveCamera, Scene } from 'three';

export function makeScene(world) {
  const scene = new Scene();
  const camera = new PerspectiveCamera(50, innerWidth / innerHeight, 1, 5000);
  camera.position.set(0, world.x * 0.9, world.y * 1.05);
  camera.lookAt(0, 0, 0);
  // flock (x, y, z) → three (x, z, −y), centred on the origin
  const group = new Group();
  group.rotation.x = -Math.PI / 2;
  group.position.set(-world.x / 2, -world.z / 2, world.y / 2);
  scene.add(group);
  return { scene, camera, group };
}

/** An agent: a cone pointing along +Z, the heading FlockInstances and FlockGpuMesh turn it to. */
export function agentGeometry() {
  const g = new ConeGeometry(0.5, 2, 5);
  g.rotateX(Math.PI / 2);
  return g;
}

export function status(text) {
  document.querySelector('#status').textContent = text;
}

/** Show an error on the page: its name, its message (which says how to fix it) and nothing else. */
export function showError(e) {
  const box = document.querySelector('#error');
  box.hidden = false;
  box.textContent = `${e?.name ?? 'Error'}: ${e?.message ?? String(e)}`;
  status('failed');
}
