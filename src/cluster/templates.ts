// Index templates and component templates (seed: GET /_index_template, component templates).
import { parseTemplates, type TemplatesView } from '../domain/templates';
import { ConnError, getJson, postJson, read, type EsTransport } from './connection';
import { RESOURCES } from './resources';

type Json = Record<string, any>;

export function templatesApi(es: EsTransport) {
  return {
    /** Every index template and component template, joined (what composes what, shards/replicas). */
    async templates(): Promise<TemplatesView> {
      const [index, components] = await Promise.all([
        read(es, RESOURCES.indexTemplates.request),
        read(es, RESOURCES.componentTemplates.request),
      ]);
      return parseTemplates(index.body as Json, components.body as Json);
    },
    /** One component template's definition (component_template), or null when it does not exist. */
    async componentTemplate(name: string): Promise<Json | null> {
      try {
        const body = await getJson<{ component_templates: { name: string; component_template: Json }[] }>(
          es,
          `/_component_template/${encodeURIComponent(name)}`,
        );
        return body.component_templates.find((t) => t.name === name)?.component_template ?? null;
      } catch (e) {
        if (e instanceof ConnError && e.status === 404) return null;
        throw e;
      }
    },
    /**
     * What a new index created from an index template would get (POST _index_template/_simulate/NAME,
     * a read: nothing is created): its settings and mappings with every component applied.
     */
    async simulateTemplate(name: string): Promise<{ settings: Json; mappings: Json } | null> {
      try {
        const body = await postJson<Json>(es, `/_index_template/_simulate/${encodeURIComponent(name)}`, undefined, {
          filter_path: 'template.settings,template.mappings',
        });
        return { settings: body?.template?.settings ?? {}, mappings: body?.template?.mappings ?? {} };
      } catch (e) {
        // 8.19 answers 400 "unable to simulate template [x] that does not exist".
        if (e instanceof ConnError && (e.status === 404 || (e.status === 400 && /does not exist/.test(e.message)))) return null;
        throw e;
      }
    },
  };
}
