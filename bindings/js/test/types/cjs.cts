// Compiled (not run) by test.sh: the CommonJS entries' types as a TypeScript user sees them.
import v4a = require("v4a");
import compat = require("v4a/compat");

v4a.initSync();
const text: string = v4a.apply("a\n", "@@\n-a\n+b\n").text;
const seed: string = compat.default.apply("a", "@@\n-a\n+b").text;
const err: typeof v4a.V4AError = compat.V4AError;
void text, seed, err;
