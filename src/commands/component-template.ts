// shardeck component-template put NAME --disable-field FIELD [--type object] [--template service_v9]
// [--yes] [--dry-run] [--json]: the seed's component template that stops indexing a field, added to
// the index template's composed_of (the template read fresh and PUT back whole, only composed_of
// changed), then the platform's index-templates-settings value to set. The CLI twin of the wizard.
import { isConnectionFailure } from '../cluster/connection';
import { platformJsonLines, PLATFORM_TEMPLATES_KEY } from '../domain/templates';
import { checkComponentForm, DEFAULT_COMPOSE_TEMPLATE, type ComponentState } from '../domain/wizards/component-template';
import { componentTemplateSession } from '../services/wizards/component-template';
import { EXIT, type CommandModule } from './support/common';
import {
  confirmOnTerminal,
  JSON_SCHEMA,
  MUTATION_OPTIONS,
  openGuard,
  previews,
  printJson,
  printPreviews,
  reportFailure,
  usageError,
  warnAudit,
} from './support/guarded';
import { paint } from './support/paint';
import { err, out } from './support/output';

const NAME = 'component-template';

const componentTemplate: CommandModule = {
  summary: "Component template that disables a field (enabled: false), added to an index template's composed_of.",
  usage:
    'usage: shardeck component-template put NAME --disable-field FIELD [--type object] [--template service_v9] [--yes] [--dry-run] [--json] [connection flags]',
  group: 'change',
  options: { ...MUTATION_OPTIONS, 'disable-field': { type: 'string' }, type: { type: 'string' }, template: { type: 'string' } },
  flagHelp: {
    'disable-field': 'the field new indices keep in _source but do not index (required)',
    type: 'its mapping type; Elasticsearch takes enabled:false on object fields only (default: object)',
    template: `the index template whose composed_of gains the component (default: ${DEFAULT_COMPOSE_TEMPLATE})`,
    yes: 'send without asking',
    'dry-run': 'show the requests and the platform value, send nothing',
  },
  examples: [
    'shardeck component-template put service_v9_no_body --disable-field body --dry-run',
    'shardeck component-template put service_v9_no_body --disable-field body --template service_v9_filter --yes',
  ],
  async run({ values, positionals }) {
    const json = Boolean(values.json);
    const [verb, name, ...extra] = positionals;
    if (verb !== 'put' || name === undefined || extra.length)
      return usageError(
        NAME,
        'give the component template name: shardeck component-template put service_v9_no_body --disable-field body',
        json,
      );
    if (values['disable-field'] === undefined) return usageError(NAME, 'give the field to stop indexing with --disable-field FIELD', json);
    const form = {
      name,
      field: String(values['disable-field']),
      type: values.type === undefined ? 'object' : String(values.type),
      template: values.template === undefined ? DEFAULT_COMPOSE_TEMPLATE : String(values.template),
    };
    // Bad input never reaches the cluster.
    const bad = checkComponentForm(form);
    if (bad) return usageError(NAME, bad, json);
    const { es, guard, close } = await openGuard(values);
    try {
      guard.assertWritable();
      const session = componentTemplateSession(es, guard, form);
      session.send({ type: 'submit' });
      let state: ComponentState = await session.idle();
      if (state.phase === 'failed') {
        const e = session.failure(state.message);
        if (isConnectionFailure(e)) return reportFailure(NAME, e, json);
        throw e;
      }
      if (state.phase === 'input') {
        const message = state.error ?? 'invalid input';
        if (json) printJson({ schema: JSON_SCHEMA, command: NAME, ok: false, error: message });
        err(`shardeck ${NAME}: ${message}\n`);
        return EXIT.failed;
      }
      if (state.phase !== 'review') throw new Error(`stopped (${state.phase})`);
      const review = state.review;
      const requests = previews(guard, review.plans);
      const head = {
        schema: JSON_SCHEMA,
        command: NAME,
        component: name,
        field: form.field,
        type: form.type,
        template: form.template,
        warnings: review.warnings,
        notes: review.notes,
        requests,
      };
      if (!json) {
        for (const w of review.warnings) out(`${paint('yellow', 'warning:')} ${w}\n`);
        for (const n of review.notes) out(`note: ${n}\n`);
        printPreviews(requests);
        out(`${PLATFORM_TEMPLATES_KEY} after this:\n${platformJsonLines(review.platformJson).join('\n')}\n`);
      }
      if (values['dry-run']) {
        if (json)
          printJson({
            ...head,
            ok: true,
            dryRun: true,
            sent: false,
            platformSettings: { key: PLATFORM_TEMPLATES_KEY, value: review.platformJson },
          });
        else out('dry run: nothing was sent\n');
        return EXIT.ok;
      }
      const confirmation = await confirmOnTerminal(NAME, review.plans, values);
      // With --json, confirmOnTerminal printed the plan that needs confirming.
      if (!confirmation) return EXIT.failed;
      session.send({ type: 'confirm', confirmation });
      state = await session.idle();
      const report = state.phase === 'done' || state.phase === 'failed' ? state.report : undefined;
      for (const r of report?.results ?? []) warnAudit(r.auditWarning);
      const ok = state.phase === 'done' && report!.results.every((r) => r.verified?.ok !== false) && report!.newIndex?.ok === true;
      if (json)
        printJson({
          ...head,
          ok,
          dryRun: false,
          sent: true,
          report,
          platformSettings: report ? { key: PLATFORM_TEMPLATES_KEY, value: report.platformJson } : undefined,
          error: state.phase === 'failed' ? state.message : undefined,
        });
      else {
        for (const r of report?.results ?? []) {
          const detail = r.message.startsWith('done') ? r.verified?.message : r.message;
          out(`${r.ok ? 'ok' : 'FAILED'}: ${r.summary}${detail ? ` — ${detail}` : ''}\n`);
        }
        if (report?.newIndex) out(`${report.newIndex.ok ? 'ok' : 'FAILED'}: ${report.newIndex.message}\n`);
        if (state.phase === 'failed') err(`shardeck ${NAME}: ${state.message}\n`);
        if (report)
          out(
            `set ${PLATFORM_TEMPLATES_KEY} to this, then restart the platform services:\n${platformJsonLines(report.platformJson).join('\n')}\n`,
          );
      }
      return ok ? EXIT.ok : EXIT.failed;
    } catch (e) {
      return reportFailure(NAME, e, json);
    } finally {
      await close();
    }
  },
};

export default componentTemplate;
