// The console's one list of things started and their stops (domain/host/stop-list.ts).
import { describe, expect, it } from 'vitest';
import { StopList, type StopFailure } from '../../src/domain/host/stop-list';

describe('StopList', () => {
  it('stops in reverse order of start', () => {
    const stops = new StopList();
    const order: string[] = [];
    for (const name of ['poller', 'share', 'terminal']) stops.add(name, () => order.push(name));
    expect(stops.running).toEqual(['poller', 'share', 'terminal']);
    stops.stopAll();
    expect(order).toEqual(['terminal', 'share', 'poller']);
    expect(stops.running).toEqual([]);
  });

  it('a stop that throws does not skip the others, and is reported by name', () => {
    const stops = new StopList();
    const order: string[] = [];
    stops.add('poller', () => order.push('poller'));
    stops.add('share', () => {
      throw new Error('socket busy');
    });
    stops.add('terminal', () => order.push('terminal'));
    const seen: StopFailure[] = [];
    const failures = stops.stopAll((f) => seen.push(f));
    expect(order).toEqual(['terminal', 'poller']);
    expect(failures.map((f) => [f.name, (f.error as Error).message])).toEqual([['share', 'socket busy']]);
    expect(seen).toEqual(failures);
  });

  it('runs each stop once: a second way out (a signal during q) and a stop that calls stopAll find nothing left', () => {
    const stops = new StopList();
    const calls: string[] = [];
    stops.add('poller', () => calls.push('poller'));
    stops.add('signal handlers', () => {
      calls.push('signal handlers');
      stops.stopAll(); // as the handler would, re-entered
    });
    stops.stopAll();
    stops.stopAll();
    expect(calls).toEqual(['signal handlers', 'poller']);
  });

  it('does not wait for a stop that returns a promise, and reports its rejection', async () => {
    const stops = new StopList();
    const order: string[] = [];
    let failed: (f: StopFailure) => void = () => {};
    const reported = new Promise<StopFailure>((r) => (failed = r));
    stops.add('poller', () => order.push('poller'));
    stops.add('share', () => Promise.reject(new Error('close failed')));
    expect(stops.stopAll(failed)).toEqual([]);
    expect(order).toEqual(['poller']);
    const f = await reported;
    expect([f.name, (f.error as Error).message]).toEqual(['share', 'close failed']);
  });

  it('a stop added after stopAll is kept for the next one', () => {
    const stops = new StopList();
    stops.stopAll();
    const order: string[] = [];
    stops.add('share', () => order.push('share'));
    stops.stopAll();
    expect(order).toEqual(['share']);
  });
});
