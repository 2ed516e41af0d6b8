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
