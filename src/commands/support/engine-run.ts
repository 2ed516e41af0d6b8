// What `shardeck service` and `shardeck plugin` share: flags -> the engine session (the console's
// engine wizard runs the same one) -> the commands shown -> confirmation -> the verified end.
import readline from 'node:readline/promises';
import { connectionSecrets } from '../../domain/host/host-env';
import type { Confirmation, ConfirmationNeed } from '../../domain/mutation/confirmation';
import type { EngineAction, EngineWizardState } from '../../domain/wizards/engine';
import type { EngineOverrides } from '../../services/engine';
import { engineSession } from '../../services/wizards/engine';
import { EXIT, type CommandContext } from './common';
import { JSON_SCHEMA, labelFor, openGuard, printJson, reportFailure, warnAudit } from './guarded';
import { paint } from './paint';
import { err, out, forTerminal } from './output';

/** Flags that say where the engine is and how its service is run (over the profile's). */
export const ENGINE_OPTIONS = {
  'es-home': { type: 'string' },
  'es-user': { type: 'string' },
  'conf-dir': { type: 'string' },
  'java-home': { type: 'string' },
  'stop-cmd': { type: 'string' },
  'start-cmd': { type: 'string' },
  'restart-cmd': { type: 'string' },
  'status-cmd': { type: 'string' },
  'wait-timeout': { type: 'string' },
} as const;

export const ENGINE_FLAG_HELP: Record<string, string> = {
  'es-home': "the engine's home (bin/, plugins/); default: path.home as the node reports it",
  'es-user':
    "the user the plugin tool runs as; default: the engine process's user (the owner of <home>/plugins when that user cannot write there)",
  'conf-dir': "ES_PATH_CONF for the plugin tool; default: the running engine's, else /etc/elasticsearch",
  'java-home': "ES_JAVA_HOME for the plugin tool; default: the running engine's java",
  'stop-cmd': "the command that stops the engine; default: the profile's serviceStop, else systemctl stop elasticsearch",
  'start-cmd': "the command that starts it; default: the profile's serviceStart, else systemctl start elasticsearch",
  'restart-cmd':
    "the command that restarts it; default: the profile's serviceRestart, else systemctl restart (or stop then start when those are custom)",
  'status-cmd': "the command that asks the service manager; default: the profile's serviceStatus, else systemctl is-active elasticsearch",
  'wait-timeout':
    'seconds to wait for the node to stop or to answer and join after a start (default 90 to stop, 180 to start); a service command still running after as long is stopped',
};

type Values = CommandContext['values'];

export function engineOverrides(values: Values, profile: EngineOverrides | undefined): EngineOverrides {
  const s = (k: string) => (values[k] === undefined ? undefined : String(values[k]));
  const pick = <T>(...xs: (T | undefined)[]) => xs.find((x) => x !== undefined);
  return {
    serviceStop: pick(s('stop-cmd'), profile?.serviceStop),
    serviceStart: pick(s('start-cmd'), profile?.serviceStart),
    serviceRestart: pick(s('restart-cmd'), profile?.serviceRestart),
    serviceStatus: pick(s('status-cmd'), profile?.serviceStatus),
    esHome: pick(s('es-home'), profile?.esHome),
    esUser: pick(s('es-user'), profile?.esUser),
    confDir: pick(s('conf-dir'), profile?.confDir),
    javaHome: pick(s('java-home'), profile?.javaHome),
  };
}

/** --yes for a key; the node's name (typed, or --node-name with --yes) for stop and restart. */
async function confirmation(command: string, need: ConfirmationNeed, values: Values): Promise<Confirmation | null> {
  if (need.kind === 'type' && values['node-name'] !== undefined)
    return { by: values.yes ? 'yes-flag' : 'typed', text: String(values['node-name']) };
  if (values.yes && need.kind === 'key') return { by: 'yes-flag' };
  if (values.yes && need.kind === 'type') {
    err(
      `shardeck ${command}: this takes node ${need.expected} out of service and --yes does not confirm it: add --node-name ${need.expected}; nothing was run\n`,
    );
    return null;
  }
  // A script asked for JSON: never a question; the caller prints the commands that need confirming.
  if (values.json) return null;
  if (!process.stdin.isTTY) {
    err(
      `shardeck ${command}: no terminal to confirm on: add --yes${need.kind === 'type' ? ` --node-name ${need.expected}` : ''} to confirm from a script; nothing was run\n`,
    );
    return null;
  }
  const rl = readline.createInterface({ input: process.stdin, output: process.stderr });
  try {
    if (need.kind === 'type') {
      const text = (
        await rl.question(forTerminal(`${labelFor(values)}this takes the node out of service: type ${need.expected} to go on: `))
      ).trim();
      if (text === need.expected) return { by: 'typed', text };
    } else if (/^y(es)?$/i.test((await rl.question(forTerminal(`${labelFor(values)}run it? [y/N] `))).trim())) return { by: 'key' };
    err('not confirmed: nothing was run\n');
    return null;
  } finally {
    rl.close();
  }
}

/** Runs one action of the engine session and prints its end; the exit code. */
export async function runEngineAction(command: string, action: EngineAction, values: Values): Promise<number> {
  const json = Boolean(values.json);
  const waitS = values['wait-timeout'] === undefined ? undefined : Number(values['wait-timeout']);
  const { es, guard, profile, conn, close } = await openGuard(values);
  const say = (s: string) => (json ? err : out)(s);
  try {
    const session = engineSession(
      es,
      guard,
      {
        url: conn.url,
        overrides: engineOverrides(values, profile),
        hostSecrets: connectionSecrets(conn),
        ...(waitS === undefined ? {} : { stopTimeoutMs: waitS * 1000, startTimeoutMs: waitS * 1000 }),
      },
      action,
    );
    let state: EngineWizardState = await session.idle();
    let sent = false;
    if (state.phase === 'asking' && state.need) {
      say([paint('bold', state.summary ?? ''), ...state.commands.map((c) => `  $ ${c}`)].join('\n') + '\n');
      if (values['dry-run']) {
        if (json)
          printJson({
            schema: JSON_SCHEMA,
            command,
            ok: true,
            dryRun: true,
            sent: false,
            action,
            commands: state.commands,
            confirm: state.need,
          });
        else out('dry run: nothing was run\n');
        return EXIT.ok;
      }
      const c = await confirmation(command, state.need, values);
      if (!c) {
        if (json)
          printJson({
            schema: JSON_SCHEMA,
            command,
            ok: false,
            sent: false,
            action,
            commands: state.commands,
            confirmationNeeded: true,
            confirm: state.need,
            error: `confirmation needed: add --yes${state.need.kind === 'type' ? ` --node-name ${state.need.expected}` : ''}; nothing was run`,
            refused: 'unconfirmed',
          });
        return EXIT.failed;
      }
      session.subscribe(() => {
        const s = session.getState();
        if (s.phase === 'running' && s.output.length) say(paint('dim', s.output[s.output.length - 1] + '\n'));
      });
      session.send({ type: 'confirm', confirmation: c });
      sent = true;
      state = await session.idle();
    }
    if (state.phase === 'failed') throw session.failure(state.message ?? 'failed');
    const r = state.result;
    if (!r) throw new Error(`the engine session stopped in ${state.phase}`);
    warnAudit(r.data?.auditWarning as string | undefined);
    if (json)
      printJson({
        schema: JSON_SCHEMA,
        command,
        ok: r.ok,
        action,
        sent,
        commands: state.commands,
        lines: r.lines,
        restartNeeded: Boolean(r.restartNeeded),
        ...(r.refused ? { refused: r.refused } : {}),
        ...r.data,
        // Every failed command's JSON says it in `error` (the lines, in one sentence).
        ...(r.ok ? {} : { error: r.lines.join('; ') }),
      });
    else {
      const [first, ...rest] = r.lines;
      out([paint(r.ok ? 'green' : 'red', first ?? ''), ...rest].join('\n') + '\n');
      if (r.restartNeeded) out(`next: shardeck service restart (the change is used from the next start)\n`);
    }
    if (r.refused) err(`shardeck ${command}: ${r.lines[0]}\n`);
    const isStatus = action.kind === 'service' && action.verb === 'status';
    if (isStatus) return r.ok ? EXIT.ok : EXIT.unreachable;
    if (r.refused === 'read-only') return EXIT.readOnly;
    if (r.refused === 'input') return EXIT.usage;
    return r.ok ? EXIT.ok : EXIT.failed;
  } catch (e) {
    return reportFailure(command, e, json);
  } finally {
    await close();
  }
}
