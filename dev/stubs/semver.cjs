// conf (src/config/profiles.ts) loads semver at import but calls it only to run config migrations,
// which shardeck does not give it: the bundles get this instead (its ~80 regular expressions are
// built at load, ~5-40 ms of start-up). Giving conf `migrations` would need the real module back
// (dev/lib/bundle-aliases.mjs).
const none = () => {
  throw new Error('this build of shardeck has no semver: conf was given migrations (see dev/lib/bundle-aliases.mjs)');
};
module.exports = new Proxy({}, { get: (_, key) => (key === '__esModule' ? false : none) });
