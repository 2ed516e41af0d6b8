// The Elasticsearch client's helpers load Apache Arrow (~620 KB) for ES|QL answers in Arrow
// format, which shardeck never asks for: the bundle gets this empty module instead (faster start).
module.exports = {};
