// The engine on its host: the service commands (systemctl, or the profile's own), the plugin tool
// (bin/elasticsearch-plugin as the engine's user), how each is confirmed, and the plugin list as
// the tool prints it. Nothing here runs anything: services/engine.ts does, through the Guard.
import type { ConfirmationNeed } from '../mutation/confirmation';
import type { Risk } from '../mutation/plan';
import { shellQuote } from '../mutation/preview';

export type ServiceVerb = 'start' | 'stop' | 'restart' | 'status';
export const SERVICE_VERBS: readonly ServiceVerb[] = ['start', 'stop', 'restart', 'status'];

export const DEFAULT_SERVICE_STOP = 'systemctl stop elasticsearch';
export const DEFAULT_SERVICE_START = 'systemctl start elasticsearch';
export const DEFAULT_SERVICE_RESTART = 'systemctl restart elasticsearch';
export const DEFAULT_SERVICE_STATUS = 'systemctl is-active elasticsearch';

/** The profile's service commands (and flags that override them for one run). */
export interface ServiceConfig {
  serviceStop?: string;
  serviceStart?: string;
  serviceRestart?: string;
  serviceStatus?: string;
}

/**
 * The shell commands of each verb. Restart is the profile's own restart, else systemctl restart
 * when stop and start are systemctl's, else stop then start (a custom manager may have no restart).
 */
export function serviceCommands(c: ServiceConfig): Record<ServiceVerb, string[]> {
  const stop = c.serviceStop ?? DEFAULT_SERVICE_STOP;
  const start = c.serviceStart ?? DEFAULT_SERVICE_START;
  const custom = c.serviceStop !== undefined || c.serviceStart !== undefined;
  return {
    stop: [stop],
    start: [start],
    restart: c.serviceRestart !== undefined ? [c.serviceRestart] : custom ? [stop, start] : [DEFAULT_SERVICE_RESTART],
    status: [c.serviceStatus ?? DEFAULT_SERVICE_STATUS],
  };
}

/**
 * Why the default service commands cannot work on this host (no systemd running: a container, a
 * node started by hand), said before a restart begins; null with the profile's own commands.
 */
export function serviceManagerMissing(c: ServiceConfig, host: { systemdRunning: boolean }): string | null {
  if (c.serviceStop !== undefined || c.serviceStart !== undefined || host.systemdRunning) return null;
  return (
    'this host has no service manager shardeck can use to stop and start the node (systemd is not running here, so ' +
    `"${DEFAULT_SERVICE_STOP}" cannot work): give the host's own commands with --stop-cmd and --start-cmd, or save them in the profile (serviceStop, serviceStart); nothing was changed`
  );
}

/**
 * The service manager's word on one line, and when it says "not running" of a node that answers,
 * why both are true: no systemd here (noManager), or a node started another way than the service.
 */
export function serviceStateLine(
  label: string,
  svc: { running: boolean; detail: string },
  nodeAnswers: boolean,
  noManager: string | null,
): string {
  const line = `${label}: ${svc.running ? 'running' : 'not running'} (${svc.detail})`;
  if (svc.running || !nodeAnswers) return line;
  return noManager
    ? `${line}; the node answers all the same: systemd does not run on this host, so the node was started another way and systemctl can neither stop nor start it (--stop-cmd, --start-cmd)`
    : `${line}; the node answers all the same: it was started another way than this service, which will not stop it`;
}

/**
 * Stop and restart take the node out of service: the operator types the node's name (also with
 * --yes, given by --node-name). Start brings it back: a key (or --yes).
 */
export function serviceRisk(verb: ServiceVerb): Risk {
  return verb === 'stop' || verb === 'restart' ? 'destructive' : 'reversible';
}

export function serviceConfirmation(verb: ServiceVerb, nodeName: string): ConfirmationNeed {
  return serviceRisk(verb) === 'destructive' ? { kind: 'type', expected: nodeName } : { kind: 'key' };
}

/** What the verb does, in one line (previews, audit summaries). */
export function serviceSummary(verb: ServiceVerb, nodeName: string): string {
  const what: Record<ServiceVerb, string> = {
    stop: `stop the engine of node ${nodeName} (it leaves the cluster; its shards are unavailable until it starts)`,
    start: `start the engine of node ${nodeName}`,
    restart: `restart the engine of node ${nodeName} (it leaves the cluster for the restart)`,
    status: `ask the service manager about node ${nodeName}`,
  };
  return what[verb];
}

// --- plugins ------------------------------------------------------------------------------------

export type PluginVerb = 'list' | 'install' | 'remove';

/** Where the engine lives on this host and who runs it: what the plugin tool needs. */
export interface EngineHome {
  /** path.home: bin/, lib/, plugins/. */
  home: string;
  /** The system user the plugin tool runs as. */
  user: string;
  /** ES_PATH_CONF of the engine. */
  confDir: string;
  /** ES_JAVA_HOME for the tool; null: the tool finds its own (a bundled JDK). */
  javaHome: string | null;
}

/** A plugin name as the tool knows it (analysis-icu, repository-s3, my-plugin). */
const PLUGIN_NAME = /^[a-z0-9][a-z0-9._-]{0,99}$/i;

export type PluginSource = { kind: 'name'; value: string } | { kind: 'zip'; value: string } | { kind: 'url'; value: string };

/**
 * What `install` was given: an official plugin's name, a zip on this host (absolute path
 * expected: the caller resolves it), or an https/file URL. Else one sentence saying what is wrong.
 */
export function parsePluginSource(arg: string): PluginSource | string {
  const a = arg.trim();
  if (!a) return 'give a plugin name (analysis-icu), a zip file on this host, or an https:// URL';
  // Credentials in the URL would reach the tool's argv (ps), the audit log, the journal and the timeline.
  if (/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(a))
    return 'a plugin URL with credentials (user:password@) would show in ps, the audit log and the timeline: download the zip yourself and give its path';
  if (/^(https|file):\/\//i.test(a)) return { kind: 'url', value: a };
  if (/^http:\/\//i.test(a)) return `${a}: a plain http URL can be altered on the way; give an https:// URL or a downloaded zip`;
  if (a.endsWith('.zip') || a.includes('/'))
    return a.endsWith('.zip') ? { kind: 'zip', value: a } : `${a} is not a .zip file: give the plugin's zip or its name`;
  return PLUGIN_NAME.test(a)
    ? { kind: 'name', value: a }
    : `"${a}" is not a plugin name (letters, digits, . _ -): see shardeck plugin list`;
}

/** A name given to remove: one the tool lists. */
export function checkPluginName(name: string): string | null {
  return PLUGIN_NAME.test(name) ? null : `"${name}" is not a plugin name (letters, digits, . _ -): see shardeck plugin list`;
}

/** The tool's command line, run as the engine's user with the engine's config and java. */
export function pluginCommand(h: EngineHome, verb: PluginVerb, arg?: string): string {
  const q = shellQuote;
  const env = [`ES_PATH_CONF=${q(h.confDir)}`, ...(h.javaHome ? [`ES_JAVA_HOME=${q(h.javaHome)}`] : [])].join(' ');
  const tool = q(`${h.home.replace(/\/+$/, '')}/bin/elasticsearch-plugin`);
  // --batch answers the tool's own questions (extra permissions) with yes: shardeck asked first.
  const tail = verb === 'list' ? 'list' : verb === 'install' ? `install --batch ${q(arg!)}` : `remove ${q(arg!)}`;
  return `runuser -u ${q(h.user)} -- env ${env} ${tool} ${tail}`;
}

/** A zip path as the tool wants it: a file:// URL. */
export function zipUrl(absPath: string): string {
  return `file://${absPath.split('/').map(encodeURIComponent).join('/')}`;
}

/** The installed plugins from `elasticsearch-plugin list` (one per line; warnings and JVM chatter dropped). */
export function parsePluginList(output: string): string[] {
  return output
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => PLUGIN_NAME.test(l) && !/^(warning|WARNING)/.test(l));
}

/** The name a zip installs under, from its plugin-descriptor.properties text. */
export function descriptorName(properties: string): string | null {
  return /^\s*name\s*[=:]\s*(\S+)\s*$/m.exec(properties)?.[1] ?? null;
}

/** A plugin change is read by the engine only at start. */
export const RESTART_NEEDED = 'the engine reads plugins only when it starts: restart it to use the change (shardeck service restart)';
