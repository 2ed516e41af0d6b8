// What CheckIndex and elasticsearch-shard printed on a real node.
import { describe, expect, it } from 'vitest';
import { parseCheckIndex, parseShardToolReroute } from '../../../src/domain/corruption/tool-output';
import { fixture } from './fixtures';

describe('what the tools print', () => {
  it('CheckIndex: one broken segment of two, the documents it held, nothing written yet', () => {
    expect(parseCheckIndex(fixture('checkindex-readonly.txt'))).toEqual({
      totalDocs: 2000,
      segments: [
        { name: '_0', maxDoc: 1, broken: true },
        { name: '_1', maxDoc: 1999, broken: false },
      ],
      brokenSegments: 1,
      lostDocs: 1,
      wroteNewSegments: false,
    });
  });

  it('elasticsearch-shard: its first report counts, it wrote a new commit, and its reroute is read back', () => {
    const text = fixture('elasticsearch-shard-remove-corrupted-data.txt');
    expect(parseCheckIndex(text)).toMatchObject({ totalDocs: 2000, brokenSegments: 1, lostDocs: 1, wroteNewSegments: true });
    expect(parseCheckIndex(text)!.segments).toHaveLength(2);
    expect(parseShardToolReroute(text)).toEqual({ index: 'corrupt-exp', shard: 0, node: '8vC2GUS9R5OmS5oK8c0w2Q' });
  });

  it('a clean index, and output from a tool that failed before checking', () => {
    const clean =
      '0.00% total deletions; 5 documents; 0 deletions\n1 of 1: name=_0 maxDoc=5\n    test: open reader.........OK\n\nNo problems were detected with this index.\n';
    expect(parseCheckIndex(clean)).toMatchObject({
      totalDocs: 5,
      brokenSegments: 0,
      lostDocs: 0,
      segments: [{ name: '_0', broken: false }],
    });
    expect(parseCheckIndex('ERROR: could not read any segments file in directory\njava.nio.file.NoSuchFileException')).toBeNull();
    expect(parseShardToolReroute('no reroute here')).toBeNull();
  });
});

describe('what the tools print, plain values', () => {
  const seg = (n: number, of: number, name: string, maxDoc: number, failed = false) =>
    `${n} of ${of}: name=${name} maxDoc=${maxDoc}\n    test: open reader.........${failed ? 'FAILED\n' : 'OK\n'}`;

  it('counts of two digits and more: documents, deletions, segments, broken ones', () => {
    const text =
      '12.50% total deletions; 1234 documents; 56 deletions\n' +
      seg(10, 11, '_a', 700, true) +
      seg(11, 11, '_b', 534) +
      'WARNING: 12 broken segments (containing 345 documents) detected\n' +
      'Wrote new segments file "segments_5"\n';
    expect(parseCheckIndex(text)).toEqual({
      totalDocs: 1234,
      segments: [
        { name: '_a', maxDoc: 700, broken: true },
        { name: '_b', maxDoc: 534, broken: false },
      ],
      brokenSegments: 12,
      lostDocs: 345,
      wroteNewSegments: true,
    });
  });

  it('only a line that starts with the header is a segment, and only one that names its maxDoc', () => {
    const text =
      '0.00% total deletions; 5 documents; 0 deletions\n' +
      '1 of 2: name=_0 maxDoc=5\n    diagnostics = {note=2 of 2: name=_x maxDoc=9}\n' +
      '2 of 2: name=_1 (no count)\n' +
      'No problems were detected with this index.\n';
    expect(parseCheckIndex(text)!.segments).toEqual([{ name: '_0', maxDoc: 5, broken: false }]);
  });

  it('no verdict without the totals line at the start of a line, or without a clean or broken summary', () => {
    expect(parseCheckIndex('WARNING: 1 broken segments (containing 2 documents) detected\n')).toBeNull();
    expect(parseCheckIndex('0.00% total deletions; 5 documents; 0 deletions\n1 of 1: name=_0 maxDoc=5\n')).toBeNull();
    expect(
      parseCheckIndex('said: 0.00% total deletions; 5 documents; 0 deletions\nNo problems were detected with this index.\n'),
    ).toBeNull();
  });

  it('the reroute: at the very start of the output too; nothing for JSON that is cut, absent or of another shape', () => {
    const reroute = (cmd: unknown) => `POST /_cluster/reroute\n${JSON.stringify({ commands: [cmd] })}\n`;
    expect(parseShardToolReroute(reroute({ allocate_stale_primary: { index: 'i', shard: '2', node: 'N' } }))).toEqual({
      index: 'i',
      shard: 2,
      node: 'N',
    });
    expect(parseShardToolReroute('POST /_cluster/reroute and no body')).toBeNull();
    expect(parseShardToolReroute('POST /_cluster/reroute\n{"commands": [ {"allocate_stale_primary": {')).toBeNull();
    expect(parseShardToolReroute('POST /_cluster/reroute\n{"commands": oops}')).toBeNull();
    expect(parseShardToolReroute('POST /_cluster/reroute\n{}')).toBeNull();
    expect(parseShardToolReroute('POST /_cluster/reroute\n{"commands": []}')).toBeNull();
    expect(parseShardToolReroute(reroute({ move: { index: 'i' } }))).toBeNull();
    expect(parseShardToolReroute(reroute({ allocate_stale_primary: { index: 'i', shard: 0, node: 7 } }))).toBeNull();
    expect(parseShardToolReroute(reroute({ allocate_stale_primary: { shard: 0, node: 'N' } }))).toBeNull();
  });
});

describe('the reroute is the one after the POST line', () => {
  const body = JSON.stringify({ commands: [{ allocate_stale_primary: { index: 'i', shard: 0, node: 'N' } }] });
  it('none without the POST line, and none from JSON printed before it', () => {
    expect(parseShardToolReroute(`${body}\n`)).toBeNull();
    expect(parseShardToolReroute(`${body}\nPOST /_cluster/reroute and no body`)).toBeNull();
  });
});
