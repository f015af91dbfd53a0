import type { Params } from './schema.ts';

/**
 * What the Vicsek model (model 'vicsek') refuses: it has no predators, obstacles, laser or
 * targets (those are Reynolds-model rules; a flock that wants them runs model 'reynolds'). Its
 * world may have any boundary: the paper's is periodic (wrap, which the `vicsek` preset uses);
 * the others act on the agent after its move as they do for every model (docs/model.md).
 */
export function vicsekChecks(
  p: Params,
  issues: { path: string; value: unknown; allowed: string }[], // (validate.ts's ParamIssue)
): void {
  if (p.model !== 'vicsek') return;
  const refuse = (path: string, value: unknown, what: string) =>
    issues.push({
      path,
      value,
      allowed: `${what} with model 'vicsek' (the Vicsek model has none; model 'reynolds' has)`,
    });
  if (p.predators > 0) refuse('predators', p.predators, '0');
  if (p.obstacles.length > 0) refuse('obstacles', p.obstacles, 'no obstacles ([])');
  if (p.laser.enabled) refuse('laser.enabled', true, 'false');
  if (p.preyTarget.enabled) refuse('preyTarget.enabled', true, 'false');
  if (p.predatorTarget.enabled) refuse('predatorTarget.enabled', true, 'false');
}
