import { describe, expect, it } from 'vitest';
import {
  approvalRefusal,
  approvalSatisfied,
  LineSplitter,
  parseFollowerMessage,
  RateBucket,
  sharedState,
  stateDiff,
  tokenMatches,
} from '../../src/domain/share';

const base = () => ({
  snapshots: { health: { failures: 0, data: { status: 'yellow' } }, indices: { failures: 0 } },
  intervalMs: 1000,
  paused: false,
  // Fields a store could grow that must never cross: only the whitelist does.
  connection: { url: 'https://n:9200', profile: 'p', user: 'elastic', insecure: false, readOnly: false, password: 'hunter2' } as never,
  platform: { state: 'signed-in', user: 'alice', tenant: 'acme', message: 'token rt_secret expired', accessToken: 'at_secret' } as never,
  templateVersion: 'v9',
});

describe("what crosses a shared console's socket", () => {
  it('is a whitelist of the console state: no field it does not name', () => {
    const text = JSON.stringify(sharedState(base()));
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('rt_secret');
    expect(text).not.toContain('at_secret');
    expect(JSON.parse(text).connection).toEqual({ url: 'https://n:9200', profile: 'p', user: 'elastic', insecure: false, readOnly: false });
  });

  it('sends only what changed, by snapshot, and nothing while idle', () => {
    const s = base();
    const first = sharedState(s);
    expect(stateDiff(undefined, first)).toBe(first);
    expect(stateDiff(first, sharedState(s))).toBeNull();
    const health = { failures: 0, data: { status: 'green' } };
    const next = sharedState({ ...s, snapshots: { ...s.snapshots, health } });
    expect(stateDiff(first, next)).toEqual({ snapshots: { health } });
  });

  it("the leader's doctor run crosses once when it starts and once when it ends (by reference)", () => {
    const s = base();
    const first = sharedState(s);
    expect(first.doctor).toBeUndefined();
    const running = { inFlight: true };
    const withRun = sharedState({ ...s, doctor: running });
    expect(stateDiff(first, withRun)).toEqual({ doctor: running });
    expect(stateDiff(withRun, sharedState({ ...s, doctor: running }))).toBeNull();
    const done = { inFlight: false, fetchedAt: 1, report: { findings: [{ id: 'heap.xms-xmx' }] } as never };
    expect(stateDiff(withRun, sharedState({ ...s, doctor: done }))).toEqual({ doctor: done });
  });

  it('splits lines across chunks and refuses an endless line', () => {
    const l = new LineSplitter(10);
    expect(l.push('{"a":1}\n{"b"')).toEqual(['{"a":1}']);
    expect(l.push(':2}\n')).toEqual(['{"b":2}']);
    expect(() => l.push('x'.repeat(11))).toThrow(/longer than 10/);
  });

  it('takes from a follower only the messages a follower may send; approval needs the same typed text', () => {
    expect(parseFollowerMessage('{"t":"state","state":{}}')).toBeNull();
    expect(parseFollowerMessage('nope')).toBeNull();
    expect(parseFollowerMessage('{"t":"note","text":"hi"}')).toEqual({ t: 'note', text: 'hi' });
    expect(parseFollowerMessage('{"t":"note","text":7}')).toBeNull();
    expect(parseFollowerMessage('null')).toBeNull();
    expect(parseFollowerMessage('"hello"')).toBeNull();
    expect(parseFollowerMessage('{"t":"approve","id":"a1","text":"logs"}')).toEqual({ t: 'approve', id: 'a1', text: 'logs' });
    expect(parseFollowerMessage('{"t":"approve","id":"a1","text":1}')).toEqual({ t: 'approve', id: 'a1' });
    expect(parseFollowerMessage('{"t":"approve","id":1}')).toBeNull();
    expect(parseFollowerMessage('{"t":"decline","id":"a1","x":1}')).toEqual({ t: 'decline', id: 'a1' });
    expect(parseFollowerMessage('{"t":"decline"}')).toBeNull();
    expect(approvalSatisfied({ kind: 'type', expected: 'logs' }, 'log')).toBe(false);
    expect(approvalSatisfied({ kind: 'type', expected: 'logs' }, 'logs')).toBe(true);
    expect(approvalSatisfied({ kind: 'key' }, undefined)).toBe(true);
  });

  it('a line over the cap is refused even when it arrives whole in one chunk, counted in bytes', () => {
    expect(() => new LineSplitter(10).push('x'.repeat(11) + '\n')).toThrow(/longer than 10/);
    // 4 characters, 12 bytes of UTF-8.
    expect(() => new LineSplitter(10).push('€€€€\n')).toThrow(/longer than 10/);
    expect(new LineSplitter(10).push('éé\n')).toEqual(['éé']);
  });

  it('a join token of any length or characters is compared without throwing', () => {
    expect(tokenMatches('abcDEF123_-xyz', 'abcDEF123_-xyz')).toBe(true);
    // Multibyte: the same number of characters, more bytes (this threw a RangeError in timingSafeEqual).
    expect(tokenMatches('é'.repeat(16), 'abcdefghijklmnop')).toBe(false);
    expect(tokenMatches('€'.repeat(64), 'abcdefghijklmnop')).toBe(false);
    expect(tokenMatches('x'.repeat(100_000), 'abcdefghijklmnop')).toBe(false);
    expect(tokenMatches('', 'abcdefghijklmnop')).toBe(false);
    expect(tokenMatches(undefined, 'abcdefghijklmnop')).toBe(false);
    expect(tokenMatches({ length: 16 }, 'abcdefghijklmnop')).toBe(false);
  });

  it('a rate bucket takes a burst, then refills at its rate', () => {
    const b = new RateBucket(3, 2);
    expect([b.take(0), b.take(0), b.take(0), b.take(0)]).toEqual([true, true, true, false]);
    expect(b.take(400)).toBe(false); // 0.8 of a token
    expect(b.take(500)).toBe(true); // 1 token after 0.5 s at 2/s
    expect(b.take(10_000)).toBe(true);
    expect([b.take(10_000), b.take(10_000), b.take(10_000)]).toEqual([true, true, false]); // never more than the burst
  });

  it("four eyes: the leader's own user, the proposer, or a follower of the leader's uid cannot approve", () => {
    const leader = { uid: 0, user: 'root', pid: 4242 };
    expect(approvalRefusal({ user: 'root', uid: 0 }, leader, 'root')).toMatch(/leader's own user .* second person/);
    expect(approvalRefusal({ user: 'alias-of-root', uid: 0 }, leader, 'root')).toMatch(/uid 0/);
    expect(approvalRefusal({ user: 'bob', uid: 1001 }, leader, 'bob')).toMatch(/bob proposed this change/);
    expect(approvalRefusal({ user: 'bob', uid: 1001, pid: 77 }, leader, 'root')).toBeNull();
  });

  it("issue 40 N7: a follower of unknown identity (joined with the token) or the leader's own process never approves", () => {
    const leader = { uid: 0, user: 'root', pid: 4242 };
    // The token is on the leader's screen: whoever joined with it may be the leader's own user.
    expect(approvalRefusal({ user: 'unknown' }, leader, 'root')).toMatch(
      /unknown joined with the join token, so the leader cannot tell who it is .*four eyes needs a second person the leader can identify by uid/,
    );
    expect(approvalRefusal({ user: 'unknown' }, leader, 'unknown')).toMatch(/join token/);
    // The leader's own pid, whatever uid it was read with.
    expect(approvalRefusal({ user: 'bob', uid: 1001, pid: 4242 }, leader, 'root')).toMatch(/leader's own process \(pid 4242\)/);
  });

  it("the hello carries the follower's token only as a string (the leader compares it with its own)", () => {
    expect(parseFollowerMessage('{"t":"hello","token":"s3cr3t"}')).toEqual({ t: 'hello', token: 's3cr3t' });
    expect(parseFollowerMessage('{"t":"hello","token":""}')).toEqual({ t: 'hello', token: '' });
    expect(parseFollowerMessage('{"t":"hello"}')).toEqual({ t: 'hello' });
    expect(parseFollowerMessage('{"t":"hello","token":123}')).toEqual({ t: 'hello' });
    expect(parseFollowerMessage('{"t":"hello","token":{"toString":"x"}}')).toEqual({ t: 'hello' });
  });

  it('a proposal keeps only known fields of the right type, and a wizard id of lowercase letters', () => {
    const line = (o: unknown) => JSON.stringify({ t: 'propose', ...(o as object) });
    expect(parseFollowerMessage(line({ wizard: 'replicas', selection: { indices: { index: 'a', extra: 1 }, other: {} } }))).toEqual({
      t: 'propose',
      wizard: 'replicas',
      selection: { indices: { index: 'a' } },
    });
    expect(
      parseFollowerMessage(line({ wizard: 'recovery', selection: { shards: { index: 'a', shard: 0, primary: true, node: 'n1' } } })),
    ).toEqual({
      t: 'propose',
      wizard: 'recovery',
      selection: { shards: { index: 'a', shard: 0, primary: true, node: 'n1' } },
    });
    expect(
      parseFollowerMessage(line({ wizard: 'recovery', selection: { shards: { index: 'a', shard: 0, primary: false, node: 5 } } })),
    ).toMatchObject({
      selection: { shards: { node: null } },
    });
    for (const bad of [
      { index: 'a', shard: '0', primary: true },
      { index: 'a', shard: 0, primary: 'yes' },
      { index: 1, shard: 0, primary: true },
    ])
      expect(parseFollowerMessage(line({ wizard: 'recovery', selection: { shards: bad } }))).toEqual({
        t: 'propose',
        wizard: 'recovery',
        selection: {},
      });
    expect(parseFollowerMessage(line({ wizard: 'drain', selection: { nodes: { node: 'n2' }, indices: { index: 3 } } }))).toEqual({
      t: 'propose',
      wizard: 'drain',
      selection: { nodes: { node: 'n2' } },
    });
    expect(parseFollowerMessage(line({ wizard: 'drain' }))).toEqual({ t: 'propose', wizard: 'drain', selection: {} });
    expect(parseFollowerMessage(line({ wizard: 'drain', selection: { nodes: { node: 1 } } }))).toEqual({
      t: 'propose',
      wizard: 'drain',
      selection: {},
    });
    for (const wizard of ['Replicas', 'rm -rf', '../x', '', 'a1', 7])
      expect(parseFollowerMessage(line({ wizard, selection: {} })), String(wizard)).toBeNull();
  });
});
