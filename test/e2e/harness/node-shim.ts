/**
 * Stands in for `node:fs`, `node:fs/promises` and `node:path` in the browser bundle: the fake app imports them for
 * `FakeApp.fromFolder`, which the harness never calls (the vault arrives as JSON).
 */
function unavailable(): never {
	throw new Error('Node modules are not available in the browser harness');
}

/** Not available in the browser. */
export const existsSync = unavailable;
/** Not available in the browser. */
export const readdirSync = unavailable;
/** Not available in the browser. */
export const readFileSync = unavailable;
/** Not available in the browser (`node:fs/promises`: the fake vault's reads from disk, a folder's only). */
export const readFile = unavailable;
/** Not available in the browser. */
export const statSync = unavailable;
/** Not available in the browser. */
export const join = unavailable;
