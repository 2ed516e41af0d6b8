import fs from 'node:fs';
import path from 'node:path';
import { corruptShard, untilAllocationGaveUp } from './corrupt.mjs';
import { startNode } from './lib/es-node.mjs';
import { es } from './demo-data.mjs';
let node = await startNode({ name: 'snap5-scratch', anyStatus: true });
console.log('up', node.url, node.baseDir);
await es(node.url, 'PUT', '/_snapshot/nightly', { type: 'fs', settings: { location: path.join(node.repoDir, 'nightly') } });
const INDEX = 'service_v9_broken';
const made = await corruptShard(node, INDEX, { beforeStop: async () => {
  console.log(JSON.stringify(await es(node.url, 'PUT', '/_snapshot/nightly/before-corruption?wait_for_completion=true', { indices: INDEX, include_global_state: false })).slice(0, 200));
}});
node = made.node;
await untilAllocationGaveUp(node.url, INDEX);
console.log('READY', node.url, node.baseDir, made.folder);
fs.writeFileSync('/tmp/snap5/node.json', JSON.stringify({ url: node.url, baseDir: node.baseDir, folder: made.folder }));
await new Promise(() => {});
