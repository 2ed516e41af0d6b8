// See dev/stubs/ajv.cjs: conf calls this only when it validates a schema.
module.exports = { default() {} };
