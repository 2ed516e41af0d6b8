#!/usr/bin/env node
// node dev/record-disk-series.mjs URL OUT.json [SECONDS]: records a real disk-growth series for the
// doctor's forecast tests: writes documents into a scratch index while sampling _cat/allocation
// (the read the console polls) every 5 s, then deletes the index. The disk is the host's, so the
// series carries whatever else the machine writes meanwhile, as a real one would.
import fs from 'node:fs';

const [url, out, seconds = '90'] = process.argv.slice(2);
if (!url || !out) throw new Error('usage: node dev/record-disk-series.mjs URL OUT.json [SECONDS]');
const j = async (method, p, body, type = 'application/json') => {
  const r = await fetch(url + p, { method, headers: { 'content-type': type }, body });
  return r.json();
};
await j('PUT', '/disk_series', JSON.stringify({ settings: { number_of_shards: 1, number_of_replicas: 0, refresh_interval: '1s' } }));
const blob = 'x'.repeat(4096);
const samples = [];
const end = Date.now() + Number(seconds) * 1000;
let writing = true;
(async () => {
  let i = 0;
  while (writing) {
    const lines = [];
    for (let k = 0; k < 2000; k++) lines.push('{"index":{}}', JSON.stringify({ n: i++, blob: blob + i }));
    await j('POST', '/disk_series/_bulk', lines.join('\n') + '\n', 'application/x-ndjson');
  }
})();
while (Date.now() < end) {
  const rows = await j('GET', '/_cat/allocation?format=json&bytes=b&h=node,disk.used,disk.avail,disk.total');
  for (const r of rows)
    if (r.node)
      samples.push({
        t: Date.now(),
        node: r.node,
        usedBytes: Number(r['disk.used']),
        availBytes: Number(r['disk.avail']),
        totalBytes: Number(r['disk.total']),
      });
  await new Promise((res) => setTimeout(res, 5000));
}
writing = false;
await j('DELETE', '/disk_series');
fs.writeFileSync(
  out,
  JSON.stringify({ recordedWith: 'dev/record-disk-series.mjs', from: '_cat/allocation?bytes=b', samples }, null, 1) + '\n',
);
console.log(`${samples.length} samples`);
