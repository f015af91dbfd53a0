/**
 * The Vicsek order–disorder transition, pinned with fixed seeds (issue 32): 2D, ρ = 4, r = 1,
 * v₀ = 0.5, dt 1, periodic (Vicsek et al. 1995's density; v₀ = 0.5 as Chaté et al. 2008 take it,
 * so a window of a few thousand steps mixes), angular noise, the wasm kernel
 * (vicsek-transition.ts). Measured on 2 shared cores: the N = 100 sweep ~3 s; the two-size sweep
 * (N = 100 and 1600, six η) ~40 s, hence npm test only.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { OrderSummary } from '../../src/metrics/order-statistics.ts';
import { npmTestOnly } from '../helpers.ts';
import { measure } from './vicsek-transition.ts';

async function sweep(agents: number, etas: readonly number[], transient: number, window: number) {
  const out: OrderSummary[] = [];
  for (const noise of etas)
    out.push(await measure({ agents, density: 4, speed: 0.5, noise, transient, window, seed: 1 }));
  return out;
}

const row = (eta: number, s: OrderSummary) =>
  `η ${eta}: ⟨φ⟩ ${s.mean?.toFixed(3)}, χ ${s.susceptibility?.toFixed(3)}, U ${s.binder?.toFixed(4)}`;

/** ⟨φ⟩ falls with η; χ peaks at an η inside the range, well above both ends. */
function assertTransition(etas: readonly number[], got: readonly OrderSummary[], what: string) {
  const phi = got.map((s) => s.mean as number);
  const chi = got.map((s) => s.susceptibility as number);
  for (let k = 1; k < phi.length; k++) assert.ok(phi[k] < phi[k - 1], `${what}: ⟨φ⟩ falls at η ${etas[k]}`);
  assert.ok(phi[0] > 0.9, `${what}: ordered at η ${etas[0]}`);
  assert.ok(phi[phi.length - 1] < 0.2, `${what}: disordered at η ${etas[etas.length - 1]}`);
  const peak = chi.indexOf(Math.max(...chi));
  assert.ok(peak > 0 && peak < chi.length - 1, `${what}: χ peaks inside the range (at η ${etas[peak]})`);
  assert.ok(chi[peak] > 3 * chi[0] && chi[peak] > 2 * chi[chi.length - 1], `${what}: χ's peak stands out`);
  return etas[peak];
}

test('vicsek, N = 100: ⟨φ⟩ falls as η rises and χ peaks inside', async (t) => {
  const etas = [1, 3, 4, 5.5];
  const got = await sweep(100, etas, 500, 2000);
  for (let k = 0; k < etas.length; k++) t.diagnostic(`N 100, ${row(etas[k], got[k])}`);
  const at = assertTransition(etas, got, 'N 100');
  assert.ok(at >= 3 && at <= 4, `χ peaks near η_c ≈ 4 at this size: ${at}`);
});

test('vicsek, N = 100 and 1600: χ peaks near η_c, the Binder cumulants cross', {
  skip: npmTestOnly,
}, async (t) => {
  const etas = [1, 2.5, 3.25, 3.75, 4.25, 5];
  const small = await sweep(100, etas, 500, 2000);
  const big = await sweep(1600, etas, 500, 2000);
  for (let k = 0; k < etas.length; k++) {
    t.diagnostic(`N 100, ${row(etas[k], small[k])}`);
    t.diagnostic(`N 1600, ${row(etas[k], big[k])}`);
  }
  const peakSmall = assertTransition(etas, small, 'N 100');
  const peakBig = assertTransition(etas, big, 'N 1600');
  // the peak moves to lower noise and grows with N (finite-size shift towards η_c)
  assert.ok(peakBig <= peakSmall, `χ's peak: N 1600 at ${peakBig}, N 100 at ${peakSmall}`);
  const chiMax = (s: readonly OrderSummary[]) => Math.max(...s.map((x) => x.susceptibility as number));
  assert.ok(chiMax(big) > 2 * chiMax(small), 'χ grows with N');
  // U: the larger flock's is higher on the ordered side (η 2.5), lower on the disordered side
  // (η ≥ 3.75): the curves cross between
  const u = (s: readonly OrderSummary[], eta: number) => s[etas.indexOf(eta)].binder as number;
  assert.ok(u(big, 2.5) > u(small, 2.5) + 5e-4, `U at η 2.5: ${u(big, 2.5)} vs ${u(small, 2.5)}`);
  for (const eta of [3.75, 4.25, 5]) assert.ok(u(big, eta) < u(small, eta), `U at η ${eta}`);
  // the limits: 2/3 ordered, 1/3 + 1/(3N) disordered
  assert.ok(Math.abs(u(big, 1) - 2 / 3) < 1e-3 && Math.abs(u(big, 5) - 1 / 3) < 0.05, 'U’s limits');
});
