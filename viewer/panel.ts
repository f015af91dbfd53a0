/**
 * The control panel, generated from the parameter schema (`fields`): numbers become sliders
 * (unbounded ranges get a finite slider range around the current value), integers sliders or
 * number boxes, booleans checkboxes, enums dropdowns, the sphere list an obstacle list with
 * add/clear. Every change goes through `flock.set()` (live) or, for structural fields (agent
 * counts, seed, dimensions), through `flock.reset()`. Rejected values snap back and the reason
 * is shown in the status line.
 *
 * Typed numbers are taken as typed: lil-gui would round them to the step and clamp them to the
 * slider's range as you type (prey 1.5 → 2, dt 0 → the slider's minimum), so the text box's typing
 * is intercepted and the text, when committed (Enter or leaving the box), goes through the
 * schema's own parser: a value the schema refuses is refused with its message, never adjusted.
 */
import GUI, { type Controller } from 'lil-gui';
import { backendEntry } from '../src/backends/registry.ts';
import type { BackendName } from '../src/backends/types.ts';
import { type PresetName, presets } from '../src/params/presets.ts';
import type { Params } from '../src/params/schema.ts';
import type { LeafSpec, Sphere } from '../src/params/spec.ts';
import { formatIssue, ParamError, parseFieldText } from '../src/params/validate.ts';
import { type FieldEntry, fields, getPath, setPath } from '../src/params/walk.ts';
import { BODY_RANGE, isTransient, VIEWER_BACKENDS } from './config.ts';
import { SHAPES, type ShapeName } from './shapes.ts';

/** What the panel asks the app to do. Functions returning a string report a refusal. */
export interface PanelActions {
  setParam(path: string, value: unknown): string | null;
  resetWith(path: string, value: unknown): Promise<string | null>;
  choosePreset(name: PresetName): void;
  /** Switch backend; the app reflects the outcome with {@link Panel.setBackend} / {@link Panel.setReason}. */
  chooseBackend(name: BackendName): Promise<void>;
  chooseShape(shape: ShapeName | 'auto'): void;
  /** Drawn body size, × the size that reads at the default zoom. */
  setBody(scale: number): void;
  /** Keep the world's size when the agent count changes (else it follows the preset's density). */
  pinWorld(on: boolean): void;
  togglePause(): void;
  stepOnce(): void;
  reset(): void;
  addObstacle(): void;
  clearObstacles(): void;
}

/** Fields edited as number boxes (no slider makes sense for them). */
const BOXED = new Set(['prey', 'predators', 'seed']);

/** A round number ≥ v (1, 2, 5 × 10^k). */
function niceCeil(v: number): number {
  const e = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 5, 10]) if (m * e >= v) return m * e;
  return 10 * e;
}

/** Slider range and step for a number field: the schema's when finite-ish, else around the value. */
export function sliderRange(spec: LeafSpec, value: number): [number, number, number] {
  if (spec.kind !== 'number' && spec.kind !== 'int') return [0, 1, 0.01];
  const wide = spec.max - spec.min > 1e4;
  const hi = wide ? niceCeil(Math.max(Math.abs(spec.default) * 4, Math.abs(value) * 2, 1)) : spec.max;
  const lo = wide && spec.min < 0 ? -hi : spec.min;
  const step = spec.kind === 'int' ? 1 : (spec.step ?? niceCeil((hi - lo) / 1000));
  return [lo, Math.max(hi, lo + step), step];
}

/** The backend dropdown's tooltip: each backend's line from the registry. */
function backendTitle(): string {
  return VIEWER_BACKENDS.map((n) => {
    const e = backendEntry(n);
    return `${n}: ${e.description}${e.needs ? ` (needs ${e.needs})` : ''}`;
  }).join('\n');
}

export class Panel {
  readonly gui: GUI;
  private params: GUI | null = null;
  private readonly view: {
    preset: PresetName;
    backend: BackendName;
    shape: ShapeName | 'auto';
    pinWorld: boolean;
    body: number;
    reason: string;
    pause: () => void;
    step: () => void;
    reset: () => void;
  };
  private readonly backendCtl: Controller;
  private readonly reasonCtl: Controller;
  private readonly pinCtl: Controller;
  private values: Record<string, unknown> = {};

  constructor(
    private readonly actions: PanelActions,
    private readonly status: (message: string) => void,
    preset: PresetName,
    backend: BackendName,
    shape: ShapeName | 'auto',
    pinWorld: boolean,
    body: number,
  ) {
    this.gui = new GUI({ title: 'murmur' });
    this.view = {
      preset,
      backend,
      shape,
      pinWorld,
      body,
      reason: '',
      pause: () => actions.togglePause(),
      step: () => actions.stepOnce(),
      reset: () => actions.reset(),
    };
    const v = this.gui.addFolder('viewer');
    v.add(this.view, 'preset', Object.keys(presets))
      .onChange((name: PresetName) => actions.choosePreset(name))
      .domElement.setAttribute('data-path', 'preset');
    this.backendCtl = v.add(this.view, 'backend', VIEWER_BACKENDS);
    this.backendCtl.domElement.setAttribute('data-path', 'backend');
    this.backendCtl.domElement.title = backendTitle();
    this.backendCtl.onChange((name: BackendName) => void actions.chooseBackend(name));
    this.reasonCtl = v.add(this.view, 'reason').name('unavailable').disable();
    this.reasonCtl.domElement.setAttribute('data-path', 'reason');
    this.reasonCtl.hide();
    v.add(this.view, 'shape', ['auto', ...SHAPES]).onChange((s: ShapeName | 'auto') =>
      actions.chooseShape(s),
    );
    const bodyCtl = v
      .add(this.view, 'body', BODY_RANGE[0], BODY_RANGE[1], 0.05)
      .name('body size')
      .onChange((x: number) => actions.setBody(x));
    bodyCtl.domElement.setAttribute('data-path', 'body');
    bodyCtl.domElement.title = 'How big agents are drawn (a view setting: the simulation does not change)';
    this.pinCtl = v
      .add(this.view, 'pinWorld')
      .name('pin world size')
      .onChange((on: boolean) => actions.pinWorld(on));
    this.pinCtl.domElement.setAttribute('data-path', 'pinWorld');
    this.pinCtl.domElement.title =
      'Keep the world box as it is when you change the number of prey (unpinned, it grows or shrinks with the count at the preset density)';
    v.add(this.view, 'pause').name('pause / resume (space)');
    v.add(this.view, 'step').name('step once (.)');
    v.add(this.view, 'reset').name('reset (R)');
  }

  /** Show why a backend could not start (or hide the line). */
  setReason(text: string): void {
    this.view.reason = text;
    this.reasonCtl.updateDisplay();
    this.reasonCtl.domElement.title = text;
    if (text) {
      this.reasonCtl.show();
      this.status(text);
    } else this.reasonCtl.hide();
  }

  /** Reflect the world pin (set when the world is sized by hand). */
  setPinned(on: boolean): void {
    this.view.pinWorld = on;
    this.pinCtl.updateDisplay();
  }

  /** Reflect the backend actually in use. */
  setBackend(name: BackendName): void {
    this.view.backend = name;
    this.backendCtl.updateDisplay();
  }

  setPreset(name: PresetName): void {
    this.view.preset = name;
    this.gui.controllersRecursive().forEach((c) => {
      if (c.property === 'preset') c.updateDisplay();
    });
  }

  /** (Re)build the parameter folders from the schema and the values in force. */
  build(p: Params): void {
    const wasOpen = this.params ? !this.params._closed : true;
    const openFolders = new Set(this.params?.folders.filter((f) => !f._closed).map((f) => f._title) ?? []);
    this.params?.destroy();
    this.values = JSON.parse(JSON.stringify(p)) as Record<string, unknown>;
    const root = this.gui.addFolder('parameters');
    if (!wasOpen) root.close();
    const folders = new Map<string, GUI>();
    for (const f of fields) {
      if (isTransient(f.path)) continue;
      let parent = root;
      if (f.group) {
        let g = folders.get(f.group);
        if (!g) {
          g = root.addFolder(f.group);
          if (!openFolders.has(f.group) && !['separation', 'alignment', 'cohesion'].includes(f.group))
            g.close();
          folders.set(f.group, g);
        }
        parent = g;
      }
      if (f.spec.kind === 'spheres') this.obstacleFolder(root, f, p.obstacles);
      else this.control(parent, f);
    }
    this.params = root;
  }

  private control(parent: GUI, f: FieldEntry): void {
    const holder = (f.group ? this.values[f.group] : this.values) as Record<string, unknown>;
    const spec = f.spec;
    let c: Controller;
    if (spec.kind === 'enum') c = parent.add(holder, f.key, [...spec.options]);
    else if (spec.kind === 'bool') c = parent.add(holder, f.key);
    else if (BOXED.has(f.path)) c = parent.add(holder, f.key).step(1);
    else {
      const [lo, hi, step] = sliderRange(spec, holder[f.key] as number);
      c = parent.add(holder, f.key, lo, hi, step);
    }
    c.domElement.setAttribute('data-path', f.path);
    c.domElement.title = spec.doc;
    let last = getPath(this.values, f);
    const apply = async (v: unknown) => {
      if (v === last) return;
      const why = spec.structural
        ? await this.actions.resetWith(f.path, v)
        : this.actions.setParam(f.path, v);
      if (why) this.revert(c, f, last, why);
      else {
        last = v;
        setPath(this.values, f, v);
        c.updateDisplay();
      }
    };
    if (spec.structural) c.onFinishChange((v: unknown) => void apply(v));
    else c.onChange((v: unknown) => void apply(v));
    if (spec.kind === 'number' || spec.kind === 'int') this.takeTypedText(c, f, apply);
  }

  /**
   * Keep lil-gui from snapping and clamping typed text: its `input` handler is kept from running,
   * and on commit (blur, which Enter causes) the text is parsed by the schema. Capture listeners
   * on the row run before the input box's own (lil-gui's blur handler redraws the value).
   */
  private takeTypedText(c: Controller, f: FieldEntry, apply: (v: unknown) => Promise<void>): void {
    const box = c.domElement.querySelector('input');
    if (!box) return;
    let typed = false;
    c.domElement.addEventListener(
      'input',
      (e) => {
        if (e.target !== box) return;
        e.stopPropagation();
        typed = true;
      },
      { capture: true },
    );
    c.domElement.addEventListener(
      'blur',
      (e) => {
        if (e.target !== box || !typed) return;
        typed = false;
        let value: unknown;
        try {
          value = parseFieldText(f.path, box.value).value;
        } catch (err) {
          const why =
            err instanceof ParamError ? err.issues.map((i) => formatIssue(i).trim()).join('\n') : String(err);
          this.revert(c, f, getPath(this.values, f), why);
          return;
        }
        void apply(value);
      },
      { capture: true },
    );
  }

  private revert(c: Controller, f: FieldEntry, value: unknown, why: string): void {
    setPath(this.values, f, value);
    c.updateDisplay();
    this.status(why);
  }

  private obstacleFolder(root: GUI, f: FieldEntry, list: readonly Sphere[]): void {
    const g = root.addFolder(`obstacles (${list.length})`);
    g.domElement.setAttribute('data-path', f.path);
    g.add({ add: () => this.actions.addObstacle() }, 'add').name('add obstacle (alt+click)');
    g.add({ clear: () => this.actions.clearObstacles() }, 'clear').name('clear obstacles');
    const edited = list.map((s) => ({ ...s }));
    edited.forEach((s, i) => {
      const sg = g.addFolder(`#${i + 1}`);
      for (const k of ['x', 'y', 'z', 'r'] as const) {
        const hi = niceCeil(Math.max(Math.abs(s[k]) * 2, 1));
        sg.add(s, k, k === 'r' ? 0.1 : -hi, hi).onFinishChange(() => {
          const why = this.actions.setParam(
            'obstacles',
            edited.map((o) => ({ ...o })),
          );
          if (why) this.status(why);
        });
      }
      sg.close();
    });
  }
}
