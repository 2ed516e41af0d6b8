// debug (used by the Elasticsearch client) tries require('supports-color') for DEBUG output
// colours; it is not installed, and inside a single executable that attempt prints a warning.
module.exports = false;
