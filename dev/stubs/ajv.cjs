// conf loads Ajv (and its formats) at import but uses them only for a config schema, which
// shardeck does not give (src/config/profiles.ts): the bundle gets this instead (~270 KB less to
// load at start-up). Giving conf a schema would need the real modules back (dev/lib/bundle-aliases.mjs).
class Ajv2020 {
  constructor() {
    throw new Error('this build of shardeck has no JSON-schema validator: conf was given a schema (see dev/lib/bundle-aliases.mjs)');
  }
}
module.exports = { Ajv2020, default: Ajv2020 };
