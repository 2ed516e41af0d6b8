// The demo's snapshot (npm run demo): kept apart from dev/demo-data.mjs, whose loadDemoData the tests share.
import path from 'node:path';

/**
 * One fs repository in the node's path.repo (dev/lib/es-node.mjs gives every node one) and one
 * snapshot of the demo data, so the Snapshots pane and `shardeck snapshots` show something at once.
 * Idempotent; a node started before nodes had a path.repo is said, not fatal.
 */
export async function demoSnapshot(node, say) {
  const call = async (method, p, body) => {
    const headers = { 'content-type': 'application/json' };
    const res = await fetch(node.url + p, { method, headers, body: body && JSON.stringify(body) });
    return { status: res.status, body: await res.json() };
  };
  const repo = await call('PUT', '/_snapshot/demo', { type: 'fs', settings: { location: path.join(node.baseDir, 'repo', 'demo') } });
  if (repo.status !== 200)
    return say(
      `no demo snapshot repository (${repo.body?.error?.caused_by?.reason ?? repo.body?.error?.reason ?? repo.status}): npm run es:stop, then run the demo again`,
    );
  const had = await call('GET', '/_snapshot/demo/demo-first');
  if (had.status === 200) return;
  const snap = await call('PUT', '/_snapshot/demo/demo-first?wait_for_completion=true', {
    include_global_state: false,
    // A red index of the demo (a scenario) must not cost the demo its snapshot: PARTIAL then.
    partial: true,
  });
  say(
    snap.status === 200
      ? `snapshot demo/demo-first taken (${snap.body.snapshot?.state})`
      : `the demo snapshot failed: ${snap.body?.error?.reason ?? `HTTP ${snap.status}`}`,
  );
}
