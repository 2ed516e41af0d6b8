// The typed facade of Elasticsearch: one method per API the product reads, returning domain
// values. Services get an EsApi for every read; changes go only through services/guard.ts, which
// sends them with cluster/mutations.ts. Nothing outside src/cluster/ builds a request path.
import type { EsClient } from './connection';
import { parseHealthReport, type RowsParser } from '../domain/parse';
import type { HealthDiagnosis } from '../domain/types';
import { parseIndicatorDetail, type HealthReportView, type IndicatorDetail } from '../domain/doctor/health-report';
import { adminApi } from './admin';
import { allocationApi } from './allocation';
import { readRetryDelayMs } from '../domain/retry';
import { lacks, missingText, oldestVersion, refusal, type EsVersion, type Feature } from '../domain/capabilities';
import { ConnError, getJson, read, readRows, type EsTransport, type ReadRequest } from './connection';
import { documentsApi } from './documents';
import { doctorApi } from './doctor';
import { healthApi } from './health';
import { indicesApi } from './indices';
import { inspectApi } from './inspect';
import { nodesApi } from './nodes';
import { healthReportIndicatorRequest, RESOURCES, VERSIONS_READ, type ResourceData, type ResourceName } from './resources';
import { shrinkApi } from './shrink';
import { snapshotsApi } from './snapshots';
import { tasksApi } from './tasks';
import { templatesApi } from './templates';
import { upgradeApi } from './upgrade';
import { xrayApi } from './xray';

/** One polled resource, parsed (keeping the rows of `prev` it repeats), and the size of its answer (for the benchmark). */
export type ResourceRead = <K extends ResourceName>(
  name: K,
  signal?: AbortSignal,
  prev?: ResourceData<K>,
) => Promise<{ data: ResourceData<K>; bytes: number }>;

/**
 * The version of the cluster, asked once per connection, then kept: what it supports decides which
 * reads are sent (domain/capabilities.ts). The oldest node's (a fleet mid-upgrade answers what
 * every node can), from the nodes' info: GET / is not served by every distribution (the 8.19
 * integ-test zip has no rest-root module: 405), and _cat/nodes works out every index statistic of
 * every shard of each node to answer. A failed ask is not kept (the next read asks again); a node
 * that does not say leaves every read allowed.
 */
/**
 * One read, retried after a 429 as domain/retry.ts says (after the Retry-After the node asked for,
 * a few times, never long); anything else fails at once. Reads only: a change never comes here.
 */
async function retrying<T>(read: () => Promise<T>): Promise<T> {
  for (let retries = 0; ; retries++) {
    try {
      return await read();
    } catch (e) {
      const wait = e instanceof ConnError ? readRetryDelayMs(e.status, e.retryAfter, retries, Date.now()) : null;
      if (wait === null) throw e;
      await new Promise((r) => setTimeout(r, wait));
    }
  }
}

function versionApi(es: EsTransport) {
  let known: Promise<EsVersion | undefined> | undefined;
  const version = (): Promise<EsVersion | undefined> => {
    // Retried on a 429 like every one-shot read: the version check is the first read of most commands.
    known ??= retrying(() => getJson<{ nodes?: Record<string, { version?: string }> }>(es, ...VERSIONS_READ)).then(
      (r) => oldestVersion(Object.values(r?.nodes ?? {}).map((n) => String(n?.version ?? ''))),
      (e) => {
        known = undefined;
        throw e;
      },
    );
    return known;
  };
  return {
    /** The node's version (asked once). Rejects with the ConnError of a failed read. */
    version,
    /**
     * Connect-time check: rejects with a ConnError ('unsupported') naming the version when it is a
     * major shardeck does not know (9.x, 7.x), so a command or the console stops at once with one
     * message. Resolves with the version (undefined when the node does not say).
     */
    async checkVersion(): Promise<EsVersion | undefined> {
      const v = await version();
      const no = v && refusal(v);
      if (no) throw new ConnError('unsupported', no);
      return v;
    },
    /** Rejects ('unsupported', never worth retrying) when the node's version lacks `feature`. */
    async require(feature: Feature): Promise<void> {
      let v: EsVersion | undefined;
      try {
        v = await version();
      } catch {
        return; // the read itself will say what is wrong with the connection
      }
      if (v && lacks(v, feature)) throw new ConnError('unsupported', missingText(v, feature));
    },
  };
}

function resourcesApi(es: EsTransport, versions: ReturnType<typeof versionApi>) {
  const resource: ResourceRead = async (name, signal, prev) => {
    const r = RESOURCES[name] as unknown as {
      request: ReadRequest;
      alongside?: ReadRequest;
      parse: (body: unknown, prev?: unknown, alongside?: unknown) => unknown;
      rowsParser?: (prev?: unknown) => RowsParser<unknown>;
      needs?: Feature;
    };
    if (r.needs) await versions.require(r.needs);
    if (r.rowsParser) {
      const { body, bytes } = await readRows(es, r.request, r.rowsParser(prev), signal);
      return { data: body as never, bytes };
    }
    if (r.alongside) {
      const [first, second] = await Promise.all([read(es, r.request, signal), read(es, r.alongside, signal)]);
      return { data: r.parse(first.body, prev, second.body) as never, bytes: first.bytes + second.bytes };
    }
    const { body, bytes } = await read(es, r.request, signal);
    return { data: r.parse(body, prev) as never, bytes };
  };
  return {
    resource,
    /**
     * Only the parsed data of one resource (one-shot commands), a 429 retried (retrying above).
     */
    async data<K extends ResourceName>(name: K): Promise<ResourceData<K>> {
      return (await retrying(() => resource(name))).data;
    },
    /** The verbose health report of one indicator: its diagnoses. */
    async healthDiagnoses(indicator: string, signal?: AbortSignal): Promise<Record<string, HealthDiagnosis[]>> {
      await versions.require('healthReport');
      const { body } = await read(es, healthReportIndicatorRequest(indicator), signal);
      return Object.fromEntries(parseHealthReport(body as never).indicators.map((i) => [i.name, i.diagnoses]));
    },
    /**
     * The health report (8.7+) for the doctor: verbose=false first, then the verbose answer of each
     * indicator that is not green (its details and diagnoses), one after the other. Before 8.7, or
     * refused, why there is none.
     */
    async healthReportView(): Promise<HealthReportView> {
      let report;
      try {
        await versions.require('healthReport');
        report = (await retrying(() => resource('healthReport'))).data;
      } catch (e) {
        return { available: false, why: (e as Error).message };
      }
      const verbose: Record<string, IndicatorDetail> = {};
      const verboseErrors: Record<string, string> = {};
      for (const ind of report.indicators.filter((i) => i.status !== 'green')) {
        try {
          const d = parseIndicatorDetail((await read(es, healthReportIndicatorRequest(ind.name))).body as never, ind.name);
          if (d) verbose[ind.name] = d;
        } catch (e) {
          verboseErrors[ind.name] = (e as Error).message;
        }
      }
      return { available: true, report, verbose, ...(Object.keys(verboseErrors).length ? { verboseErrors } : {}) };
    },
    /** GET of a plan's read-back path (MutationPlan.verify, built in domain/ with the plan). */
    readBack(path: string, querystring: Record<string, string>): Promise<unknown> {
      return getJson(es, path, querystring);
    },
  };
}

export type EsApi = ReturnType<typeof versionApi> &
  ReturnType<typeof resourcesApi> &
  ReturnType<typeof healthApi> &
  ReturnType<typeof indicesApi> &
  ReturnType<typeof tasksApi> &
  ReturnType<typeof allocationApi> &
  ReturnType<typeof nodesApi> &
  ReturnType<typeof snapshotsApi> &
  ReturnType<typeof shrinkApi> &
  ReturnType<typeof templatesApi> &
  ReturnType<typeof inspectApi> &
  ReturnType<typeof documentsApi> &
  ReturnType<typeof upgradeApi> &
  ReturnType<typeof doctorApi> &
  ReturnType<typeof adminApi> &
  ReturnType<typeof xrayApi>;

export function createEsApi(client: EsClient, url: string): EsApi {
  const es = { client, url };
  const versions = versionApi(es);
  return {
    ...versions,
    ...resourcesApi(es, versions),
    ...healthApi(es),
    ...indicesApi(es),
    ...tasksApi(es),
    ...allocationApi(es),
    ...nodesApi(es),
    ...snapshotsApi(es),
    ...shrinkApi(es),
    ...templatesApi(es),
    ...inspectApi(es),
    ...documentsApi(es),
    ...upgradeApi(es),
    ...doctorApi(es),
    ...adminApi(es),
    ...xrayApi(es),
  };
}
