// The engine on this host: which node it is, where it lives and who runs it (read from the node,
// /proc and the profile, remembered for when the node is down), its service commands and its plugin
// tool, each change run once through the Guard's host path (read-only refusal, confirmation, audit)
// and then verified against the node itself.
import path from 'node:path';
import type { EsApi } from '../cluster/api';
import { configDir, lockHolder, writePrivateFileAtomic } from '../config/files';
import type { NodeFacts } from '../domain/corruption/node';
import {
  RESTART_NEEDED,
  checkPluginName,
  parsePluginList,
  parsePluginSource,
  pluginCommand,
  serviceCommands,
  serviceRisk,
  serviceSummary,
  zipUrl,
  type EngineHome,
  type PluginVerb,
  type ServiceConfig,
  type ServiceVerb,
} from '../domain/host/engine';
import { defaultConfDir, type HostSecrets } from '../domain/host/host-env';
import type { Confirmation } from '../domain/mutation/confirmation';
import { elasticsearchRunsAs, envOfPid, javaOfPid, localNodeOf, processUser, uidOfUser, userName } from './corruption';
import { linkedFolderRefusal, packageEsEnv, programRefusal } from '../boundary/host-files';
import type { Guard } from './guard';
import { runShell } from '../boundary/host-shell';
import { existsHere, folderFacts, readHead } from '../boundary/host-reads';
import { progressFile, unfinishedProgress } from './recovery-runner';
import { waitUntil } from './wait';

/** What the operator (flags) or the profile says about the engine, over what is read. */
export interface EngineOverrides extends ServiceConfig {
  esHome?: string;
  esUser?: string;
  confDir?: string;
  javaHome?: string;
}

export interface EngineTuning {
  hostSecrets?: HostSecrets;
  /** How long a stopped engine may take to be gone (default 90 s). */
  stopTimeoutMs?: number;
  /** How long a started engine may take to answer and join (default 180 s). */
  startTimeoutMs?: number;
}

/** The engine of this host as last seen (kept so it can be named and started while it is down). */
export interface EngineFacts {
  /** The node's name and id; null when none was ever seen from this host. */
  node: { name: string; id: string } | null;
  pid?: number;
  /** bin/elasticsearch-plugin's home, user, config and java; null when unknown. */
  home: EngineHome | null;
  /** The node answers now. */
  answers: boolean;
  /** Cluster health when it answers. */
  health?: string;
  /** Where the facts come from: 'now' (the node now), or the last time it answered. */
  seen: string;
  /** Why no node of the cluster is this host's (it answers, but runs elsewhere). */
  elsewhere?: string;
}

const cacheFile = (url: string) => path.join(configDir(), 'engines', `${url.replace(/^\w+:\/\//, '').replace(/[^\w.-]/g, '_')}.json`);

function readCache(url: string): (Omit<EngineFacts, 'answers' | 'health' | 'seen'> & { seenAt: string }) | null {
  try {
    return JSON.parse(readHead(cacheFile(url), 1024 * 1024) ?? 'null');
  } catch {
    return null;
  }
}

/**
 * Who runs the plugin tool: the engine's user, unless it cannot write <home>/plugins (a package
 * install keeps it root's, and Elastic runs the tool with sudo there): then that folder's owner.
 */
function toolUser(home: string, engineUser: string | null): string | null {
  try {
    const st = folderFacts(path.join(home, 'plugins'));
    if (!st) return engineUser;
    const owner = userName(st.uid);
    if (!engineUser) return owner;
    if (owner === engineUser || (st.mode & 0o002) !== 0) return engineUser;
    return owner ?? engineUser;
  } catch {
    return engineUser;
  }
}

/** The java home of the running engine's binary (what the kernel says it executes), or null. */
function runningJavaHome(pid: number | undefined): string | null {
  const java = pid ? javaOfPid(pid) : null;
  return java ? java.replace(/\/bin\/java$/, '') : null;
}

function homeOf(n: NodeFacts | undefined, o: EngineOverrides, cached: EngineHome | null): EngineHome | null {
  const home = o.esHome ?? n?.home ?? cached?.home;
  if (!home) return null;
  // The engine's settings from its package configuration, never from the running engine's environment (its user's to set).
  const pkg = packageEsEnv();
  const user = o.esUser ?? toolUser(home, n?.pid ? processUser(n.pid) : null) ?? cached?.user;
  if (!user) return null;
  return {
    home,
    user,
    // The engine's own environment only when the tool runs as a user other than root (its user gains nothing).
    confDir:
      o.confDir ??
      pkg.ES_PATH_CONF ??
      (uidOfUser(user) !== 0 && n?.pid ? envOfPid(n.pid, 'ES_PATH_CONF') : undefined) ??
      defaultConfDir(home),
    // null: the tool uses the JDK bundled with the engine; without one, the java the engine runs (/proc/<pid>/exe, not its environment).
    javaHome:
      o.javaHome ??
      pkg.ES_JAVA_HOME ??
      (existsHere(path.join(home, 'jdk', 'bin', 'java')) ? null : runningJavaHome(n?.pid)) ??
      cached?.javaHome ??
      null,
  };
}

/**
 * This host's engine: the node of the cluster whose JVM runs here, read now; when the node does not
 * answer, the facts of the last time it did (the name to confirm with, the home for the tool).
 */
export async function readEngine(es: EsApi, url: string, o: EngineOverrides = {}): Promise<EngineFacts> {
  const cached = readCache(url);
  let nodes: NodeFacts[];
  let health: string;
  try {
    [nodes, health] = await Promise.all([es.nodeFacts(), es.healthStatus()]);
  } catch (e) {
    return {
      node: cached?.node ?? null,
      ...(cached?.pid ? { pid: cached.pid } : {}),
      home: homeOf(undefined, o, cached?.home ?? null),
      answers: false,
      seen: cached ? cached.seenAt : `never (${(e as Error).message})`,
    };
  }
  const local = localNodeOf(nodes);
  // The cluster answers (through another node) without the node last seen on this host: that one is down here.
  if (!local && cached?.node && !nodes.some((n) => n.id === cached.node!.id))
    return { node: cached.node, home: homeOf(undefined, o, cached.home), answers: false, health, seen: cached.seenAt };
  if (!local) {
    const names = nodes.map((n) => `${n.name}${n.host ? ` on ${n.host}` : ''}`).join(', ');
    return {
      node: null,
      home: homeOf(undefined, o, null),
      answers: true,
      health,
      seen: 'now',
      elsewhere: `no node of the cluster (${names}) runs on this host: run shardeck service on the node's own host, as root`,
    };
  }
  const facts: EngineFacts = {
    node: { name: local.name, id: local.id },
    ...(local.pid ? { pid: local.pid } : {}),
    home: homeOf(local, o, null),
    answers: true,
    health,
    seen: 'now',
  };
  try {
    writePrivateFileAtomic(
      cacheFile(url),
      JSON.stringify({ node: facts.node, pid: facts.pid, home: facts.home, seenAt: new Date().toISOString() }) + '\n',
    );
  } catch {
    /* a cache only: the next run reads the node again */
  }
  return facts;
}

/** One sentence when a recovery checklist holds this node (running now, or stopped half way), else null. */
export function checklistHold(nodeName: string): string | null {
  for (const p of unfinishedProgress()) {
    if (p.facts.node.name !== nodeName) continue;
    const file = progressFile(p.index, p.shard);
    const holder = lockHolder(file.replace(/\.json$/, '.lock'));
    const step = Object.entries(p.steps ?? {}).filter(([, r]) => r?.status === 'done').length;
    return (
      `a recovery checklist holds node ${nodeName}: ${p.index} shard ${p.shard}${holder ? ` runs now (pid ${holder})` : `, stopped after ${step} step${step === 1 ? '' : 's'}`}; ` +
      `finish it with shardeck recover-corrupt --resume ${p.index} ${p.shard} (or remove ${file} to give it up); nothing was run`
    );
  }
  return null;
}

export interface HostRun {
  ok: boolean;
  /** What happened, a line per command and one for the read-back. */
  lines: string[];
  /** The verification after the commands. */
  verified?: { ok: boolean; message: string };
  /** A plugin change: the engine must restart to use it. */
  restartNeeded?: boolean;
  auditWarning?: string;
  /** The plugins after a list/install/remove. */
  plugins?: string[];
}

/** What a service verb will run, and why it may not run (null: it may). */
export function servicePlan(
  verb: ServiceVerb,
  facts: EngineFacts,
  cfg: ServiceConfig,
): { commands: string[]; refusal: string | null; summary: string; nodeName: string } {
  const commands = serviceCommands(cfg)[verb];
  const nodeName = facts.node?.name ?? 'this host';
  const summary = serviceSummary(verb, nodeName);
  if (verb === 'status') return { commands, refusal: null, summary, nodeName };
  if (facts.elsewhere) return { commands, refusal: `${facts.elsewhere}; nothing was run`, summary, nodeName };
  if (serviceRisk(verb) === 'destructive' && !facts.node)
    return {
      commands,
      refusal:
        'the node does not answer and was never seen from this host, so it cannot be named to confirm: use the service manager itself; nothing was run',
      summary,
      nodeName,
    };
  const hold = facts.node ? checklistHold(facts.node.name) : null;
  return { commands, refusal: hold, summary, nodeName };
}

/** The service manager's word on the engine (a read: runs also in read-only mode, audited as a read). */
export async function serviceStatus(
  guard: Guard,
  facts: EngineFacts,
  cfg: ServiceConfig,
  tuning: EngineTuning = {},
): Promise<{ running: boolean; command: string; output: string; exitCode: number | null }> {
  const command = serviceCommands(cfg).status[0];
  const nodeName = facts.node?.name ?? 'this host';
  const r = await guard.runHostRead({ command, target: nodeName, summary: `service status of node ${nodeName}` }, () =>
    runShell(command, () => undefined, tuning.hostSecrets ?? { envNames: [], values: [] }),
  );
  return { running: r.ok, command, output: r.output.trim(), exitCode: r.exitCode };
}

/** Does the node answer, and with which pid for this host's node name. */
async function probe(
  es: EsApi,
  name: string | undefined,
): Promise<{ answers: boolean; pid?: number; health?: string; joined: boolean; error?: string }> {
  try {
    const [nodes, health] = await Promise.all([es.nodeFacts(), es.healthStatus()]);
    const n = nodes.find((x) => x.name === name);
    return { answers: true, health, joined: Boolean(n), ...(n?.pid ? { pid: n.pid } : {}) };
  } catch (e) {
    return { answers: false, joined: false, error: (e as Error).message };
  }
}

/**
 * Stop, start or restart: each command once through the guard (audited, never retried), then
 * the node read back: stop -> it no longer answers and its process is gone; start -> it answers,
 * has joined, and health is read; restart -> it answers again with a new process.
 */
export async function runService(
  es: EsApi,
  guard: Guard,
  verb: Exclude<ServiceVerb, 'status'>,
  facts: EngineFacts,
  cfg: ServiceConfig,
  confirmation: Confirmation,
  onOutput: (s: string) => void,
  tuning: EngineTuning = {},
): Promise<HostRun> {
  guard.assertWritable();
  const plan = servicePlan(verb, facts, cfg);
  if (plan.refusal) return { ok: false, lines: [plan.refusal] };
  const secrets = tuning.hostSecrets ?? { envNames: [], values: [] };
  const stopMs = tuning.stopTimeoutMs ?? 90_000;
  const startMs = tuning.startTimeoutMs ?? 180_000;
  const name = facts.node?.name;
  const oldPid = facts.pid;
  const lines: string[] = [];
  let auditWarning: string | undefined;
  for (const [i, command] of plan.commands.entries()) {
    // Each command is bounded like the wait after it: a stop by the stop's, a start by the start's
    // (a restart in one command by both); a hung service manager must not hold the operator forever.
    const stops = verb === 'stop' || (verb === 'restart' && i === 0 && plan.commands.length === 2);
    const timeoutMs = stops ? stopMs : verb === 'start' || plan.commands.length === 2 ? startMs : stopMs + startMs;
    const r = await guard.runHostCommand(
      { command, risk: serviceRisk(verb), target: plan.nodeName, summary: `service ${verb}: ${plan.summary}` },
      confirmation,
      () => runShell(command, onOutput, secrets, { timeoutMs }),
    );
    auditWarning ??= (r as { auditWarning?: string }).auditWarning;
    lines.push(`$ ${command}: ${r.ok ? 'done' : (r.error ?? 'failed')}`);
    if (r.timedOut) {
      // Not run again: where the node is now, and what to look at before anything else is run.
      const p = await probe(es, name);
      lines.push(
        `it was not run again; node ${name ?? '?'} ${p.answers ? `answers now${p.pid ? ` (pid ${p.pid})` : ''}` : 'does not answer now'}: the service manager may still be at work: check it (shardeck service status, the service manager's status and journal) and the node's log before running anything else`,
      );
    }
    if (!r.ok) return { ok: false, lines, auditWarning };
    // stop then start (a custom restart): the stop must have taken before the start runs.
    if (verb === 'restart' && plan.commands.length === 2 && command === plan.commands[0]) {
      const gone = await verifyStopped(es, name, oldPid, stopMs);
      lines.push(gone.message);
      if (!gone.ok) return { ok: false, lines, verified: gone, auditWarning };
    }
  }
  const verified =
    verb === 'stop'
      ? await verifyStopped(es, name, oldPid, stopMs)
      : await verifyStarted(es, name, verb === 'restart' ? oldPid : undefined, startMs);
  lines.push(verified.message);
  return { ok: verified.ok, lines, verified, auditWarning };
}

async function verifyStopped(
  es: EsApi,
  name: string | undefined,
  pid: number | undefined,
  timeoutMs: number,
): Promise<{ ok: boolean; message: string }> {
  const { value, met } = await waitUntil(
    async () => ({ p: await probe(es, name), alive: pid !== undefined && elasticsearchRunsAs(pid) }),
    (v) => !v.p.answers && !v.alive,
    { timeoutMs, intervalMs: 1000 },
  );
  if (met) return { ok: true, message: `verified: node ${name ?? '?'} no longer answers${pid ? ` and process ${pid} is gone` : ''}` };
  return {
    ok: false,
    message: `after ${Math.round(timeoutMs / 1000)} s node ${name ?? '?'} ${value.p.answers ? 'still answers' : `does not answer but process ${pid} still runs`}: the stop command did not stop it`,
  };
}

async function verifyStarted(
  es: EsApi,
  name: string | undefined,
  oldPid: number | undefined,
  timeoutMs: number,
): Promise<{ ok: boolean; message: string }> {
  const { value, met } = await waitUntil(
    () => probe(es, name),
    (v) => v.answers && (name === undefined || v.joined) && (oldPid === undefined || (v.pid !== undefined && v.pid !== oldPid)),
    { timeoutMs, intervalMs: 1000 },
  );
  if (met)
    return {
      ok: true,
      message: `verified: node ${name ?? '?'} answers${value.pid ? ` (pid ${value.pid}${oldPid ? `, was ${oldPid}` : ''})` : ''} and is in the cluster; cluster health ${value.health}`,
    };
  if (!value.answers)
    return {
      ok: false,
      message: `node ${name ?? '?'} does not answer ${Math.round(timeoutMs / 1000)} s after the start (${value.error}): read its log`,
    };
  if (oldPid !== undefined && value.pid === oldPid)
    return { ok: false, message: `node ${name} still runs as the old process ${oldPid}: the restart command did not restart it` };
  return { ok: false, message: `the cluster answers but node ${name} has not joined it within ${Math.round(timeoutMs / 1000)} s` };
}

// --- plugins ------------------------------------------------------------------------------------

/** Why the plugin tool cannot run here (one sentence), else null. */
export function pluginToolRefusal(facts: EngineFacts): string | null {
  if (facts.elsewhere) return facts.elsewhere;
  if (!facts.home)
    return `the engine's home is unknown (${facts.answers ? 'the node did not report path.home' : 'the node does not answer and was never seen from here'}): give --es-home DIR and --es-user NAME`;
  const tool = `${facts.home.home}/bin/elasticsearch-plugin`;
  if (!existsHere(tool)) return `${tool} does not exist on this host: give the engine's home with --es-home DIR`;
  const uid = uidOfUser(facts.home.user);
  if (uid === null) return `user ${facts.home.user} does not exist on this host: give the tool's user with --es-user`;
  const java = facts.home.javaHome ? programRefusal(`${facts.home.javaHome}/bin/java`, uid) : null;
  return linkedFolderRefusal(`${facts.home.home.replace(/\/+$/, '')}/plugins`) ?? programRefusal(tool, uid) ?? java;
}

/** The installed plugins, from the tool (a read). */
export async function listPlugins(
  guard: Guard,
  facts: EngineFacts,
  tuning: EngineTuning = {},
): Promise<{ ok: boolean; plugins: string[]; command: string; error?: string }> {
  const refusal = pluginToolRefusal(facts);
  if (refusal) return { ok: false, plugins: [], command: '', error: refusal };
  const command = pluginCommand(facts.home!, 'list');
  const nodeName = facts.node?.name ?? 'this host';
  // The plugin tool runs as root or the engine's user: a read, audited as one.
  const r = await guard.runHostRead({ command, target: nodeName, summary: `plugin list on node ${nodeName}` }, () =>
    runShell(command, () => undefined, tuning.hostSecrets ?? { envNames: [], values: [] }),
  );
  return r.ok
    ? { ok: true, plugins: parsePluginList(r.output), command }
    : { ok: false, plugins: [], command, error: `${r.error}: ${r.output.trim().split('\n').slice(-3).join(' ')}` };
}

/** Why a plugin change cannot run: the operator's input, or this host (no tool, no home). */
export type PluginChangeRefusal = { refusal: string; kind: 'input' | 'host' };

/** What `install ARG` / `remove NAME` will run, or why not. */
export function pluginChange(
  verb: Exclude<PluginVerb, 'list'>,
  arg: string,
  facts: EngineFacts,
): { command: string; target: string } | PluginChangeRefusal {
  const bad = (refusal: string): PluginChangeRefusal => ({ refusal, kind: 'input' });
  const src = verb === 'install' ? parsePluginSource(arg) : null;
  if (typeof src === 'string') return bad(src);
  const badName = verb === 'remove' ? checkPluginName(arg) : null;
  if (badName) return bad(badName);
  if (src?.kind === 'zip' && !existsHere(path.resolve(src.value)))
    return bad(`${path.resolve(src.value)} does not exist: give the plugin's zip file on this host`);
  const refusal = pluginToolRefusal(facts);
  if (refusal) return { refusal, kind: 'host' };
  if (verb === 'remove' || !src) return { command: pluginCommand(facts.home!, 'remove', arg), target: arg };
  if (src.kind === 'zip') {
    const abs = path.resolve(src.value);
    return { command: pluginCommand(facts.home!, 'install', zipUrl(abs)), target: path.basename(abs) };
  }
  return { command: pluginCommand(facts.home!, 'install', src.value), target: src.value };
}

/** Install or remove once through the guard, then the tool's list read back. */
export async function changePlugin(
  guard: Guard,
  verb: Exclude<PluginVerb, 'list'>,
  arg: string,
  facts: EngineFacts,
  confirmation: Confirmation,
  onOutput: (s: string) => void,
  tuning: EngineTuning = {},
): Promise<HostRun> {
  guard.assertWritable();
  const change = pluginChange(verb, arg, facts);
  if ('refusal' in change) return { ok: false, lines: [change.refusal] };
  const before = await listPlugins(guard, facts, tuning);
  const secrets = tuning.hostSecrets ?? { envNames: [], values: [] };
  const r = await guard.runHostCommand(
    {
      command: change.command,
      risk: 'reversible',
      target: change.target,
      summary: `plugin ${verb} ${change.target} on node ${facts.node?.name ?? 'of this host'}`,
    },
    confirmation,
    () => runShell(change.command, onOutput, secrets),
  );
  const auditWarning = (r as { auditWarning?: string }).auditWarning;
  const lines = [`$ ${change.command}: ${r.ok ? 'done' : (r.error ?? 'failed')}`];
  if (!r.ok) {
    const tail = r.output
      .trim()
      .split('\n')
      .filter((l) => /ERROR|Exception|denied|exist|not/i.test(l))
      .slice(-2);
    return { ok: false, lines: [...lines, ...tail], auditWarning };
  }
  const after = await listPlugins(guard, facts, tuning);
  let verified: { ok: boolean; message: string };
  if (!after.ok) verified = { ok: false, message: `could not list the plugins afterwards: ${after.error}` };
  else if (verb === 'remove')
    verified = after.plugins.includes(arg)
      ? { ok: false, message: `${arg} is still listed` }
      : { ok: true, message: `verified: ${arg} is no longer installed` };
  else {
    const added = after.plugins.filter((p) => !before.plugins.includes(p));
    verified = added.length
      ? { ok: true, message: `verified: ${added.join(', ')} installed` }
      : { ok: false, message: 'the tool finished but lists no new plugin' };
  }
  lines.push(verified.message);
  if (verified.ok) lines.push(RESTART_NEEDED);
  return { ok: verified.ok, lines, verified, restartNeeded: verified.ok, plugins: after.plugins, auditWarning };
}
