/**
 * An index worker whose handler (serveIndexBuild) runs on the test's own thread, each message in a
 * task of its own both ways: it shares this thread's IndexedDB (fake-indexeddb), as a Web Worker
 * shares the page's — which a Node worker thread cannot.
 */
import { setImmediate } from 'node:timers';
import { afterEach, beforeEach, vi } from 'vitest';
import { serveIndexBuild } from '../../src/obsidian/worker-build';
import { indexWorkers, type IndexWorker } from '../../src/obsidian/worker-host';
import type { FromIndexWorker } from '../../src/obsidian/worker-protocol';
import { unloadLoadedPlugins } from './harness';

/** What the in-thread workers posted to the main thread, in order (cleared by {@link useInThreadWorkers}). */
export const fromWorkers: FromIndexWorker['type'][] = [];

/** A worker running serveIndexBuild on this thread. */
export function inThreadWorker(): IndexWorker {
	let stopped = false;
	const worker: IndexWorker = {
		onmessage: null,
		onerror: null,
		postMessage: (message) => setImmediate(() => stopped || handle(message)),
		terminate: () => (stopped = true),
	};
	const handle = serveIndexBuild((message) =>
		setImmediate(() => {
			if (stopped) return;
			fromWorkers.push(message.type);
			worker.onmessage?.({ data: message });
		}),
	);
	return worker;
}

/** Plugins started from now on use in-thread workers (no counting worker); returns how to undo it. */
export function useInThreadWorkers(): () => void {
	const before = { ...indexWorkers };
	Object.assign(indexWorkers, { code: 'in-thread', create: inThreadWorker, countingFrom: Infinity });
	fromWorkers.length = 0;
	return () => Object.assign(indexWorkers, before);
}

/** Every test of the file calling this starts its plugins with in-thread workers; after each, plugins unloaded, mocks restored, notices gone. */
export function inThreadWorkersInEachTest(): void {
	beforeEach(() => {
		const undo = useInThreadWorkers();
		return () => {
			unloadLoadedPlugins();
			undo();
		};
	});
	afterEach(() => {
		vi.restoreAllMocks();
		document.body.empty();
	});
}
