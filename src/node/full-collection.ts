/**
 * The one place that asks V8 for a full collection. Node defines `globalThis.gc` only with
 * `--expose-gc`; both servers define it at their start (warm/collect.ts), calls run in a process
 * of their own do not, and then every caller below keeps V8's own collections.
 */

/** A full collection of the whole process, or undefined where the process cannot ask for one. */
export function fullCollection(): (() => void) | undefined {
	return (globalThis as { gc?: () => void }).gc;
}
