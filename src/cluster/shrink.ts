// Reads of a right-sizing (issue 42): each matched index as the plan needs it (size, shards and
// where its primaries are, settings, aliases), the cluster's action.auto_create_index at every level,
// the templates that would let a write auto-create a name anyway, what one name holds now (its uuid,
// shards, documents, block), an index's mapping and shard copies. Reads only: the steps go through
// the Guard.
import { canonicalJson, globMatches } from '../domain/inspect/inspect';
import type { AutoCreateValues } from '../domain/shrink/auto-create';
import type { AliasDefinition, IndexFacts } from '../domain/shrink/plan';
import { ConnError, getJson, postJson, type EsTransport } from './connection';

const seg = encodeURIComponent;

/** The read of every right-sizing's temporary copy (status sends it with its own; the benchmark's floor too). */
export const TEMPORARY_COPIES_READ = [
  `/_cat/indices/${seg('*-shrink-*,*-split-*')}`,
  { format: 'json', h: 'index', expand_wildcards: 'all' },
] as const;
type Json = Record<string, any>;
const int = (v: unknown) => (v === null || v === undefined || v === '' ? 0 : Number(v) || 0);

/** What one name holds now: null when nothing. */
export interface NameHolder {
  uuid: string;
  shards: number;
  docs: number | null;
  writeBlocked: boolean;
  settings: Record<string, string | null>;
}

export function shrinkApi(es: EsTransport) {
  return {
    /**
     * Each index `names` lists (those the expression matched, as the guard resolved it), read with
     * the operator's expression (one request line whatever the count) and kept to those names.
     */
    async shrinkIndexFacts(expr: string, names: readonly string[]): Promise<IndexFacts[]> {
      const wanted = new Set(names);
      const q = { expand_wildcards: 'all' };
      const cat = (expr2: string) =>
        getJson<Json[]>(es, `/_cat/shards/${seg(expr2)}`, { format: 'json', bytes: 'b', h: 'index,prirep,state,node,store' });
      const [rows, settings, aliases, all] = await Promise.all([
        getJson<Json[]>(es, `/_cat/indices/${seg(expr)}`, {
          ...q,
          format: 'json',
          bytes: 'b',
          h: 'index,uuid,status,health,pri,rep,docs.count,docs.deleted,pri.store.size',
        }),
        getJson<Json>(es, `/${seg(expr)}/_settings`, { ...q, flat_settings: 'true' }),
        getJson<Json>(es, `/${seg(expr)}/_alias`, q).catch((e: unknown): Json => {
          // A closed index answers its aliases too; a pattern matching none answers {}.
          if (e instanceof ConnError && e.status === 404) return {};
          throw e;
        }),
        cat(expr).catch((e: unknown) => {
          // Before 8.x's later minors, _cat/shards refuses an expression naming a closed index: read the open ones by name below.
          if (e instanceof ConnError && e.esType === 'index_closed_exception') return null;
          throw e;
        }),
      ]);
      let shards = all ?? [];
      if (all === null) {
        const open = rows.filter((r) => r.status === 'open' && wanted.has(String(r.index))).map((r) => String(r.index));
        // In parts whose request line stays well under Elasticsearch's 4 KB.
        for (let i = 0, part: string[] = []; i <= open.length; i++) {
          if (i === open.length || part.join(',').length + open[i].length > 2500) {
            if (part.length) shards = shards.concat(await cat(part.join(',')));
            part = [];
          }
          if (i < open.length) part.push(open[i]);
        }
      }
      return rows
        .filter((r) => wanted.has(String(r.index)))
        .map((r): IndexFacts => {
          const name = String(r.index);
          const s = (settings[name]?.settings ?? {}) as Record<string, string | null>;
          const own = shards.filter((x) => x.index === name);
          return {
            name,
            uuid: String(r.uuid),
            status: String(r.status),
            health: String(r.health ?? 'unknown'),
            shards: int(r.pri),
            replicas: int(r.rep),
            docs: int(r['docs.count']),
            docsDeleted: int(r['docs.deleted']),
            primaryBytes: int(r['pri.store.size']),
            hidden: s['index.hidden'] === 'true',
            settings: s,
            aliases: (aliases[name]?.aliases ?? {}) as Record<string, AliasDefinition>,
            primaries: own
              .filter((x) => x.prirep === 'p' && x.state === 'STARTED' && x.node)
              .map((x) => ({ node: String(x.node), bytes: int(x.store) })),
            notStarted: own.filter((x) => x.state !== 'STARTED').length,
          };
        });
    },

    /** action.auto_create_index at each level: persistent, transient, and the default (elasticsearch.yml, else true). */
    async autoCreateValues(): Promise<AutoCreateValues> {
      // Nested, not flat: filter_path cannot match a dotted flat key.
      const b = await getJson<Json>(es, '/_cluster/settings', { include_defaults: 'true', filter_path: '*.action.auto_create_index' });
      const at = (level: string): string | null => {
        const v = b?.[level]?.action?.auto_create_index;
        return v === undefined || v === null ? null : String(v);
      };
      return { persistent: at('persistent'), transient: at('transient'), defaults: at('defaults') };
    },

    /**
     * The composable template Elasticsearch would apply to a new index of this name, when it sets
     * allow_auto_create: true (it then overrides action.auto_create_index); and the shards and
     * replicas a new index of the name gets (the template with its components), null when none applies.
     */
    async shrinkTemplate(name: string): Promise<{
      template: string | null;
      indexPatterns: string[];
      allowAutoCreate: boolean;
      shards: number | null;
      replicas: number | null;
    }> {
      const all = await getJson<Json>(es, '/_index_template');
      const matching = ((all.index_templates ?? []) as Json[])
        .map((t) => ({
          name: String(t.name),
          patterns: [t.index_template?.index_patterns ?? []].flat().map(String),
          priority: int(t.index_template?.priority),
          allow: t.index_template?.allow_auto_create === true,
          dataStream: t.index_template?.data_stream !== undefined,
        }))
        .filter((t) => !t.dataStream && t.patterns.some((p) => globMatches(p, name)))
        .sort((a, b) => b.priority - a.priority || (a.name < b.name ? -1 : 1));
      const t = matching[0];
      if (!t) return { template: null, indexPatterns: [], allowAutoCreate: false, shards: null, replicas: null };
      let shards: number | null = null;
      let replicas: number | null = null;
      try {
        const sim = await postJson<Json>(es, `/_index_template/_simulate/${seg(t.name)}`, undefined, { filter_path: 'template.settings' });
        const s = sim?.template?.settings?.index ?? {};
        shards = s.number_of_shards === undefined ? 1 : Number(s.number_of_shards);
        replicas = s.number_of_replicas === undefined ? 1 : Number(s.number_of_replicas);
      } catch {
        // not simulated (an old node, no privilege): the capacity is then said without it
      }
      return { template: t.name, indexPatterns: t.patterns, allowAutoCreate: t.allow, shards, replicas };
    },

    /** What the name holds now (an index, with its uuid, shards, documents and write block), or null. */
    async nameHolder(name: string): Promise<NameHolder | null> {
      const b = await getJson<Json>(es, `/${seg(name)}/_settings`, {
        flat_settings: 'true',
        ignore_unavailable: 'true',
        expand_wildcards: 'all',
      });
      const s = b[name]?.settings as Record<string, string | null> | undefined;
      if (!s) return null;
      let docs: number | null = null;
      try {
        docs = Number((await getJson<{ count: number }>(es, `/${seg(name)}/_count`)).count);
      } catch {
        // not countable now (red, closed): unknown
      }
      return {
        uuid: String(s['index.uuid']),
        shards: int(s['index.number_of_shards']),
        docs,
        writeBlocked: s['index.blocks.write'] === 'true',
        settings: s,
      };
    },

    /** canonicalJson of the index's mapping (key order aside, two equal mappings give the same text). */
    async mappingText(name: string): Promise<string> {
      const b = await getJson<Json>(es, `/${seg(name)}/_mapping`, { expand_wildcards: 'all' });
      return canonicalJson(b[name]?.mappings ?? {});
    },

    /** The index's aliases with their definitions (filter, routing, write index, hidden). */
    async aliasDefinitions(name: string): Promise<Record<string, AliasDefinition>> {
      const b = await getJson<Json>(es, `/${seg(name)}/_alias`, { expand_wildcards: 'all' }).catch((e: unknown): Json => {
        if (e instanceof ConnError && e.status === 404) return {};
        throw e;
      });
      return (b[name]?.aliases ?? {}) as Record<string, AliasDefinition>;
    },

    /** The temporary copies of right-sizings on the cluster (<index>-shrink-<UTC time>, -split-), whoever made them. */
    async temporaryCopies(): Promise<string[]> {
      const rows = await getJson<Json[]>(es, ...TEMPORARY_COPIES_READ);
      return rows
        .map((r) => String(r.index))
        .filter((n) => /-(shrink|split)-\d{14}$/.test(n))
        .sort();
    },

    /** The index's shard copies: shard number, primary or not, state, node. */
    async shardCopies(name: string): Promise<{ shard: number; primary: boolean; state: string; node: string | null }[]> {
      const rows = await getJson<Json[]>(es, `/_cat/shards/${seg(name)}`, {
        format: 'json',
        h: 'shard,prirep,state,node',
      });
      return rows.map((r) => ({
        shard: int(r.shard),
        primary: r.prirep === 'p',
        state: String(r.state),
        node: r.node ? String(r.node) : null,
      }));
    },
  };
}
