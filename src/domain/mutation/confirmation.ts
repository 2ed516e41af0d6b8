// How much confirmation a plan's risk asks for, and whether what the operator gave is enough.
import type { MutationPlan } from './plan';

export type ConfirmationNeed = { kind: 'key' } | { kind: 'type'; expected: string };

/**
 * How the operator said yes: --yes in a script, a keypress, or the typed target name. With --yes,
 * `text` is what a flag typed ahead for a destructive plan (--expect N, --accept-data-loss INDEX).
 */
export type Confirmation = { by: 'yes-flag'; text?: string } | { by: 'key' } | { by: 'typed'; text: string };

export function confirmationNeeded(plan: Pick<MutationPlan, 'risk' | 'target' | 'confirmText'>): ConfirmationNeed {
  return plan.risk === 'destructive' ? { kind: 'type', expected: plan.confirmText ?? plan.target } : { kind: 'key' };
}

/**
 * A keypress or --yes confirms a reversible plan. A destructive one needs its text exactly (the
 * target's name, or the document count), typed or given by a flag along with --yes: --yes alone
 * never confirms data loss.
 */
export function confirmationSatisfies(plan: Pick<MutationPlan, 'risk' | 'target' | 'confirmText'>, c: Confirmation): boolean {
  const need = confirmationNeeded(plan);
  if (need.kind === 'key') return true;
  return c.by !== 'key' && c.text === need.expected;
}
