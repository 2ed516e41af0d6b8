// One function tells a block, a missing privilege and a conflict apart (issue 41 item 4); the
// reasons are the words a real 8.19 node wrote (curl against the harness's node).
import { describe, expect, it } from 'vitest';
import { blockSentence, blocksOfReason, refusalKind } from '../../src/domain/refusal';

const CLUSTER_RO_DELETE = 'index [x1] blocked by: [FORBIDDEN/13/cluster read-only / allow delete (api)];';
const INDEX_WRITE = 'index [x1] blocked by: [FORBIDDEN/8/index write (api)];';
const FLOOD =
  'index [logs] blocked by: [TOO_MANY_REQUESTS/12/disk usage exceeded flood-stage watermark, index has read-only-allow-delete block];';
const CLUSTER_RO = 'blocked by: [FORBIDDEN/6/cluster read-only (api)];';

describe('refusals told apart', () => {
  it('a cluster_block_exception is a block, whatever its status; a security exception a privilege; 409 a conflict', () => {
    expect(refusalKind(403, 'cluster_block_exception')).toBe('block');
    expect(refusalKind(429, 'cluster_block_exception')).toBe('block');
    expect(refusalKind(403, 'security_exception')).toBe('privilege');
    expect(refusalKind(409, 'version_conflict_engine_exception')).toBe('conflict');
    expect(refusalKind(400, 'resource_already_exists_exception')).toBe('conflict');
    expect(refusalKind(400, 'illegal_argument_exception')).toBe('other');
  });

  it('names the cluster-wide block and the exact request that lifts it', () => {
    const b = blocksOfReason(CLUSTER_RO_DELETE);
    expect(b).toEqual([
      {
        id: 13,
        level: 'cluster',
        setting: 'cluster.blocks.read_only_allow_delete',
        indices: [],
        description: 'cluster read-only / allow delete (api)',
      },
    ]);
    expect(blockSentence(b)).toBe(
      'refused by the cluster-wide block cluster.blocks.read_only_allow_delete (cluster read-only / allow delete (api)), not a missing privilege: lift it with PUT /_cluster/settings {"persistent":{"cluster.blocks.read_only_allow_delete":null}}',
    );
    expect(blockSentence(blocksOfReason(CLUSTER_RO))).toMatch(/cluster\.blocks\.read_only .*"cluster\.blocks\.read_only":null/);
  });

  it('names an index block with its index and lifts exactly it', () => {
    expect(blockSentence(blocksOfReason(INDEX_WRITE))).toBe(
      'refused by the index block on x1: index.blocks.write (index write (api)), not a missing privilege: lift it with PUT /x1/_settings {"index.blocks.write":null}',
    );
  });

  it('the flood-stage block points at the disk first, then the unblock', () => {
    expect(blockSentence(blocksOfReason(FLOOD))).toMatch(
      /index\.blocks\.read_only_allow_delete .*free disk below the high watermark .*PUT \/logs\/_settings \{"index\.blocks\.read_only_allow_delete":null\} \(shardeck unblock\)/,
    );
  });

  it('an unknown reason still says it is a block, not a privilege', () => {
    expect(blockSentence(blocksOfReason('something else'))).toMatch(/refused by a block of the cluster/);
  });
});
