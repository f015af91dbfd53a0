/**
 * Touch gestures for what the mouse does with buttons and keys: hold one finger still to fire the
 * laser (it follows the finger until lifted), double-tap to add a predator there. One-finger
 * drags and two-finger pinches stay OrbitControls' orbit and zoom.
 */

/** A finger held this long without moving fires the laser (ms). */
const LONG_PRESS_MS = 350;
/** A finger moving more than this (CSS px) is a drag, not a press or a tap. */
const SLOP_PX = 10;
/** Two taps within this time (ms) and distance (px) are a double tap. */
const DOUBLE_TAP_MS = 450;
const DOUBLE_TAP_PX = 30;
/** A touch shorter than this is a tap (ms). */
const TAP_MS = 250;

export interface TouchActions {
  /** Point the laser (and the predator placement) at this touch. */
  aim(e: PointerEvent): void;
  /** Start or stop firing. */
  fire(on: boolean): void;
  /** Two quick taps at the same place. */
  doubleTap(e: PointerEvent): void;
}

export class TouchGestures {
  private press: { id: number; x: number; y: number; t: number; timer: number } | null = null;
  private firing = false;
  private fingers = 0;
  private lastTap: { x: number; y: number; t: number } | null = null;

  constructor(el: HTMLElement, actions: TouchActions) {
    el.addEventListener('pointerdown', (e) => {
      if (e.pointerType !== 'touch') return;
      this.fingers++;
      if (this.fingers > 1) return this.cancel(actions); // a pinch: orbit controls' business
      const timer = window.setTimeout(() => {
        this.firing = true;
        actions.aim(e);
        actions.fire(true);
      }, LONG_PRESS_MS);
      this.press = { id: e.pointerId, x: e.clientX, y: e.clientY, t: e.timeStamp, timer };
    });
    el.addEventListener('pointermove', (e) => {
      const p = this.press;
      if (!p || e.pointerId !== p.id) return;
      if (this.firing) actions.aim(e);
      else if (Math.hypot(e.clientX - p.x, e.clientY - p.y) > SLOP_PX) {
        clearTimeout(p.timer); // a drag: orbit
        this.press = null;
      }
    });
    const end = (e: PointerEvent) => {
      if (e.pointerType !== 'touch') return;
      this.fingers = Math.max(0, this.fingers - 1);
      const p = this.press;
      if (!p || e.pointerId !== p.id) return;
      clearTimeout(p.timer);
      this.press = null;
      if (this.firing) {
        this.firing = false;
        actions.fire(false);
        return;
      }
      if (e.type !== 'pointerup' || e.timeStamp - p.t > TAP_MS) return;
      const last = this.lastTap;
      if (
        last &&
        e.timeStamp - last.t < DOUBLE_TAP_MS &&
        Math.hypot(e.clientX - last.x, e.clientY - last.y) < DOUBLE_TAP_PX
      ) {
        this.lastTap = null;
        actions.doubleTap(e);
      } else this.lastTap = { x: e.clientX, y: e.clientY, t: e.timeStamp };
    };
    el.addEventListener('pointerup', end);
    el.addEventListener('pointercancel', end);
  }

  private cancel(actions: TouchActions): void {
    if (this.press) clearTimeout(this.press.timer);
    this.press = null;
    if (this.firing) {
      this.firing = false;
      actions.fire(false);
    }
  }
}
