// The corruption recovery wizard as a pure machine. It shows what detection found and what
// recovers the shard without loss first; the offline checklist starts only on an explicit choice
// (c: CheckIndex, t: elasticsearch-shard, r: resume a checklist under way). The checklist itself
// is run by services/recovery-runner.ts, which reports each step (announced), its live output and
// its end as events; the machine asks the operator and answers with a confirmation or a refusal.
import { editLine, type LineEdit } from '../console/line-edit';
import type { Confirmation, ConfirmationNeed } from '../mutation/confirmation';
import type { RecoveryMethod } from '../corruption/progress';
import type { SnapshotHolding } from '../corruption/explain';
import { DEFAULT_SUFFIX, type RestoreForm } from './restore';
import { stay, type Machine, type Step } from './machine';
import { compareText } from '../text/order';
import { minuteUtc } from '../text/format';

export interface RecoveryFinding {
  index: string;
  shard: number;
  /** One-line facts: node, reason, folder, documents last seen. */
  lines: string[];
  /** What loses nothing, best first. */
  options: string[];
  shardTool: boolean;
  /** Why the checklist may not run from this host (another node holds the copy): then it is not offered. */
  elsewhere?: string;
  /** The restore route, offered before the lossy repair when a snapshot holds the index (restoreRoute). */
  restore?: { form: RestoreForm; line: string };
  /** What each way back loses, side by side, the least named (domain/corruption/loss.ts comparisonLines). */
  losses?: string[];
  /** The repair's loss is not counted yet and can be: what k copies and counts (one line). */
  countable?: string;
}

/**
 * The seed's first remedy when a snapshot holds the corrupt index: restore it from the newest one, in
 * place (the red index is deleted, then restored: closed, it would keep its shard locked, see
 * restorePlans; what was written to it since the snapshot is lost, which the operator confirms by typing its name), before the offline repair (which loses the
 * broken segments' documents and stops the engine). Undefined when no finished snapshot holds it.
 */
export function restoreRoute(index: string, snapshots: readonly SnapshotHolding[]): RecoveryFinding['restore'] {
  const newest = snapshots
    .filter((s) => s.state === 'SUCCESS' || s.state === 'PARTIAL')
    .sort((a, b) => compareText(b.endTime ?? '', a.endTime ?? ''))[0];
  if (!newest) return undefined;
  return {
    form: { repository: newest.repository, snapshot: newest.snapshot, indices: index, mode: 'replace', suffix: DEFAULT_SUFFIX },
    line: `restore in place from ${newest.repository}/${newest.snapshot}${newest.endTime ? ` of ${minuteUtc(newest.endTime)}` : ''} (writes since are lost)`,
  };
}

export interface AnnouncedStep {
  n: number;
  total: number;
  title: string;
  /** The exact command, or the request preview (method path, body, curl). */
  commandLines: string[];
  note: string;
  losesData: boolean;
}

export type RecoveryPhase =
  | 'detecting'
  | 'none'
  | 'options'
  /** The shard folder is copied and CheckIndex counts the copy (k): nothing else is offered meanwhile. */
  | 'comparing'
  | 'running'
  | 'asking'
  | 'finished'
  | 'failed'
  | 'declined'
  | 'error';

export interface RecoveryWizardState {
  phase: RecoveryPhase;
  finding?: RecoveryFinding;
  /** The title of the step a checklist under way stopped before (offered as r). */
  resumeAt?: string;
  step?: AnnouncedStep;
  need?: ConfirmationNeed;
  typed: string;
  /** Last lines of the running command's output. */
  output: string[];
  /** What each finished step found (ok/FAILED lines). */
  log: string[];
  /** The end: loss report or failure and what to do next; or why nothing can be done. */
  message?: string[];
}

export type RecoveryWizardEvent =
  | { type: 'detected'; finding: RecoveryFinding | null; resumeAt?: string; message?: string }
  | { type: 'choose'; method: RecoveryMethod | 'resume' }
  /** k: copy the shard folder and count the repair's loss; then the comparison again. */
  | { type: 'compare' }
  | { type: 'compared'; losses: string[]; message?: string }
  | { type: 'announced'; step: AnnouncedStep; need: ConfirmationNeed }
  | { type: 'type'; text: string }
  /** A key typed into the confirmation (the name asked for). */
  | { type: 'line'; edit: LineEdit }
  | { type: 'confirm' }
  | { type: 'decline' }
  | { type: 'output'; chunk: string }
  | { type: 'info'; line: string }
  | { type: 'ended'; status: 'finished' | 'failed' | 'declined'; lines: string[] }
  | { type: 'cancel' }
  | { type: 'error'; message: string };

export type RecoveryWizardEffect =
  | { type: 'detect' }
  | { type: 'run'; method: RecoveryMethod | 'resume' }
  | { type: 'compare' }
  | { type: 'answer'; confirmation: Confirmation | null };

const OUTPUT_LINES = 6;
const LOG_LINES = 4;

function tail(lines: string[], n: number): string[] {
  return lines.slice(Math.max(0, lines.length - n));
}

export function recoveryMachine(): Machine<RecoveryWizardState, RecoveryWizardEvent, RecoveryWizardEffect> {
  const blank: RecoveryWizardState = { phase: 'detecting', typed: '', output: [], log: [] };
  return {
    init: () => ({ state: blank, effects: [{ type: 'detect' }] }),
    step(s, e): Step<RecoveryWizardState, RecoveryWizardEffect> {
      switch (e.type) {
        case 'detected':
          if (!e.finding && !e.resumeAt) return stay({ ...s, phase: 'none', message: [e.message ?? 'no corrupt primary found'] });
          return stay({
            ...s,
            phase: 'options',
            finding: e.finding ?? undefined,
            resumeAt: e.resumeAt,
            message: e.message ? [e.message] : undefined,
          });
        case 'choose': {
          if (s.phase !== 'options') return stay(s);
          if (e.method === 'resume' && !s.resumeAt) return stay(s);
          if (e.method === 'shard-tool' && !s.finding?.shardTool) return stay(s);
          if (e.method !== 'resume' && (!s.finding || s.resumeAt || s.finding.elsewhere)) return stay(s);
          return { state: { ...s, phase: 'running', message: undefined }, effects: [{ type: 'run', method: e.method }] };
        }
        case 'compare':
          if (s.phase !== 'options' || !s.finding?.countable) return stay(s);
          return { state: { ...s, phase: 'comparing', output: [], log: [], message: undefined }, effects: [{ type: 'compare' }] };
        case 'compared': {
          if (s.phase !== 'comparing' || !s.finding) return stay(s);
          const { countable: _counted, ...finding } = s.finding;
          return stay({ ...s, phase: 'options', finding: { ...finding, losses: e.losses }, message: e.message ? [e.message] : undefined });
        }
        case 'announced':
          return stay({ ...s, phase: 'asking', step: e.step, need: e.need, typed: '', output: [] });
        case 'type':
          return stay(s.phase === 'asking' && s.need?.kind === 'type' ? { ...s, typed: e.text } : s);
        case 'line':
          return stay(s.phase === 'asking' && s.need?.kind === 'type' ? { ...s, typed: editLine(s.typed, e.edit) } : s);
        case 'confirm': {
          if (s.phase !== 'asking' || !s.need) return stay(s);
          if (s.need.kind === 'key')
            return { state: { ...s, phase: 'running' }, effects: [{ type: 'answer', confirmation: { by: 'key' } }] };
          if (s.typed !== s.need.expected) return stay(s);
          return { state: { ...s, phase: 'running' }, effects: [{ type: 'answer', confirmation: { by: 'typed', text: s.typed } }] };
        }
        case 'decline':
          return s.phase === 'asking' ? { state: { ...s, phase: 'running' }, effects: [{ type: 'answer', confirmation: null }] } : stay(s);
        case 'output':
          return stay({ ...s, output: tail([...s.output, ...e.chunk.replace(/\n$/, '').split('\n')], OUTPUT_LINES) });
        case 'info':
          return stay({ ...s, log: tail([...s.log, e.line.trim()], LOG_LINES) });
        case 'ended':
          return stay({ ...s, phase: e.status, message: e.lines, need: undefined });
        case 'cancel':
          // A running step cannot be called back; while asking, Esc declines (the runner stops there).
          if (s.phase === 'asking') return { state: { ...s, phase: 'running' }, effects: [{ type: 'answer', confirmation: null }] };
          return stay(s);
        case 'error':
          return stay({ ...s, phase: 'error', message: [e.message] });
      }
    },
  };
}

/** Whether Esc may close the wizard now (never while a step runs, nor while the copy is taken and counted). */
export function recoveryClosable(s: RecoveryWizardState): boolean {
  return s.phase !== 'running' && s.phase !== 'asking' && s.phase !== 'comparing';
}
