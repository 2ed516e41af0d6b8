// shardeck templates [NAME] [--platform-json] [--json]: every index template and component template
// (what composes what, the shards and replicas a new index gets), or one of them; --platform-json
// prints the platform's topic.elasticsearch.index-templates-settings value derived from them.
import { templateDetails, templateLines } from '../domain/panes/templates';
import { platformJsonLines, platformTemplatesSettings, PLATFORM_TEMPLATES_KEY, templateLine } from '../domain/templates';
import { EXIT, type CommandModule } from './support/common';
import { JSON_SCHEMA, openGuard, printJson, reportFailure, usageError } from './support/guarded';
import { paint } from './support/paint';
import { err, out } from './support/output';
import { displayText } from '../domain/text/display-text';

const NAME = 'templates';

const templates: CommandModule = {
  summary: 'Index and component templates: what composes what, the shards/replicas a new index gets; the platform JSON.',
  usage: 'usage: shardeck templates [NAME] [--platform-json] [--json] [connection flags]',
  group: 'inspect',
  options: { 'platform-json': { type: 'boolean' } },
  flagHelp: {
    'platform-json': `print the platform's ${PLATFORM_TEMPLATES_KEY} value derived from the live templates (service_v9 and service_v9_filter; additional_components from composed_of)`,
  },
  examples: ['shardeck templates', 'shardeck templates service_v9', 'shardeck templates --platform-json'],
  async run({ values, positionals }) {
    const json = Boolean(values.json);
    if (positionals.length > 1) return usageError(NAME, 'give at most one template name: shardeck templates service_v9', json);
    const wanted = positionals[0];
    if (wanted !== undefined && (!wanted.trim() || /[\s,]/.test(wanted)))
      return usageError(NAME, `"${wanted}" is not a template name: give one name without spaces or commas (e.g. service_v9)`, json);
    const { es, close } = await openGuard(values);
    try {
      const view = await es.templates();
      const platform = platformTemplatesSettings(view);
      if (values['platform-json']) {
        if (json) printJson({ schema: JSON_SCHEMA, command: NAME, ok: true, key: PLATFORM_TEMPLATES_KEY, value: platform });
        else out(`${platformJsonLines(platform).join('\n')}\n`);
        return EXIT.ok;
      }
      const lines = templateLines(view).filter((l) => wanted === undefined || l.name === wanted);
      if (wanted !== undefined && !lines.length) {
        const message = `no index or component template named "${wanted}": the index templates are ${view.index.map((t) => t.name).join(', ') || '(none)'}`;
        if (json) printJson({ schema: JSON_SCHEMA, command: NAME, ok: false, error: message });
        err(`shardeck ${NAME}: ${message}\n`);
        return EXIT.failed;
      }
      if (json) {
        printJson({
          schema: JSON_SCHEMA,
          command: NAME,
          ok: true,
          indexTemplates: view.index.filter((t) => wanted === undefined || t.name === wanted),
          componentTemplates: view.components.filter((c) => wanted === undefined || c.name === wanted),
          platformSettings: { key: PLATFORM_TEMPLATES_KEY, value: platform },
        });
        return EXIT.ok;
      }
      if (wanted !== undefined) {
        for (const l of lines) {
          for (const d of templateDetails(l)) out(`${d.tone ? paint(d.tone, d.text) : d.text}\n`);
          out(`${JSON.stringify(l.kind === 'index' ? l.t.body : l.c.body, null, 2)}\n`);
        }
        return EXIT.ok;
      }
      out(paint('bold', `index templates (${view.index.length})`) + '\n');
      for (const t of view.index)
        out(
          `  ${t.missing.length ? paint('red', templateLine(t)) : templateLine(t)}${t.missing.length ? paint('red', ` (missing: ${t.missing.join(', ')})`) : ''}\n`,
        );
      out(paint('bold', `component templates (${view.components.length})`) + '\n');
      for (const c of view.components) {
        const disabled = c.fields.filter((f) => !f.enabled).map((f) => f.name);
        const sets = [c.shards === null ? '' : `${c.shards} shards`, c.replicas === null ? '' : `${c.replicas} replicas`]
          .filter(Boolean)
          .join(', ');
        out(
          `  ${displayText(c.name)} -> ${c.usedBy.map(displayText).join(', ') || '(used by none)'}${sets ? ` · sets ${sets}` : ''}${disabled.length ? ` · not indexed: ${disabled.join(', ')}` : ''}\n`,
        );
      }
      out(`${PLATFORM_TEMPLATES_KEY} (from the live templates):\n${platformJsonLines(platform).join('\n')}\n`);
      return EXIT.ok;
    } catch (e) {
      return reportFailure(NAME, e, json);
    } finally {
      await close();
    }
  },
};

export default templates;
