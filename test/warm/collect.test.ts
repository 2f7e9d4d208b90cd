/**
 * The servers' full collection: a process started without --expose-gc (an MCP server, as a client
 * starts it; this test's own) gets a `globalThis.gc` that really collects, for the collections
 * the start's phases and the trigram build's `GarbageBound` ask for.
 */
import { setImmediate } from 'node:timers';
import { describe, expect, it, onTestFinished } from 'vitest';
import { exposeCollection } from '../../src/warm/collect';

describe('a full collection without --expose-gc', () => {
	it('is defined where it was not, and frees what nothing holds', async () => {
		const host = globalThis as { gc?: () => void };
		const before = host.gc;
		onTestFinished(() => {
			if (before === undefined) delete host.gc;
			else host.gc = before;
		});
		delete host.gc;
		expect(exposeCollection()).toBe(true);
		expect(typeof host.gc).toBe('function');
		const held = [{ words: Array.from({ length: 1000 }, (_, i) => `w${i}`) }];
		const weak = new WeakRef(held.pop()!);
		await new Promise((next) => setImmediate(next)); // a weak target lives to the end of the task that made it
		host.gc!();
		expect(weak.deref()).toBeUndefined();
		const defined = host.gc;
		expect(exposeCollection()).toBe(true);
		expect(host.gc).toBe(defined); // a second start keeps the one defined
	});
});
