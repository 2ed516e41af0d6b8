// The engine's pure parts: service commands from the profile, how each verb is confirmed, what
// `plugin install` accepts, the plugin tool's command line and list output, and the wizard machine
// (a menu in the console, one action from the CLI; the typed name; the restart offered).
import { describe, expect, it } from 'vitest';
import {
  serviceManagerMissing,
  serviceStateLine,
  checkPluginName,
  parsePluginList,
  parsePluginSource,
  pluginCommand,
  serviceCommands,
  serviceConfirmation,
  zipUrl,
} from '../../src/domain/host/engine';
import { confirmationSatisfies } from '../../src/domain/mutation/confirmation';
import { engineClosesOnEsc, engineMachine, RESTART, type EngineWizardEvent } from '../../src/domain/wizards/engine';

describe('service commands', () => {
  it('systemctl by default, restart as one command', () => {
    expect(serviceCommands({})).toEqual({
      stop: ['systemctl stop elasticsearch'],
      start: ['systemctl start elasticsearch'],
      restart: ['systemctl restart elasticsearch'],
      status: ['systemctl is-active elasticsearch'],
    });
  });
  it("the profile's stop and start: restart is stop then start unless the profile has its own", () => {
    expect(serviceCommands({ serviceStop: 'svc down', serviceStart: 'svc up' }).restart).toEqual(['svc down', 'svc up']);
    expect(serviceCommands({ serviceStop: 'svc down', serviceRestart: 'svc bounce' }).restart).toEqual(['svc bounce']);
  });
  it('stop and restart need the node name typed (--yes alone does not do); start a key', () => {
    for (const verb of ['stop', 'restart'] as const) {
      const need = serviceConfirmation(verb, 'storage-1');
      expect(need).toEqual({ kind: 'type', expected: 'storage-1' });
      const step = { risk: 'destructive' as const, target: 'storage-1' };
      expect(confirmationSatisfies(step, { by: 'yes-flag' })).toBe(false);
      expect(confirmationSatisfies(step, { by: 'yes-flag', text: 'storage-2' })).toBe(false);
      expect(confirmationSatisfies(step, { by: 'typed', text: 'storage-1' })).toBe(true);
    }
    expect(serviceConfirmation('start', 'storage-1')).toEqual({ kind: 'key' });
  });
});

describe('a host with no service manager (issue 47 item 1)', () => {
  it('is said only for the default systemctl commands on a host where systemd does not run', () => {
    expect(serviceManagerMissing({}, { systemdRunning: false })).toMatch(/no service manager .* --stop-cmd and --start-cmd/);
    expect(serviceManagerMissing({}, { systemdRunning: true })).toBeNull();
    expect(serviceManagerMissing({ serviceStop: 'supervisorctl stop es' }, { systemdRunning: false })).toBeNull();
    expect(serviceManagerMissing({ serviceStart: 'supervisorctl start es' }, { systemdRunning: false })).toBeNull();
  });
});

describe("the service's word beside the node's (issue 47 item 1)", () => {
  const down = { running: false, detail: '$ systemctl is-active elasticsearch' };
  it('"not running" of a node that answers says why both are true', () => {
    expect(serviceStateLine('service', down, true, 'no systemd')).toMatch(
      /not running .*answers all the same: systemd does not run on this host/,
    );
    expect(serviceStateLine('service', down, true, null)).toMatch(/answers all the same: it was started another way than this service/);
  });
  it('says nothing more when they agree', () => {
    expect(serviceStateLine('service', down, false, 'no systemd')).toBe('service: not running ($ systemctl is-active elasticsearch)');
    expect(serviceStateLine('service', { running: true, detail: '$ x' }, true, null)).toBe('service: running ($ x)');
  });
});

describe('plugins', () => {
  it('install takes a name, a zip, an https or file URL; refuses plain http and odd names in one sentence', () => {
    expect(parsePluginSource('analysis-icu')).toEqual({ kind: 'name', value: 'analysis-icu' });
    expect(parsePluginSource('/tmp/p.zip')).toEqual({ kind: 'zip', value: '/tmp/p.zip' });
    expect(parsePluginSource('https://x.example/p.zip')).toEqual({ kind: 'url', value: 'https://x.example/p.zip' });
    expect(parsePluginSource('http://x.example/p.zip')).toMatch(/plain http URL can be altered/);
    expect(parsePluginSource('/tmp/p.tar')).toMatch(/not a \.zip file/);
    expect(parsePluginSource('rm -rf')).toMatch(/is not a plugin name/);
    expect(checkPluginName('a;b')).toMatch(/is not a plugin name/);
    expect(checkPluginName('repository-s3')).toBeNull();
  });
  it("the tool runs as the engine's user with its config and java, everything quoted", () => {
    const h = {
      home: '/usr/share/elasticsearch',
      user: 'elasticsearch',
      confDir: '/etc/elasticsearch',
      javaHome: '/usr/share/elasticsearch/jdk',
    };
    expect(pluginCommand(h, 'install', zipUrl('/tmp/my plugin.zip'))).toBe(
      "runuser -u 'elasticsearch' -- env ES_PATH_CONF='/etc/elasticsearch' ES_JAVA_HOME='/usr/share/elasticsearch/jdk' '/usr/share/elasticsearch/bin/elasticsearch-plugin' install --batch 'file:///tmp/my%20plugin.zip'",
    );
    expect(pluginCommand({ ...h, javaHome: null }, 'remove', "x'y")).toBe(
      "runuser -u 'elasticsearch' -- env ES_PATH_CONF='/etc/elasticsearch' '/usr/share/elasticsearch/bin/elasticsearch-plugin' remove 'x'\\''y'",
    );
  });
  it('the list keeps plugin names, drops JVM warnings', () => {
    const out =
      'WARNING: A terminally deprecated method in java.lang.System has been called\nWARNING: System::setSecurityManager will be removed\nanalysis-icu\nshardeck-test-plugin\n';
    expect(parsePluginList(out)).toEqual(['analysis-icu', 'shardeck-test-plugin']);
  });
});

describe('the engine wizard machine', () => {
  const run = (events: EngineWizardEvent[], initial?: Parameters<typeof engineMachine>[0]) => {
    const m = engineMachine(initial);
    const first = m.init();
    let state = first.state;
    const all = [...first.effects];
    for (const e of events) {
      const next = m.step(state, e);
      state = next.state;
      all.push(...next.effects);
    }
    return { state, effects: all };
  };
  const loaded: EngineWizardEvent = { type: 'loaded', info: ['node n1'], plugins: [], readOnly: false };

  it('the CLI: one action planned at once, confirmed with what it gives', () => {
    const { state, effects } = run(
      [
        {
          type: 'planned',
          action: RESTART,
          commands: ['systemctl restart elasticsearch'],
          summary: 'restart',
          need: { kind: 'type', expected: 'n1' },
        },
        { type: 'confirm', confirmation: { by: 'yes-flag', text: 'n1' } },
      ],
      RESTART,
    );
    expect(effects).toEqual([
      { type: 'plan', action: RESTART },
      { type: 'run', action: RESTART, confirmation: { by: 'yes-flag', text: 'n1' } },
    ]);
    expect(state.phase).toBe('running');
  });

  it('the console: menu, a wrong name does nothing, the right one runs; Esc goes back to the menu', () => {
    const asked: EngineWizardEvent = {
      type: 'planned',
      action: { kind: 'service', verb: 'stop' },
      commands: ['c'],
      summary: 's',
      need: { kind: 'type', expected: 'n1' },
    };
    const typed = (t: string): EngineWizardEvent[] => [...t].map((ch) => ({ type: 'line', edit: { type: 'insert', text: ch } }));
    let r = run([loaded, { type: 'choose', action: { kind: 'service', verb: 'stop' } }, asked, ...typed('n2'), { type: 'confirm' }]);
    expect(r.state.phase).toBe('asking');
    expect(r.effects.filter((e) => e.type === 'run')).toEqual([]);
    r = run([loaded, { type: 'choose', action: { kind: 'service', verb: 'stop' } }, asked, ...typed('n1'), { type: 'confirm' }]);
    expect(r.effects.at(-1)).toEqual({ type: 'run', action: { kind: 'service', verb: 'stop' }, confirmation: { by: 'typed', text: 'n1' } });
    r = run([loaded, { type: 'choose', action: { kind: 'service', verb: 'stop' } }, asked, { type: 'cancel' }]);
    expect(r.state.phase).toBe('menu');
  });

  it('Esc closes while the engine is read (the menu not there yet), never while a command runs', () => {
    const m = engineMachine();
    const loading = m.init().state;
    expect(engineClosesOnEsc(loading)).toBe(true);
    expect(m.step(loading, { type: 'cancel' }).state.phase).toBe('cancelled');
    const running = { ...loading, phase: 'running' as const };
    expect(engineClosesOnEsc(running)).toBe(false);
    expect(m.step(running, { type: 'cancel' }).state.phase).toBe('running');
  });

  it('install asks for the zip, then offers the restart once the change is verified (and only then)', () => {
    const install = { kind: 'plugin' as const, verb: 'install' as const };
    const base: EngineWizardEvent[] = [
      loaded,
      { type: 'choose', action: install },
      { type: 'line', edit: { type: 'insert', text: '/p.zip' } },
      { type: 'submit' },
    ];
    let r = run(base);
    expect(r.effects.at(-1)).toEqual({ type: 'plan', action: { ...install, arg: '/p.zip' } });
    const done = (restartNeeded: boolean): EngineWizardEvent => ({
      type: 'finished',
      result: { ok: restartNeeded, lines: [], restartNeeded },
    });
    r = run([...base, done(true), { type: 'choose', action: RESTART }]);
    expect(r.effects.at(-1)).toEqual({ type: 'plan', action: RESTART });
    r = run([...base, done(false), { type: 'choose', action: RESTART }]);
    expect(r.state.phase).toBe('done');
  });
});
