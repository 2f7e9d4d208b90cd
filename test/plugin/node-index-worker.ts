/**
 * The plugin's index worker in Node: the bundle esbuild.config.mjs inlines into main.js (built the
 * same way, scripts/index-worker-bundle.mjs), run in a `node:worker_threads` thread behind a Web
 * Worker's shape — so the plugin's tests exercise the worker path itself, on another thread.
 */
import { Worker } from 'node:worker_threads';
import { indexWorkers, type IndexWorker } from '../../src/obsidian/worker-host';
import type { FromIndexWorker, ToIndexWorker } from '../../src/obsidian/worker-protocol';
import { indexWorkerCode } from '../../scripts/index-worker-bundle.mjs';

/** A worker thread's globals as a Web Worker's: `self`, `onmessage` and `postMessage`. */
const PRELUDE = `
const { parentPort } = require('node:worker_threads');
globalThis.self = globalThis;
globalThis.postMessage = (message, transfer) => parentPort.postMessage(message, transfer);
parentPort.on('message', (data) => globalThis.onmessage?.({ data }));
`;

/** A Node worker thread running `code`, shaped as a Web Worker. */
export class NodeIndexWorker implements IndexWorker {
	onmessage: ((event: { data: FromIndexWorker }) => void) | null = null;
	onerror: ((event: unknown) => void) | null = null;
	private readonly thread: Worker;
	/** Workers started so far (the tests count them). */
	static started = 0;

	constructor(code: string) {
		NodeIndexWorker.started++;
		this.thread = new Worker(PRELUDE + code, { eval: true });
		this.thread.on('message', (data: FromIndexWorker) => this.onmessage?.({ data }));
		this.thread.on('error', (error) => this.onerror?.(error));
	}

	postMessage(message: ToIndexWorker, transfer?: Transferable[]): void {
		this.thread.postMessage(message, transfer as ArrayBuffer[] | undefined);
	}

	terminate(): void {
		void this.thread.terminate();
	}
}

let code: Promise<string> | null = null;

/** Plugins started from now on build their index in a Node worker thread; returns how to undo it. */
export async function useNodeIndexWorker(): Promise<() => void> {
	const before = { ...indexWorkers };
	indexWorkers.code = await (code ??= indexWorkerCode());
	indexWorkers.create = (source) => new NodeIndexWorker(source);
	return () => Object.assign(indexWorkers, before);
}
