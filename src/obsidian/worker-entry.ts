/**
 * The entry of the index worker's bundle (esbuild.config.mjs builds it first and inlines it into
 * main.js; worker-host.ts starts it from a Blob URL): the worker's globals wired to
 * {@link serveIndexBuild}.
 */
import { serveIndexBuild } from './worker-build';
import type { FromIndexWorker, ToIndexWorker } from './worker-protocol';

/** The worker's global scope, as much of it as is used (the DOM typings describe a window). */
interface WorkerScope {
	onmessage: ((event: { data: ToIndexWorker }) => void) | null;
	postMessage(message: FromIndexWorker, transfer?: ArrayBuffer[]): void;
}

const scope = self as unknown as WorkerScope;
const handle = serveIndexBuild((message, transfer) => scope.postMessage(message, transfer ?? []));
scope.onmessage = (event) => handle(event.data);
