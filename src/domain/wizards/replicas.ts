// Replicas wizard: set number_of_replicas on an index or pattern, optionally on the index template
// too (so future indices are created right), show the platform configuration that keeps it so,
// then watch health until the expected state.
import { globMatches } from '../inspect/inspect';
import type { Confirmation } from '../mutation/confirmation';
import type { MutationPlan } from '../mutation/plan';
import { describeMatch, pinIndices } from '../mutation/targets';
import type { HealthStatus } from '../types';
import { editLine, type LineEdit } from '../console/line-edit';
import { DEFAULT_TEMPLATE_VERSION, projectIdOfIndex } from '../naming';
import {
  commonStep,
  go,
  stay,
  watchLostMessage,
  withFocus,
  type CommonEvent,
  type FocusEvent,
  type Focus,
  type Machine,
  type MutateEffect,
  type PlanResult,
  type Step,
} from './machine';

/** "2" -> 2; "-1", "1.5", "abc", "" get one sentence saying what is wrong. */
export function parseReplicaCount(text: string): { ok: true; value: number } | { ok: false; error: string } {
  const t = text.trim();
  if (!/^\d+$/.test(t)) {
    const why = /^-\d+$/.test(t) ? 'cannot be negative' : /^-?\d*\.\d+$/.test(t) ? 'must be a whole number' : 'is not a number';
    return {
      ok: false,
      error: `replicas "${text}" ${why}: give a whole number of replicas, 0 or more (e.g. 0 on a single node, 1 with two or more nodes)`,
    };
  }
  const value = Number(t);
  if (!Number.isSafeInteger(value) || value > 1000)
    return { ok: false, error: `replicas "${text}" is too large: give a whole number such as 0 or 1` };
  return { ok: true, value };
}

/** Health the target can reach: every replica needs a data node of its own beside its primary. */
export function expectedHealth(replicas: number, dataNodes: number): HealthStatus {
  return replicas + 1 <= dataNodes ? 'green' : 'yellow';
}

export function replicaWarnings(replicas: number, dataNodes: number): string[] {
  const w: string[] = [];
  if (dataNodes <= 1 && replicas > 0)
    w.push(
      `${replicas} replica${replicas > 1 ? 's' : ''} on a single-node cluster cannot be placed: the indices turn yellow (set 0 on one node)`,
    );
  else if (replicas + 1 > dataNodes)
    w.push(`${replicas} replicas need ${replicas + 1} data nodes, the cluster has ${dataNodes}: some replicas stay unassigned (yellow)`);
  if (dataNodes > 1 && replicas === 0)
    w.push(`with ${dataNodes} data nodes at least one replica is recommended (platform rule 3): a lost node would lose data`);
  return w;
}

/** Sent to the indices the review showed (pinIndices), not to the pattern. */
export function replicasPlan(target: string, replicas: number, indices: string[]): MutationPlan {
  return pinIndices(
    {
      method: 'PUT',
      path: `/${encodeURIComponent(target)}/_settings`,
      querystring: { expand_wildcards: 'all' },
      body: { index: { number_of_replicas: replicas } },
      risk: 'reversible',
      target,
      summary: `set number_of_replicas to ${replicas} on ${describeMatch(indices)}`,
      verify: {
        path: `/${encodeURIComponent(target)}/_settings/index.number_of_replicas`,
        querystring: { flat_settings: 'true', expand_wildcards: 'all' },
        check(body) {
          const wrong = Object.entries((body ?? {}) as Record<string, { settings: Record<string, string> }>)
            .filter(([, v]) => Number(v.settings['index.number_of_replicas']) !== replicas)
            .map(([i]) => i);
          return wrong.length
            ? { ok: false, message: `still not ${replicas} replicas: ${wrong.join(', ')}` }
            : { ok: true, message: `every matched index now has ${replicas} replica${replicas === 1 ? '' : 's'}` };
        },
      },
    },
    target,
    indices,
  );
}

type Json = Record<string, any>;

function templateReplicas(template: Json): unknown {
  const s = template.template?.settings ?? {};
  return s.index?.number_of_replicas ?? s['index.number_of_replicas'] ?? s.number_of_replicas;
}

/**
 * The template as it is, with only template.settings.index.number_of_replicas changed (other
 * spellings of the same setting are removed so they cannot contradict it).
 */
export function templateWithReplicas(template: Json, replicas: number): Json {
  const next: Json = structuredClone(template);
  next.template ??= {};
  const settings: Json = (next.template.settings ??= {});
  delete settings['index.number_of_replicas'];
  delete settings.number_of_replicas;
  settings.index = { ...(settings.index ?? {}), number_of_replicas: replicas };
  return next;
}

export function templatePlan(name: string, template: Json, replicas: number): MutationPlan {
  return {
    method: 'PUT',
    path: `/_index_template/${encodeURIComponent(name)}`,
    querystring: {},
    body: templateWithReplicas(template, replicas),
    risk: 'reversible',
    target: name,
    summary: `set number_of_replicas to ${replicas} in index template ${name} (the rest of the template unchanged), for indices created from now on`,
    verify: {
      path: `/_index_template/${encodeURIComponent(name)}`,
      querystring: {},
      check(body) {
        const t = (body as Json)?.index_templates?.[0]?.index_template ?? {};
        return Number(templateReplicas(t)) === replicas
          ? { ok: true, message: `template ${name} now creates indices with ${replicas} replica${replicas === 1 ? '' : 's'}` }
          : { ok: false, message: `template ${name} still says ${String(templateReplicas(t))} replicas` };
      },
    },
  };
}

/**
 * The value of the platform's topic.elasticsearch.index-templates-settings that keeps the template
 * this way (the platform re-applies its configuration on restart).
 */
export function platformTemplateSettings(name: string, template: Json | null, replicas: number): Json {
  const shards = Number(template?.template?.settings?.index?.number_of_shards ?? template?.template?.settings?.number_of_shards ?? 6);
  // additional_components as the template is really composed (domain/templates.ts, the Templates pane's value).
  return {
    [name]: {
      number_of_shards: shards,
      number_of_replicas: replicas,
      additional_components: ((template?.composed_of ?? []) as unknown[]).map(String),
    },
  };
}

// --- the machine ------------------------------------------------------------------------------

export interface ReplicasForm {
  target: string;
  replicas: string;
  template: string;
  withTemplate: boolean;
}

export interface ReplicasFacts {
  indices: string[];
  /** number_of_replicas per index before the change. */
  before: Record<string, number>;
  dataNodes: number;
  healthBefore: HealthStatus;
  /** The template's definition; null when it does not exist; undefined when not asked. */
  template?: Json | null;
}

export interface ReplicasReview {
  replicas: number;
  facts: ReplicasFacts;
  plans: MutationPlan[];
  warnings: string[];
  notes: string[];
  platformJson?: Json;
  expected: HealthStatus;
}

export interface ReplicasReport {
  target: string;
  replicas: number;
  indices: string[];
  before: { health: HealthStatus; replicas: Record<string, number> };
  after?: { health: HealthStatus; replicas: Record<string, number>; reachedExpected: boolean };
  expected: HealthStatus;
  results: PlanResult[];
  platformJson?: Json;
}

/** The form's fields in the order Tab visits them. */
export const REPLICAS_FIELDS = ['target', 'replicas', 'withTemplate', 'template'] as const;
export type ReplicasField = (typeof REPLICAS_FIELDS)[number];

/** The fields shown (and visited by Tab): the template's name only once the box is ticked. */
export function replicasFieldsShown(form: Pick<ReplicasForm, 'withTemplate'>): readonly ReplicasField[] {
  return form.withTemplate ? REPLICAS_FIELDS : REPLICAS_FIELDS.filter((f) => f !== 'template');
}

/**
 * The index template the form offers for this target: the project template for a project index
 * (its name starts with the template's prefix), else none (the operator names one).
 */
export function offeredTemplate(target: string, templateVersion = DEFAULT_TEMPLATE_VERSION): string {
  return projectIdOfIndex(target, templateVersion) !== null ? `service_${templateVersion}` : '';
}

type ReplicasPhase =
  | { phase: 'input'; form: ReplicasForm; error?: string }
  | { phase: 'inspecting'; form: ReplicasForm }
  | { phase: 'review'; form: ReplicasForm; review: ReplicasReview }
  | { phase: 'applying'; form: ReplicasForm; review: ReplicasReview }
  | { phase: 'watching'; form: ReplicasForm; review: ReplicasReview; results: PlanResult[] }
  | { phase: 'done'; report: ReplicasReport }
  | { phase: 'failed'; message: string; report?: ReplicasReport }
  | { phase: 'cancelled' };

export type ReplicasState = ReplicasPhase & Focus<ReplicasField>;

export type ReplicasEvent =
  | CommonEvent
  | FocusEvent
  | { type: 'edit'; field: 'target' | 'replicas' | 'template'; value: string }
  /** A key typed into the focused text field (the focus is filled in by withFocus). */
  | { type: 'line'; edit: LineEdit; field?: ReplicasField }
  /** Space on the focused choice: toggles the template. */
  | { type: 'change'; field?: ReplicasField }
  | { type: 'toggleTemplate' }
  | { type: 'submit' }
  | { type: 'rejected'; message: string }
  | { type: 'inspected'; facts: ReplicasFacts }
  | { type: 'confirm'; confirmation: Confirmation }
  /** Backspace on the review: back to the form as it was (nothing erased). */
  | { type: 'back' }
  | { type: 'applied'; results: PlanResult[] }
  | { type: 'watched'; health: HealthStatus; replicas: Record<string, number>; timedOut: boolean };

export type ReplicasEffect =
  | { type: 'inspect'; target: string; template?: string }
  | MutateEffect
  | { type: 'watch'; target: string; expected: HealthStatus; replicas: number };

/** Why the template asked for cannot go with this change, or null: it does not exist, or its
 *  index patterns match none of the indices changed (changing it would not keep them in line). */
export function templateProblem(form: ReplicasForm, facts: ReplicasFacts): string | null {
  if (!form.withTemplate) return null;
  if (!facts.template)
    return `index template "${form.template}" does not exist: nothing was sent (shardeck templates lists them; leave out --template to change only the indices)`;
  const raw = facts.template.index_patterns;
  const patterns = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).map(String);
  if (facts.indices.length && !facts.indices.some((i) => patterns.some((p) => globMatches(p, i))))
    return `index template "${form.template}" (index patterns ${patterns.join(', ') || 'none'}) matches none of ${describeMatch(facts.indices)}: nothing was sent (name the template those indices come from)`;
  return null;
}

export function buildReplicasReview(form: ReplicasForm, replicas: number, facts: ReplicasFacts): ReplicasReview {
  const plans = [replicasPlan(form.target, replicas, facts.indices)];
  const notes: string[] = [];
  let platformJson: Json | undefined;
  if (form.withTemplate) {
    if (facts.template) {
      plans.push(templatePlan(form.template, facts.template, replicas));
      platformJson = platformTemplateSettings(form.template, facts.template, replicas);
      notes.push(
        'keep the platform in line: set topic.elasticsearch.index-templates-settings as below (additional_components as the template is composed now), then restart the platform services, or it re-applies its own value',
      );
    }
  }
  return {
    replicas,
    facts,
    plans,
    warnings: replicaWarnings(replicas, facts.dataNodes),
    notes,
    platformJson,
    expected: expectedHealth(replicas, facts.dataNodes),
  };
}

function reportOf(form: ReplicasForm, review: ReplicasReview, results: PlanResult[]): ReplicasReport {
  return {
    target: form.target,
    replicas: review.replicas,
    indices: review.facts.indices,
    before: { health: review.facts.healthBefore, replicas: review.facts.before },
    expected: review.expected,
    results,
    platformJson: review.platformJson,
  };
}

/** The form opens on the replicas when the target came from the selected row. */
export function replicasMachine(initial: Partial<ReplicasForm> = {}): Machine<ReplicasState, ReplicasEvent, ReplicasEffect> {
  return withFocus(replicasPhases(initial), REPLICAS_FIELDS, initial.target ? 'replicas' : 'target', (s) =>
    'form' in s ? replicasFieldsShown(s.form) : REPLICAS_FIELDS,
  );
}

function replicasPhases(initial: Partial<ReplicasForm>): Machine<ReplicasPhase, ReplicasEvent, ReplicasEffect> {
  // The template offered is the one the target's indices come from (a project's), or none.
  const form: ReplicasForm = { target: '', replicas: '', template: offeredTemplate(initial.target ?? ''), withTemplate: false, ...initial };
  return {
    init: () => stay({ phase: 'input', form }),
    step(s, e): Step<ReplicasPhase, ReplicasEffect> {
      // The node restarting while health is watched: the report of what was applied is kept.
      if (s.phase === 'watching' && e.type === 'error')
        return stay({ phase: 'failed', message: watchLostMessage(e.message), report: reportOf(s.form, s.review, s.results) });
      const common = commonStep<ReplicasPhase, ReplicasEffect>(s, e);
      if (common) return common;
      switch (s.phase) {
        case 'input':
          if (e.type === 'edit') return stay({ phase: 'input', form: { ...s.form, [e.field]: e.value } });
          if (e.type === 'line' && e.field && e.field !== 'withTemplate')
            return stay({ phase: 'input', form: { ...s.form, [e.field]: editLine(s.form[e.field], e.edit) } });
          // A character typed on the box is said, not dropped (Space is its toggle: the change event).
          if (e.type === 'line' && e.field === 'withTemplate' && !(e.edit.type === 'insert' && e.edit.text === ' '))
            return stay({
              phase: 'input',
              form: s.form,
              error: 'this box takes Space (ticked: the template changes too); the number of replicas goes in "replicas" (Tab back to it)',
            });
          if (e.type === 'toggleTemplate' || (e.type === 'change' && e.field === 'withTemplate'))
            return stay({ phase: 'input', form: { ...s.form, withTemplate: !s.form.withTemplate } });
          if (e.type === 'submit') {
            const n = parseReplicaCount(s.form.replicas);
            if (!n.ok) return stay({ ...s, error: n.error });
            if (s.form.withTemplate && !s.form.template.trim())
              return stay({
                ...s,
                error: 'no template named: give the index template the indices come from (service_v9 for a project index)',
              });
            return go(
              { phase: 'inspecting', form: s.form },
              { type: 'inspect', target: s.form.target, template: s.form.withTemplate ? s.form.template : undefined },
            );
          }
          return stay(s);
        case 'inspecting':
          if (e.type === 'rejected') return stay({ phase: 'input', form: s.form, error: e.message });
          if (e.type === 'inspected') {
            const n = parseReplicaCount(s.form.replicas);
            if (!n.ok) return stay({ phase: 'input', form: s.form, error: n.error });
            const wrongTemplate = templateProblem(s.form, e.facts);
            if (wrongTemplate) return stay({ phase: 'input', form: s.form, error: wrongTemplate });
            return stay({ phase: 'review', form: s.form, review: buildReplicasReview(s.form, n.value, e.facts) });
          }
          return stay(s);
        case 'review':
          if (e.type === 'confirm')
            return go(
              { phase: 'applying', form: s.form, review: s.review },
              { type: 'mutate', plans: s.review.plans, confirmation: e.confirmation },
            );
          if (e.type === 'back') return stay({ phase: 'input', form: s.form });
          return stay(s);
        case 'applying':
          if (e.type === 'applied') {
            if (e.results.some((r) => !r.ok))
              return stay({
                phase: 'failed',
                message: e.results.find((r) => !r.ok)!.message,
                report: reportOf(s.form, s.review, e.results),
              });
            return go(
              { phase: 'watching', form: s.form, review: s.review, results: e.results },
              { type: 'watch', target: s.form.target, expected: s.review.expected, replicas: s.review.replicas },
            );
          }
          return stay(s);
        case 'watching':
          if (e.type === 'watched') {
            const report = reportOf(s.form, s.review, s.results);
            report.after = { health: e.health, replicas: e.replicas, reachedExpected: !e.timedOut };
            return stay({ phase: 'done', report });
          }
          return stay(s);
        default:
          return stay(s);
      }
    },
  };
}
