// The hostile names fixture through the share protocol (domain/share.ts): a leader's state holding
// them crosses as one line per message (a name's line break cannot split a message), arrives with
// the exact names, and a follower's note or proposal about a hostile index is taken as exactly
// that index: inert data, never a second message or another row.
import { describe, expect, it } from 'vitest';
import { LineSplitter, parseFollowerMessage, sharedState, type LeaderMessage } from '../../src/domain/share';
import { HOSTILE } from '../fixtures/hostile/names';

const NAMES = HOSTILE.map((h) => h.name);

const state = () =>
  sharedState({
    snapshots: { indices: { failures: 0, data: NAMES.map((name) => ({ name, health: 'green' })) } },
    intervalMs: 1000,
    paused: false,
    connection: { url: 'http://n:9200', profile: NAMES[4], insecure: false, readOnly: false },
    platform: { state: 'signed-out' },
    templateVersion: 'v9',
    timeline: NAMES.map((n, i) => ({ time: `2026-11-25T10:00:0${i % 10}Z`, kind: 'note', text: n }) as never),
  });

describe('hostile names across a shared console', () => {
  it("the leader's state crosses in one line and arrives with the exact names", () => {
    const line = JSON.stringify({ t: 'state', state: state() } satisfies LeaderMessage) + '\n';
    const split = new LineSplitter();
    // Byte by byte, as a slow socket delivers it.
    const lines = [...line].flatMap((ch) => split.push(ch));
    expect(lines).toHaveLength(1);
    const got = JSON.parse(lines[0]) as { state: ReturnType<typeof state> };
    expect((got.state.snapshots!.indices.data as { name: string }[]).map((r) => r.name)).toEqual(NAMES);
    expect(got.state.connection!.profile).toBe(NAMES[4]);
    expect(got.state.timeline!.map((e) => (e as { text: string }).text)).toEqual(NAMES);
  });

  it("a follower's note and proposal about a hostile index are one message each, with the exact name", () => {
    const split = new LineSplitter(8 * 1024);
    for (const name of NAMES) {
      const wire =
        JSON.stringify({ t: 'note', text: name }) +
        '\n' +
        JSON.stringify({ t: 'propose', wizard: 'replicas', selection: { indices: { index: name } } }) +
        '\n';
      const lines = split.push(wire);
      expect(lines, JSON.stringify(name)).toHaveLength(2);
      expect(parseFollowerMessage(lines[0])).toEqual({ t: 'note', text: name });
      expect(parseFollowerMessage(lines[1])).toEqual({ t: 'propose', wizard: 'replicas', selection: { indices: { index: name } } });
    }
  });

  it('a raw line break a follower puts in a message breaks only that message (a protocol error, not a second message)', () => {
    const lines = new LineSplitter().push(`{"t":"note","text":"a\n{"t":"approve","id":"x"}\n`);
    // The first half is not JSON and is refused; the second is a well-formed line of its own that the
    // follower could have sent anyway: no field of one message can smuggle another.
    expect(parseFollowerMessage(lines[0])).toBeNull();
  });
});
