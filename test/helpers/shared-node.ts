// Long-lived test nodes, one per integration worker: started once by the global set-up
// (test/setup/global.ts) instead of once per file (~11 s of JVM start each), and put back to a
// fresh node's state before each file that takes one. One secured node (TLS with the test CA, the
// elastic user's password) is shared the same way by the files that only read it or make indices
// on it (sharedSecureNode()). A file that stops, restarts or reconfigures its node, asserts the
// node's name, or needs users of its own starts its own.
import fs from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import { inject } from 'vitest';
import { esCall, type EsAnswer } from './real-node';

/** What a file may use of a shared node: no stop or restart (the next file needs it). */
export interface SharedNode {
  url: string;
  name: string;
  version: string;
  baseDir: string;
  dataDir: string;
  repoDir: string;
  logFile: string;
  httpPort: number;
  transportPort: number;
  clusterName: string;
  /** The secured node's CA file, user (elastic) and password; none on a plain node. */
  ca?: string;
  user?: string;
  password?: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    sharedNodes: SharedNode[];
    sharedSecureNodes: SharedNode[];
  }
}

/**
 * A node no other file holds, reset to a fresh node's state. Files of several workers run at once; each
 * takes a node by creating its holder file exclusively (the holder's pid inside; a holder whose
 * process is gone is taken over) and gives it back after the file (test/setup/nodes.ts).
 */
export function sharedNode(): Promise<SharedNode> {
  return take1('sharedNodes', 'shared');
}

/** The secured shared node (HTTPS with node.ca, user elastic and node.password), as sharedNode() takes a plain one. */
export function sharedSecureNode(): Promise<SharedNode> {
  return take1('sharedSecureNodes', 'shared-secure');
}

async function take1(kind: 'sharedNodes' | 'sharedSecureNodes', prefix: string): Promise<SharedNode> {
  const nodes = inject(kind);
  if (!nodes?.length) throw new Error(`no ${prefix} test node: this project has no test/setup/global.ts with shared nodes`);
  const dir = inject('nodesDir');
  const deadline = Date.now() + 600_000;
  for (;;) {
    for (const [i, node] of nodes.entries()) {
      const holder = path.join(dir, `${prefix}-${i + 1}.holder`);
      if (!take(holder)) continue;
      held.push(holder);
      fs.appendFileSync(
        path.join(dir, 'shared-nodes.log'),
        `${new Date().toISOString()} ${process.pid} ${node.name} ${process.env.VITEST_POOL_ID ?? ''}\n`,
      );
      await resetNode(node);
      return node;
    }
    if (Date.now() > deadline) throw new Error(`every ${prefix} test node is held (${dir}/${prefix}-*.holder)`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const held: string[] = [];

function take(holder: string): boolean {
  try {
    fs.writeFileSync(holder, String(process.pid), { flag: 'wx' });
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  const pid = Number(fs.readFileSync(holder, 'utf8'));
  if (pid && pid !== process.pid && isRunning(pid)) return false;
  fs.rmSync(holder, { force: true }); // its file ended without giving it back
  return take(holder);
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Gives this file's shared nodes back (after the file; a file may hold one of each kind). */
export function releaseSharedNode(): void {
  for (const holder of held.splice(0)) fs.rmSync(holder, { force: true });
}

/** esCall, or on the secured node the same request over HTTPS with its CA and the elastic user. */
function call(node: SharedNode, method: string, p: string, body?: unknown): Promise<EsAnswer> {
  if (!node.ca) return esCall(node.url, method, p, body);
  const data = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = https.request(
      node.url + p,
      {
        method,
        ca: fs.readFileSync(node.ca!),
        auth: `${node.user}:${node.password}`,
        headers: { 'content-type': 'application/json' },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => {
          try {
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) });
          } catch (e) {
            reject(e instanceof Error ? e : new Error(String(e)));
          }
        });
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

async function ok(node: SharedNode, method: string, p: string, body?: unknown): Promise<any> {
  const r = await call(node, method, p, body);
  if (r.status >= 300) throw new Error(`resetting the shared node: ${method} ${p} answered ${r.status}: ${JSON.stringify(r.body)}`);
  return r.body;
}

/**
 * What earlier files may have left: tasks and their results (.tasks), scrolls, indices and data streams, their own templates
 * and pipelines, snapshot repositories (and the files in path.repo), every cluster setting.
 * Built-in templates and pipelines (dot names, or `_meta.managed`) stay. Names are listed, never `*`.
 */
export async function resetNode(node: SharedNode): Promise<void> {
  await call(node, 'POST', '/_tasks/_cancel?actions=*byquery,*reindex,*forcemerge');
  // A cancelled task stores its result in .tasks when it ends: wait for them, then drop .tasks (a
  // fresh node has none; left, it is one more index that a flood-stage block or a snapshot takes).
  for (let i = 0; i < 60; i++) {
    const running = await ok(node, 'GET', '/_tasks?actions=*byquery,*reindex&group_by=none');
    if (!running.tasks?.length) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  await call(node, 'DELETE', '/.tasks'); // 404 when there is none
  await call(node, 'DELETE', '/_search/scroll/_all');
  // A cluster-wide block lets through only a settings request that touches the block alone: lifted first.
  for (const level of ['persistent', 'transient'])
    await call(node, 'PUT', '/_cluster/settings', {
      [level]: { 'cluster.blocks.read_only': null, 'cluster.blocks.read_only_allow_delete': null },
    });
  const settings = await ok(node, 'GET', '/_cluster/settings?flat_settings=true');
  const unset = (o: Record<string, unknown>) => Object.fromEntries(Object.keys(o).map((k) => [k, null]));
  if (Object.keys(settings.persistent).length || Object.keys(settings.transient).length)
    await ok(node, 'PUT', '/_cluster/settings', { persistent: unset(settings.persistent), transient: unset(settings.transient) });

  // The test distribution may lack the data streams module (the path is then read as an index name).
  const streams = await call(node, 'GET', '/_data_stream?expand_wildcards=all');
  const names: string[] = streams.status === 200 ? streams.body.data_streams.map((d: any) => d.name) : [];
  for (const name of names.filter((n) => !n.startsWith('.'))) await ok(node, 'DELETE', `/_data_stream/${encodeURIComponent(name)}`);
  const indices: string[] = (await ok(node, 'GET', '/_cat/indices?h=index&format=json&expand_wildcards=all')).map((r: any) => r.index);
  // Dot indices a file made (the demo data's .shardeck-demo-internal) go too, one by one; one
  // Elasticsearch keeps for itself may refuse, and stays. The secured node's users live in .security.
  for (const dot of indices.filter((n) => n.startsWith('.') && !n.startsWith('.security')))
    await call(node, 'DELETE', `/${encodeURIComponent(dot)}`);
  const own = indices.filter((n) => !n.startsWith('.'));
  // Batches keep the request line short; names come from the node itself.
  for (let i = 0; i < own.length; i += 50)
    await ok(
      node,
      'DELETE',
      `/${own
        .slice(i, i + 50)
        .map(encodeURIComponent)
        .join(',')}?expand_wildcards=all`,
    );

  const builtIn = (name: string, meta: any) => name.startsWith('.') || meta?.managed === true;
  const templates = (await ok(node, 'GET', '/_index_template')).index_templates;
  for (const t of templates.filter((t: any) => !builtIn(t.name, t.index_template._meta)))
    await ok(node, 'DELETE', `/_index_template/${encodeURIComponent(t.name)}`);
  const components = (await ok(node, 'GET', '/_component_template')).component_templates;
  for (const t of components.filter((t: any) => !builtIn(t.name, t.component_template._meta)))
    await ok(node, 'DELETE', `/_component_template/${encodeURIComponent(t.name)}`);
  const legacy = await ok(node, 'GET', '/_template');
  for (const name of Object.keys(legacy).filter((n) => !n.startsWith('.')))
    await ok(node, 'DELETE', `/_template/${encodeURIComponent(name)}`);
  const pipelines = await call(node, 'GET', '/_ingest/pipeline'); // 404: there is none
  for (const [name] of Object.entries<any>(pipelines.status === 200 ? pipelines.body : {}).filter(([n, def]) => !builtIn(n, def._meta)))
    await ok(node, 'DELETE', `/_ingest/pipeline/${encodeURIComponent(name)}`);

  for (const repo of Object.keys(await ok(node, 'GET', '/_snapshot'))) await ok(node, 'DELETE', `/_snapshot/${encodeURIComponent(repo)}`);
  for (const entry of fs.readdirSync(node.repoDir)) fs.rmSync(path.join(node.repoDir, entry), { recursive: true, force: true });
  await ok(node, 'GET', '/_cluster/health?wait_for_status=green&timeout=30s');
}
