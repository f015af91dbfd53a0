/**
 * What the panel and the mouse, keys and touch ask for, turned into session calls: parameters
 * (live or by rebuild, a large count asked about first), preset and backend choices, view
 * settings, obstacles and predators.
 */
import type { BackendName } from '../src/backends/types.ts';
import type { PresetName } from '../src/params/presets.ts';
import type { Params, ParamsOverride } from '../src/params/schema.ts';
import type { Sphere } from '../src/params/spec.ts';
import { fieldByPath, setPath } from '../src/params/walk.ts';
import { SUPERSEDED } from './actions.ts';
import { threeToSim } from './frame.ts';
import type { InputActions } from './input.ts';
import type { Panel, PanelActions } from './panel.ts';
import { largeCountQuestion, worldForCount } from './scale.ts';
import type { FlockSession } from './session.ts';
import type { ShapeName } from './shapes.ts';
import type { Status } from './status.ts';
import type { View } from './view.ts';

/** The override that sets one field given by its path. */
function overrideOf(path: string, value: unknown): ParamsOverride {
  const o: Record<string, unknown> = {};
  setPath(o, fieldByPath.get(path)!, value);
  return o as ParamsOverride;
}

/** Agent counts whose rebuild is announced (seeding them takes a noticeable moment). */
const BIG_BUILD = 200_000;

export class Controls {
  /** Set once the panel exists (it is built with these controls' panel actions). */
  panel: Panel | null = null;
  private readonly simPoint = new Float64Array(3);

  constructor(
    private readonly session: FlockSession,
    private readonly view: View,
    private readonly status: Status,
    /** Write the configuration to the URL. */
    private readonly syncUrl: () => void,
  ) {}

  /** Apply a view setting (shape or body size) and write it to the URL. */
  private relook(): void {
    this.view.applyLook(this.session.flock.params, this.session.config);
    this.session.stepper.fresh = true;
    this.syncUrl();
  }

  setObstacles(list: Sphere[]): void {
    const why = this.session.setParam({ obstacles: list });
    if (why) this.status(why);
    else this.panel?.build(this.session.flock.params as Params);
  }

  /**
   * A structural field: the flock is rebuilt. A new agent count is asked about when the backend
   * would step it slowly, and the world follows the count unless pinned.
   */
  async resetWith(path: string, value: unknown): Promise<string | null> {
    const o = overrideOf(path, value);
    if (path === 'prey' || path === 'predators') {
      const { flock, config } = this.session;
      const p = flock.params;
      const prey = path === 'prey' ? Number(value) : p.prey;
      const count = prey + (path === 'predators' ? Number(value) : p.predators);
      const msPerStep = flock.timing().total;
      const rate = msPerStep > 0 ? (flock.count * 1000) / msPerStep : 0;
      const question = largeCountQuestion(count, config.backend, 'gpu' in navigator, rate);
      if (question && !window.confirm(question))
        return `kept ${p.prey} prey and ${p.predators} predators (cancelled)`;
      if (path === 'prey' && !config.pinWorld) o.world = worldForCount(config.preset, prey);
      if (count > BIG_BUILD) this.status(`building ${count.toLocaleString('en')} agents…`);
    }
    return this.session.rebuild(o);
  }

  /** The panel's requests. */
  panelActions(): PanelActions {
    const { session } = this;
    return {
      setParam: (path, value) => session.setParam(overrideOf(path, value)),
      resetWith: (path, value) => this.resetWith(path, value),
      pinWorld: (on: boolean) => {
        session.config.pinWorld = on;
        this.syncUrl();
      },
      choosePreset: (name: PresetName) => {
        void session.choosePreset(name).then((why) => {
          if (why === SUPERSEDED) return;
          this.panel?.setPreset(session.config.preset);
          if (why) this.status(why);
        });
      },
      chooseBackend: async (name: BackendName) => {
        const why = await session.chooseBackend(name);
        if (why === SUPERSEDED) return;
        this.panel?.setBackend(session.config.backend);
        this.panel?.setReason(why ? `${name}: ${why}` : '');
      },
      setBody: (scale: number) => {
        session.config.body = scale;
        this.relook();
      },
      chooseShape: (shape: ShapeName | 'auto') => {
        session.config.shape = shape;
        this.relook();
      },
      togglePause: () => session.togglePause(),
      stepOnce: () => void session.stepOnce(),
      reset: () => void session.rebuild({}, 'reset'),
      addObstacle: () => {
        const p = session.flock.params;
        const r = Math.max(1, 0.06 * Math.min(p.world.x, p.world.y));
        this.setObstacles([
          ...p.obstacles,
          { x: p.world.x * Math.random(), y: p.world.y * Math.random(), z: p.world.z / 2, r },
        ]);
      },
      clearObstacles: () => this.setObstacles([]),
    };
  }

  /** The mouse's, keys' and touch's requests. */
  inputActions(): InputActions {
    const { session } = this;
    return {
      addObstacleAt: (hit) => {
        const p = session.flock.params;
        threeToSim(hit, this.simPoint);
        const [x, y] = this.simPoint;
        if (x < 0 || y < 0 || x > p.world.x || y > p.world.y)
          return this.status('click inside the world box');
        const r = Math.max(1, 0.06 * Math.min(p.world.x, p.world.y));
        this.setObstacles([...p.obstacles, { x, y, z: p.world.z / 2, r }]);
      },
      addPredatorAt: (hit) => {
        const p = session.flock.params;
        if (hit) threeToSim(hit, this.simPoint);
        else this.simPoint.set([p.world.x / 2, p.world.y / 2, p.world.z / 2]);
        session.addPredator(this.simPoint[0], this.simPoint[1]);
      },
      togglePause: () => session.togglePause(),
      stepOnce: () => void session.stepOnce(),
      reset: () => void session.rebuild({}, 'reset'),
    };
  }
}
