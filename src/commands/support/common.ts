// What every subcommand shares: its shape, the global flags, exit codes, and turning flags into
// a connection to the storage node.
import type { ParseArgsConfig } from 'node:util';
import { urlForMessage } from '../../domain/urls';
import type { EsClient } from '../../cluster/connection';
import { createClient } from '../../cluster/connection';
import { promptHidden, resolveConnection, UsageError, type ResolvedConnection } from '../../config/connection';
import { getProfile, markLastUsed, openConfig, pickProfileName, type Profile } from '../../config/profiles';
import { err, markInsecureTls } from './output';
import { createEsApi } from '../../cluster/api';
import { allocationLeft } from '../../services/allocation-record';
import { profileBadge, type ProfileBadge } from '../../domain/console/profile-badge';
import { inProcessRun } from './in-process';

/** How `shardeck help` groups the commands. */
export type CommandGroup = 'watch' | 'inspect' | 'change' | 'recover' | 'platform' | 'config';

export interface CommandModule {
  /** Flags of this command beyond the global ones. */
  options?: ParseArgsConfig['options'];
  usage: string;
  summary: string;
  /** Where help lists it (help, the man page and the completions are generated from the command table). */
  group: CommandGroup;
  /** The meaning of each of this command's own flags, with its default where it has one (a test checks every flag has one). */
  flagHelp: Record<string, string>;
  /** Two or three real command lines. */
  examples: readonly string[];
  /** A command that only reads local files (audit, profiles, ...) answers at once: no Promise. */
  run(ctx: CommandContext): number | Promise<number>;
}

export interface CommandContext {
  values: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
}

/** Flags every command takes (connection and profile). */
export const GLOBAL_OPTIONS: NonNullable<ParseArgsConfig['options']> = {
  url: { type: 'string' },
  user: { type: 'string' },
  'password-env': { type: 'string' },
  'password-file': { type: 'string' },
  ca: { type: 'string' },
  insecure: { type: 'boolean' },
  profile: { type: 'string' },
  'read-only': { type: 'boolean' },
  via: { type: 'string' },
  json: { type: 'boolean' },
  'cluster-name': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
};

/** The meaning of each global flag (help, man page, zsh completion). */
export const GLOBAL_FLAG_HELP: Record<string, string> = {
  url: "the storage node's URL (default: the profile's, else http://localhost:9200)",
  user: 'basic-auth user (elastic on a secured node); the password comes from --password-env or --password-file, or a hidden prompt',
  'password-env': 'name of the environment variable that holds the password (never the password itself)',
  'password-file': 'file holding the password (keep it 0600)',
  ca: "CA certificate file (PEM) the node's certificate is checked against",
  insecure: 'do not verify the TLS certificate (off by default; say so only for a test node)',
  profile: 'use this saved profile (default: the last used one); see shardeck profiles',
  'read-only': 'refuse every change: nothing that changes the cluster or the host can be sent (exit 4)',
  via: "search_curl: send every request through the node's search_curl wrapper, which brings the credentials and CA (no password in shardeck)",
  json: 'machine-readable output (one JSON document on stdout)',
  'cluster-name':
    "on a profile marked --production: the cluster's name, which a change that loses data asks for (with --yes, where nobody is asked)",
  help: "this command's usage, flags and examples",
};

/** The groups of `shardeck help`, in order. */
export const GROUPS: { name: CommandGroup; title: string }[] = [
  { name: 'watch', title: 'watch' },
  { name: 'inspect', title: 'inspect' },
  { name: 'change', title: 'change (guarded: preview, confirm, audit, verify)' },
  { name: 'recover', title: 'recover' },
  { name: 'platform', title: 'platform' },
  { name: 'config', title: 'config and help' },
];

/** Exit codes shared by every command (status follows monitoring-check conventions). */
export const EXIT = { ok: 0, yellow: 1, red: 2, unreachable: 3, readOnly: 4, failed: 5, usage: 64, internal: 70 } as const;

export interface CommandConnection {
  profileName: string;
  profile: Profile | undefined;
  conn: ResolvedConnection;
  client: EsClient;
  /** The URL without credentials, for messages. */
  where: string;
  /** The profile's label and colour (none when --url points elsewhere than the last profile's node). */
  badge?: ProfileBadge;
}

/**
 * The label of the profile the flags pick. A --url without --profile reaches a node other than
 * the last profile's maybe: that profile's label would then name the wrong cluster, so none.
 */
export function badgeOf(values: CommandContext['values'], profile: Profile | undefined): ProfileBadge | undefined {
  return values.url !== undefined && values.profile === undefined ? undefined : profileBadge(profile);
}

/** The label of the profile the flags pick, read from the config (a confirmation that has only the flags). */
export function badgeOfFlags(values: CommandContext['values']): ProfileBadge | undefined {
  const conf = openConfig();
  return badgeOf(values, getProfile(pickProfileName(values.profile as string | undefined, conf), conf));
}

/**
 * Resolves the profile and connection from the flags and builds the client. Unless told not to
 * (the console shows a dialog instead; `allocation` shows it itself), says on stderr when
 * shardeck left an allocation setting changed on this cluster (services/allocation-record.ts).
 */
export async function openConnection(
  values: CommandContext['values'],
  { allocationCheck = true }: { allocationCheck?: boolean } = {},
): Promise<CommandConnection> {
  // Inside the console: its connection, a client of the run's own (the command closes it when done).
  const run = inProcessRun();
  if (run) {
    const { profileName, profile, conn, badge } = run.connection;
    return { profileName, profile, conn, client: createClient(conn), where: urlForMessage(conn.url), ...(badge ? { badge } : {}) };
  }
  const conf = openConfig();
  const profileName = pickProfileName(values.profile as string | undefined, conf);
  const profile = getProfile(profileName, conf);
  if (values.profile && !profile) {
    throw new UsageError(`no profile named "${String(values.profile)}": see shardeck profiles`);
  }
  const conn = await resolveConnection(values, profile, process.stdin.isTTY ? promptHidden : undefined);
  if (profile) markLastUsed(profileName, conf);
  announceInsecure(conn);
  const client = createClient(conn);
  if (allocationCheck) await warnLeftAllocation(client, conn.url);
  const badge = badgeOf(values, profile);
  return { profileName, profile, conn, client, where: urlForMessage(conn.url), ...(badge ? { badge } : {}) };
}

/**
 * Every command says it when TLS is not verified (the console shows it in its status bar): on
 * stderr now, and as `insecureTls: true` in every --json object it prints (output.ts outJson).
 */
export function announceInsecure(conn: { url: string; insecure?: boolean; via?: unknown }): void {
  if (!conn.insecure || conn.via || !/^https:/i.test(conn.url)) return;
  markInsecureTls();
  err(
    `shardeck: WARNING: TLS verification is OFF for ${urlForMessage(conn.url)} (--insecure, given or in the profile): anyone on the network path can read and change what is sent, the password included; give the CA with --ca FILE instead\n`,
  );
}

/** One line on stderr when shardeck left allocation changed here; a failure to tell never stops the command. */
async function warnLeftAllocation(client: EsClient, url: string): Promise<void> {
  try {
    const all = await allocationLeft(createEsApi(client, url));
    if (all.own) err(`shardeck: WARNING: ${all.own.message}; put it back with: shardeck allocation restore\n`);
    for (const line of [...all.others.map((l) => l.message), ...all.unread]) err(`shardeck: WARNING: ${line}\n`);
  } catch {
    // unreachable or refused: the command says so itself
  }
}
