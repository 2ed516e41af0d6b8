// Component template that disables a field (seed: PUT /_component_template/{name}, and the index
// template's composed_of gains it): the form, the review with both requests and the platform's
// index-templates-settings value to set, then the two guarded requests and the checks after them.
import { editLine, type LineEdit } from '../console/line-edit';
import type { Confirmation } from '../mutation/confirmation';
import type { MutationPlan } from '../mutation/plan';
import {
  checkComponentName,
  checkFieldName,
  checkFieldType,
  componentTemplatePlan,
  composeTemplatePlan,
  DEFAULT_DISABLE_TYPE,
  mappedField,
  platformTemplatesSettings,
  type PlatformTemplateSettings,
  type TemplatesView,
} from '../templates';
import {
  commonStep,
  go,
  stay,
  withFocus,
  type CommonEvent,
  type Focus,
  type FocusEvent,
  type Machine,
  type PlanResult,
  type Step,
} from './machine';

type Json = Record<string, any>;

export const DEFAULT_COMPOSE_TEMPLATE = 'service_v9';

/** The platform re-applies its own templates on restart: its configuration must list the component. */
export const PLATFORM_NOTE =
  'the platform re-applies its own templates on restart: set topic.elasticsearch.index-templates-settings to the value below, then restart the platform services';

export interface ComponentForm {
  name: string;
  field: string;
  type: string;
  template: string;
}

export const COMPONENT_FIELDS = ['name', 'field', 'type', 'template'] as const;
export type ComponentField = (typeof COMPONENT_FIELDS)[number];

/** What the review is built from, read just before it. */
export interface ComponentFacts {
  /** The index template as it is (index_template), null when it does not exist. */
  template: Json | null;
  /** The component template of that name as it is, null when new. */
  existing: Json | null;
  view: TemplatesView;
  /** The field as a new index from the template maps it now (simulated), if mapped. */
  mappedNow?: Json;
}

export interface ComponentReview {
  form: ComponentForm;
  plans: MutationPlan[];
  /** The template definition the second plan was built from (compared with a fresh read before sending). */
  templateBefore: Json;
  notes: string[];
  warnings: string[];
  /** The platform's value once the change is made. */
  platformJson: Record<string, PlatformTemplateSettings>;
}

export interface ComponentReport {
  results: PlanResult[];
  /** A new index from the template maps the field with enabled: false (simulated after the change). */
  newIndex?: { ok: boolean; message: string };
  platformJson: Record<string, PlatformTemplateSettings>;
}

/** Every check of the form: one sentence, or null. */
export function checkComponentForm(f: ComponentForm): string | null {
  return (
    checkComponentName(f.name) ??
    checkFieldName(f.field) ??
    checkFieldType(f.type) ??
    (f.template.trim() ? null : 'no index template named: give the one to compose it into (service_v9 by default)')
  );
}

export function buildComponentReview(
  form: ComponentForm,
  facts: ComponentFacts,
): { ok: true; review: ComponentReview } | { ok: false; error: string } {
  if (!facts.template) {
    const names = facts.view.index.map((t) => t.name);
    return {
      ok: false,
      error: `index template "${form.template}" does not exist: give one of ${names.length ? names.join(', ') : '(there is none)'} with --template`,
    };
  }
  const composed = ((facts.template.composed_of ?? []) as string[]).includes(form.name);
  const plans = [componentTemplatePlan(form.name, form.field, form.type, facts.existing !== null)];
  const notes: string[] = [
    'existing indices keep their mappings; indices created from the template from now on keep the field in _source, not indexed',
  ];
  const warnings: string[] = [];
  if (facts.existing) {
    const users = facts.view.components.find((c) => c.name === form.name)?.usedBy ?? [];
    warnings.push(
      `component template ${form.name} exists and is replaced whole${users.length ? ` (used by ${users.join(', ')})` : ''}: ${JSON.stringify(facts.existing.template ?? {})}`,
    );
  }
  if (composed) notes.push(`${form.template} is already composed of ${form.name}: the index template is not changed`);
  else plans.push(composeTemplatePlan(form.template, facts.template, form.name));
  if (facts.mappedNow && !(facts.mappedNow.type === form.type && facts.mappedNow.enabled === false))
    notes.push(
      `a new index maps ${form.field} now as ${JSON.stringify(facts.mappedNow)}; after this as {"type":"${form.type}","enabled":false}`,
    );
  const platform = platformTemplatesSettings(facts.view);
  const entry = facts.view.index.find((t) => t.name === form.template)!;
  const components = [...entry.composedOf.filter((c) => c !== form.name), form.name];
  platform[form.template] = { number_of_shards: entry.shards, number_of_replicas: entry.replicas, additional_components: components };
  notes.push(PLATFORM_NOTE);
  return { ok: true, review: { form, plans, templateBefore: facts.template, notes, warnings, platformJson: platform } };
}

/** After the change: does a new index from the template map the field as asked? (simulated mappings) */
export function checkNewIndexMapping(
  form: Pick<ComponentForm, 'field' | 'type' | 'template'>,
  mappings: Json | undefined,
): { ok: boolean; message: string } {
  const m = mappedField(mappings, form.field);
  return m && m.enabled === false && m.type === form.type
    ? { ok: true, message: `a new index from ${form.template} maps ${form.field} as ${form.type} with enabled: false` }
    : {
        ok: false,
        message: `a new index from ${form.template} would map ${form.field} as ${m ? JSON.stringify(m) : 'nothing'}, not ${form.type} with enabled: false`,
      };
}

export type ComponentState = (
  | { phase: 'input'; form: ComponentForm; error?: string }
  | { phase: 'inspecting'; form: ComponentForm }
  | { phase: 'review'; form: ComponentForm; review: ComponentReview }
  | { phase: 'applying'; form: ComponentForm; review: ComponentReview }
  | { phase: 'done'; form: ComponentForm; review: ComponentReview; report: ComponentReport }
  | { phase: 'failed'; message: string; report?: ComponentReport }
  | { phase: 'cancelled' }
) &
  Focus<ComponentField>;

export type ComponentEvent =
  | CommonEvent
  | FocusEvent
  | { type: 'edit'; field: ComponentField; value: string }
  | { type: 'line'; edit: LineEdit; field?: ComponentField }
  | { type: 'change'; field?: ComponentField }
  | { type: 'submit' }
  | { type: 'back' }
  | { type: 'rejected'; message: string }
  | { type: 'inspected'; facts: ComponentFacts }
  | { type: 'confirm'; confirmation: Confirmation }
  | { type: 'applied'; report: ComponentReport };

export type ComponentEffect =
  { type: 'inspect'; form: ComponentForm } | { type: 'apply'; review: ComponentReview; confirmation: Confirmation };

export function componentMachine(initial: Partial<ComponentForm> = {}): Machine<ComponentState, ComponentEvent, ComponentEffect> {
  const form: ComponentForm = { name: '', field: '', type: DEFAULT_DISABLE_TYPE, template: DEFAULT_COMPOSE_TEMPLATE, ...initial };
  const m: Machine<ComponentState, ComponentEvent, ComponentEffect> = {
    init: () => stay({ phase: 'input', form }),
    step(s, e): Step<ComponentState, ComponentEffect> {
      const common = commonStep<ComponentState, ComponentEffect>(s, e);
      if (common) return common;
      switch (s.phase) {
        case 'input':
          if (e.type === 'edit') return stay({ phase: 'input', form: { ...s.form, [e.field]: e.value } });
          if (e.type === 'line' && e.field)
            return stay({ phase: 'input', form: { ...s.form, [e.field]: editLine(s.form[e.field], e.edit) } });
          if (e.type === 'submit') {
            const error = checkComponentForm(s.form);
            if (error) return stay({ ...s, error });
            return go({ phase: 'inspecting', form: s.form }, { type: 'inspect', form: s.form });
          }
          return stay(s);
        case 'inspecting':
          if (e.type === 'rejected') return stay({ phase: 'input', form: s.form, error: e.message });
          if (e.type === 'inspected') {
            const r = buildComponentReview(s.form, e.facts);
            return stay(r.ok ? { phase: 'review', form: s.form, review: r.review } : { phase: 'input', form: s.form, error: r.error });
          }
          return stay(s);
        case 'review':
          if (e.type === 'back' || (e.type === 'line' && e.edit.type === 'erase')) return stay({ phase: 'input', form: s.form });
          if (e.type === 'confirm')
            return go(
              { phase: 'applying', form: s.form, review: s.review },
              { type: 'apply', review: s.review, confirmation: e.confirmation },
            );
          return stay(s);
        case 'applying':
          if (e.type === 'applied') {
            const bad = e.report.results.find((r) => !r.ok);
            if (bad) return stay({ phase: 'failed', message: bad.message, report: e.report });
            return stay({ phase: 'done', form: s.form, review: s.review, report: e.report });
          }
          return stay(s);
        default:
          return stay(s);
      }
    },
  };
  return withFocus(m, COMPONENT_FIELDS, initial.name ? 'field' : 'name');
}
