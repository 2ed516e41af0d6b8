// The component-template wizard's session (and `shardeck component-template put`): reads the index
// template, the component and what a new index maps now; sends the component template, then the
// index template read fresh just before (refused when it changed since the preview), each through
// the Guard; then simulates a new index to check the field is disabled.
import type { EsApi } from '../../cluster/api';
import {
  componentMachine,
  checkNewIndexMapping,
  type ComponentEffect,
  type ComponentEvent,
  type ComponentForm,
  type ComponentReport,
  type ComponentState,
} from '../../domain/wizards/component-template';
import { composeTemplatePlan, mappedField, platformTemplatesSettings } from '../../domain/templates';
import type { Guard } from '../guard';
import { performMutations, WizardSession } from './session';

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function componentTemplateSession(es: EsApi, guard: Guard, initial: Partial<ComponentForm> = {}) {
  return new WizardSession<ComponentState, ComponentEvent, ComponentEffect>(componentMachine(initial), async (f, send) => {
    if (f.type === 'inspect') {
      const [template, existing, view, sim] = await Promise.all([
        es.indexTemplate(f.form.template),
        es.componentTemplate(f.form.name),
        es.templates(),
        es.simulateTemplate(f.form.template),
      ]);
      send({ type: 'inspected', facts: { template, existing, view, mappedNow: mappedField(sim?.mappings, f.form.field) } });
      return;
    }
    const { review, confirmation } = f;
    const [first, second] = review.plans;
    const results = await performMutations(guard, { type: 'mutate', plans: [first], confirmation });
    if (results[0].ok && second) {
      // The index template is PUT back whole: read it again right before, and send only what was previewed.
      const fresh = await es.indexTemplate(review.form.template);
      if (!fresh || !same(fresh, review.templateBefore))
        results.push({
          summary: second.summary,
          ok: false,
          message: `index template ${review.form.template} changed since the preview: not sent (the component template is in place); run again to see it as it is now`,
        });
      else
        results.push(
          ...(await performMutations(guard, {
            type: 'mutate',
            plans: [composeTemplatePlan(review.form.template, fresh, review.form.name)],
            confirmation,
          })),
        );
    }
    const report: ComponentReport = { results, platformJson: review.platformJson };
    if (results.every((r) => r.ok)) {
      const [sim, view] = await Promise.all([es.simulateTemplate(review.form.template), es.templates()]);
      report.newIndex = checkNewIndexMapping(review.form, sim?.mappings);
      // The value as the live templates now say it (the target template included even when not a platform one).
      const live = platformTemplatesSettings(view);
      const t = view.index.find((x) => x.name === review.form.template);
      if (t) live[t.name] = { number_of_shards: t.shards, number_of_replicas: t.replicas, additional_components: [...t.composedOf] };
      report.platformJson = live;
    }
    send({ type: 'applied', report });
  });
}

/** The console's way to open it: `services.open(componentTemplateWizard, ...)` (services/wizards/index.ts). */
export const componentTemplateWizard = (es: EsApi, guard: Guard, _tuning: object, initial?: Partial<ComponentForm>) =>
  componentTemplateSession(es, guard, initial);
