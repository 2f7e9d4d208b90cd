/**
 * A full collection on demand for the two long-lived servers (the MCP server, the CLI's background
 * server). What collects between phases — the snapshot's save (node/snapshot/open-cached.ts), the
 * trigram build's `GarbageBound`, the server's collection between calls — asks `fullCollection`
 * (node/full-collection.ts), which looks for
 * `globalThis.gc`, which Node defines only with `--expose-gc`; an MCP client starts `vault-query
 * mcp` with no Node flags. So each server makes it at its start: the flag set at run time, and the
 * `gc` of a fresh context (a collection is the whole process's, whichever context asks for it).
 * Calls run in a process of their own keep V8's own collections: a forced one costs them time.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Defines `globalThis.gc` (a full collection) when the process lacks it; whether it is defined now. */
export function exposeCollection(): boolean {
	const host = globalThis as { gc?: () => void };
	if (typeof host.gc === 'function') return true;
	try {
		setFlagsFromString('--expose-gc');
		const gc = runInNewContext('gc') as unknown;
		if (typeof gc === 'function') host.gc = gc as () => void;
	} catch {
		// A runtime without the flag: V8's own collections only, as before.
	}
	return typeof host.gc === 'function';
}
