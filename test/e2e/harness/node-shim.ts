/**
 * Stands in for `node:fs` and `node:path` in the browser bundle: the fake app imports them for
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
/** Not available in the browser. */
export const statSync = unavailable;
/** Not available in the browser. */
export const join = unavailable;
