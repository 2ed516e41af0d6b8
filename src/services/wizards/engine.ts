// The engine wizard's runner: reads this host's engine (services/engine.ts), plans an action
// (its commands and how it is confirmed, or why it may not run), runs it once through the Guard
// and reports the verified end. `shardeck service` / `shardeck plugin` and the console drive it.
import type { EsApi } from '../../cluster/api';
import { serviceConfirmation, serviceManagerMissing, serviceStateLine, serviceSummary, type ServiceConfig } from '../../domain/host/engine';
import { systemdRunning } from '../../boundary/host-reads';
import {
  engineMachine,
  type EngineAction,
  type EngineResult,
  type EngineWizardEffect,
  type EngineWizardEvent,
  type EngineWizardState,
} from '../../domain/wizards/engine';
import {
  changePlugin,
  listPlugins,
  pluginChange,
  readEngine,
  runService,
  servicePlan,
  serviceStatus,
  type EngineFacts,
  type EngineOverrides,
  type EngineTuning,
  type HostRun,
} from '../engine';
import { GuardRefusal, type Guard } from '../guard';
import { WizardSession } from './session';

export interface EngineSessionOptions extends EngineTuning {
  /** The node's URL (for messages and the remembered engine facts). */
  url: string;
  /** The profile's service commands and engine home, with the flags of this run over them. */
  overrides?: EngineOverrides;
}

/** The engine as lines: node, answers, pid, home and user of the plugin tool. */
export function engineLines(f: EngineFacts): string[] {
  return [
    f.node
      ? `node ${f.node.name}${f.pid ? ` (pid ${f.pid})` : ''}: ${f.answers ? `answers, cluster ${f.health}` : `does NOT answer (last seen ${f.seen})`}`
      : (f.elsewhere ?? `no node seen from this host (${f.seen})`),
    ...(f.home ? [`home ${f.home.home}, plugin tool runs as ${f.home.user} (config ${f.home.confDir})`] : []),
  ];
}

function fromRun(r: HostRun, data: Record<string, unknown> = {}): EngineResult {
  return {
    ok: r.ok,
    lines: r.lines,
    ...(r.restartNeeded ? { restartNeeded: true } : {}),
    data: {
      ...data,
      verified: r.verified ?? null,
      ...(r.plugins ? { plugins: r.plugins } : {}),
      ...(r.auditWarning ? { auditWarning: r.auditWarning } : {}),
    },
  };
}

const refusal = (lines: string[], refused: EngineResult['refused']): EngineResult => ({ ok: false, lines, refused });

export function engineSession(es: EsApi, guard: Guard, opts: EngineSessionOptions, initial?: EngineAction) {
  const o = opts.overrides ?? {};
  const cfg: ServiceConfig = o;
  let facts: EngineFacts | null = null;
  const perform = async (f: EngineWizardEffect, send: (e: EngineWizardEvent) => void): Promise<void> => {
    if (f.type === 'load') {
      facts = await readEngine(es, opts.url, o);
      const [svc, plugins] = await Promise.all([serviceStatus(guard, facts, cfg, opts), listPlugins(guard, facts, opts)]);
      return send({
        type: 'loaded',
        info: [
          ...engineLines(facts),
          serviceStateLine(
            'service',
            { running: svc.running, detail: `$ ${svc.command}${svc.output ? `: ${svc.output.split('\n')[0]}` : ''}` },
            facts.answers,
            serviceManagerMissing(cfg, { systemdRunning: systemdRunning() }),
          ),
          plugins.ok ? `plugins: ${plugins.plugins.join(', ') || 'none'}` : `plugins: ${plugins.error}`,
        ],
        plugins: plugins.plugins,
        readOnly: guard.readOnly,
      });
    }
    if (f.type === 'plan') {
      const a = f.action;
      facts = await readEngine(es, opts.url, o);
      if (a.kind === 'service' && a.verb === 'status') {
        const svc = await serviceStatus(guard, facts, cfg, opts);
        const lines = [
          ...engineLines(facts),
          serviceStateLine(
            'service manager',
            { running: svc.running, detail: `$ ${svc.command}, exit ${svc.exitCode}` },
            facts.answers,
            serviceManagerMissing(cfg, { systemdRunning: systemdRunning() }),
          ),
          ...(svc.output
            ? svc.output
                .split('\n')
                .slice(-3)
                .map((l) => `  ${l}`)
            : []),
        ];
        return send({
          type: 'finished',
          result: {
            ok: facts.answers && !facts.elsewhere,
            lines,
            data: {
              node: facts.node,
              pid: facts.pid ?? null,
              answers: facts.answers,
              health: facts.health ?? null,
              seen: facts.seen,
              service: { running: svc.running, command: svc.command, exitCode: svc.exitCode, output: svc.output },
              ...(facts.elsewhere ? { elsewhere: facts.elsewhere } : {}),
            },
          },
        });
      }
      if (a.kind === 'plugin' && a.verb === 'list') {
        const l = await listPlugins(guard, facts, opts);
        return send({
          type: 'finished',
          result: l.ok
            ? { ok: true, lines: l.plugins.length ? l.plugins : ['no plugins installed'], data: { plugins: l.plugins, command: l.command } }
            : refusal([l.error!], 'host'),
        });
      }
      // A change: read-only mode says so before anything else.
      if (guard.readOnly) {
        try {
          guard.assertWritable();
        } catch (e) {
          return send({ type: 'finished', result: refusal([(e as Error).message], 'read-only') });
        }
      }
      if (a.kind === 'service') {
        const p = servicePlan(a.verb, facts, cfg);
        if (p.refusal)
          return send({ type: 'finished', result: refusal([p.refusal], p.refusal.startsWith('a recovery checklist') ? 'hold' : 'host') });
        return send({
          type: 'planned',
          action: a,
          commands: p.commands,
          summary: serviceSummary(a.verb, p.nodeName),
          need: serviceConfirmation(a.verb, p.nodeName),
        });
      }
      const change = pluginChange(a.verb as 'install' | 'remove', a.arg ?? '', facts);
      if ('refusal' in change) return send({ type: 'finished', result: refusal([change.refusal], change.kind) });
      return send({
        type: 'planned',
        action: a,
        commands: [change.command],
        summary: `${a.verb} plugin ${change.target} on node ${facts.node?.name ?? 'of this host'}`,
        need: { kind: 'key' },
      });
    }
    const a = f.action;
    const output = (chunk: string) => send({ type: 'output', chunk });
    try {
      const r =
        a.kind === 'service'
          ? await runService(es, guard, a.verb as 'start' | 'stop' | 'restart', facts!, cfg, f.confirmation, output, opts)
          : await changePlugin(guard, a.verb as 'install' | 'remove', a.arg ?? '', facts!, f.confirmation, output, opts);
      send({ type: 'finished', result: fromRun(r, { node: facts?.node ?? null }) });
    } catch (e) {
      if (!(e instanceof GuardRefusal)) throw e;
      send({
        type: 'finished',
        result: refusal([e.message], e.kind === 'read-only' ? 'read-only' : e.kind === 'unconfirmed' ? 'unconfirmed' : 'host'),
      });
    }
  };
  return new WizardSession<EngineWizardState, EngineWizardEvent, EngineWizardEffect>(engineMachine(initial), perform);
}

/** The engine wizard's: the node's URL (its remembered facts) and the profile's service commands and home. */
export interface EngineWizardTuning extends EngineTuning {
  engineUrl?: string;
  engineOverrides?: EngineOverrides;
}

/** The console's way to open it: `services.open(engineWizard)` (services/wizards/index.ts); the same session as `shardeck service` / `shardeck plugin`. */
export const engineWizard = (es: EsApi, guard: Guard, tuning: EngineWizardTuning) =>
  engineSession(es, guard, { ...tuning, url: tuning.engineUrl ?? '', overrides: tuning.engineOverrides });
