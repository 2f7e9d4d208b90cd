/**
 * The plugin's index worker in Node: the bundle esbuild.config.mjs inlines into main.js (built the
 * same way, scripts/index-worker-bundle.mjs), run in a `node:worker_threads` thread behind a Web
 * Worker's shape — so the plugin's tests exercise the worker path itself, on another thread.
 */
import { availableParallelism } from 'node:os';
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

/**
 * With VAULT_QUERY_WORKER_PROFILE naming a file, the worker profiles its CPU from its start to its
 * last message (\`done\` or \`failed\`), written to that file before the message goes: a terminated
 * thread writes no \`--cpu-prof\` profile.
 */
const PROFILE_PRELUDE = `
{
	const file = process.env.VAULT_QUERY_WORKER_PROFILE;
	if (file) {
		const { Session } = require('node:inspector');
		const session = new Session();
		session.connect();
		session.post('Profiler.enable');
		session.post('Profiler.setSamplingInterval', { interval: 1000 });
		session.post('Profiler.start');
		const post = globalThis.postMessage;
		globalThis.postMessage = (message, transfer) => {
			if (message.type !== 'done' && message.type !== 'failed') return post(message, transfer);
			session.post('Profiler.stop', (error, result) => {
				if (!error) require('node:fs').writeFileSync(file, JSON.stringify(result.profile));
				post(message, transfer);
			});
		};
	}
}
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
		this.thread = new Worker(PRELUDE + PROFILE_PRELUDE + code, { eval: true });
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
	indexWorkers.cores = availableParallelism(); // Node 20 has no `navigator.hardwareConcurrency`
	return () => Object.assign(indexWorkers, before);
}
