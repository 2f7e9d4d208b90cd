// @vitest-environment happy-dom
/**
 * What crosses between the plugin's main thread and its index worker, counted: the build request
 * packs the note list and every note's stat (a string and transferred buffers, not an object a
 * note), the notes go in batches (each batch's bytes in one transferred buffer) with only the
 * metadata a build reads, the worker posts its progress every hundredth of the notes, and the
 * finished part comes back transferred where the worker cannot save it itself (a Node worker
 * thread has no IndexedDB).
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SEARCH_SETTINGS } from '../../src/core/search/settings';
import type { NoteFingerprint } from '../../src/core/snapshot/codec';
import { partPieces, PIECE_BYTES } from '../../src/obsidian/part-pieces';
import { progressPoster, serveIndexBuild } from '../../src/obsidian/worker-build';
import { BatchBuffers } from '../../src/obsidian/batch-buffers';
import { packNoteBatch, unpackNoteBatch } from '../../src/obsidian/note-batch';
import { indexWorkers, type IndexWorker } from '../../src/obsidian/worker-host';
import {
	packPaths,
	packStamps,
	PIECES_IN_FLIGHT,
	unpackPaths,
	unpackStamps,
	type FromIndexWorker,
	type PostedNote,
	type ToIndexWorker,
} from '../../src/obsidian/worker-protocol';
import { FakeApp, postedBytesOf } from './fake-app';
import { startPlugin, unloadLoadedPlugins } from './harness';
import { NodeIndexWorker, useNodeIndexWorker } from './node-index-worker';

/** A message that crossed, with the buffers it transferred. */
interface Crossed<T> {
	message: T;
	transfer: readonly unknown[];
	/** A `notes` message's notes, unpacked before its buffer was transferred (their bytes then detached). */
	notes?: PostedNote[];
}

beforeEach(async () => {
	const undo = await useNodeIndexWorker();
	return () => {
		unloadLoadedPlugins();
		undo();
	};
});

/** Workers (Node worker threads) whose messages both ways are recorded. */
function recordingWorkers(): { toWorker: Crossed<ToIndexWorker>[]; fromWorker: Crossed<FromIndexWorker>[] } {
	const toWorker: Crossed<ToIndexWorker>[] = [];
	const fromWorker: Crossed<FromIndexWorker>[] = [];
	indexWorkers.create = (code) => {
		const inner = new NodeIndexWorker(code);
		const worker: IndexWorker = {
			onmessage: null,
			onerror: null,
			postMessage: (message, transfer) => {
				const notes = message.type === 'notes' ? unpackNoteBatch(message.batch) : undefined;
				toWorker.push({ message, transfer: transfer ?? [], notes });
				inner.postMessage(message, transfer);
			},
			terminate: () => inner.terminate(),
		};
		inner.onmessage = (event) => {
			fromWorker.push({ message: event.data, transfer: [] });
			worker.onmessage?.(event);
		};
		inner.onerror = (event) => worker.onerror?.(event);
		return worker;
	};
	return { toWorker, fromWorker };
}

/** `n` notes with frontmatter, a heading, a tag and links. */
function notes(n: number): Record<string, string> {
	const files: Record<string, string> = {};
	for (let i = 0; i < n; i++)
		files[`area${i % 4}/note ${i}.md`] =
			`---\ntags: [t${i % 9}]\n---\n# Heading ${i}\n\nwords ${i} [[note ${i + 1}]] ![[note ${i + 2}]] #inline${i % 5}\n`;
	return files;
}

describe('the messages between the main thread and the index worker', () => {
	it('packs the note list and the stats into one request, and takes the notes in batches and the progress in hundredths', async () => {
		const recorded = recordingWorkers();
		const count = 700;
		const files = notes(count);
		const old = Date.parse('2026-01-01T00:00:00Z'); // not racy: nothing to re-index after the build
		const app = new FakeApp(files, {
			appId: 'worker-messages',
			mtimes: Object.fromEntries(Object.keys(files).map((p) => [p, old])),
		});
		app.indexAll();
		const handed: ArrayBuffer[] = [];
		const readBinary = app.vault.readBinary.bind(app.vault);
		app.vault.readBinary = async (file) => {
			const bytes = await readBinary(file);
			handed.push(bytes);
			return bytes;
		};
		const plugin = await startPlugin(app);
		expect(plugin.engine.saved?.log[0]).toBe('built in a worker (0 notes to reconcile)');

		const requests = recorded.toWorker.filter((c) => c.message.type === 'build');
		expect(requests).toHaveLength(1);
		const request = requests[0]!;
		if (request.message.type !== 'build') throw new Error('not a build request');
		expect(request.transfer).toHaveLength(4); // the paths' and the stats' buffers, moved rather than copied
		expect(request.message.notes.byteLength).toBe(0); // detached here: transferred
		expect(request.message.part.stamps.numbers.byteLength).toBe(0);

		const batches = recorded.toWorker.flatMap((c) => (c.notes === undefined ? [] : [c.notes]));
		const posted = batches.flat();
		expect(posted.map((n) => n.path).sort()).toEqual([...app.vault.getMarkdownFiles().map((f) => f.path)].sort());
		expect(batches.length).toBeLessThanOrEqual(Math.ceil(count / 32) + 2); // a batch of 32 notes, a short one per window
		for (const note of posted) expect(Object.keys(note.metadata ?? {})).not.toContain('links');
		// A batch goes as one buffer of the plugin's own — the notes' bytes end to end, then the rest as JSON — transferred
		// (detached here), the message itself a few numbers; what Obsidian handed stays whole.
		for (const crossed of recorded.toWorker) {
			if (crossed.message.type !== 'notes') continue;
			expect(crossed.transfer).toEqual([crossed.message.batch.buffer]);
			expect(new Set(crossed.notes!.map((note) => note.bytes?.buffer))).toEqual(new Set(crossed.transfer));
			expect(Object.keys(crossed.message)).toEqual(['type', 'batch']);
		}
		for (const note of posted) expect(note.bytes?.byteLength).toBe(0);
		expect(handed).toHaveLength(count);
		for (const bytes of handed) expect(bytes.byteLength).toBeGreaterThan(0);

		const progress = recorded.fromWorker.flatMap((c) => (c.message.type === 'progress' ? [c.message] : []));
		expect(progress.length).toBeLessThanOrEqual(101);
		expect(progress.at(-1)).toEqual({ type: 'progress', done: count, total: count });
		// The part comes in pieces, each a buffer of its own (transferred whole), adding up to what `done` says.
		const pieces = recorded.fromWorker.flatMap((c) => (c.message.type === 'part' ? [c.message.bytes] : []));
		const done = recorded.fromWorker.flatMap((c) => (c.message.type === 'done' ? [c.message] : []));
		expect(done).toHaveLength(1);
		expect(pieces.length).toBe(Math.ceil(done[0]!.length / PIECE_BYTES));
		for (const piece of pieces) expect(piece.buffer.byteLength).toBe(piece.length);
		expect(pieces.reduce((n, p) => n + p.length, 0)).toBe(done[0]!.length);
		expect(recorded.fromWorker.at(-1)?.message.type).toBe('done');
	});

	it('copies the batches into buffers the worker hands back, making a window’s worth, not one a batch', async () => {
		const recorded = recordingWorkers();
		const take = vi.spyOn(BatchBuffers.prototype, 'take');
		const count = 3000;
		const app = new FakeApp(notes(count), { appId: 'batch-buffers' });
		app.indexAll();
		const plugin = await startPlugin(app);
		expect(plugin.engine.saved?.log[0]).toMatch(/^built in a worker/);
		const batches = recorded.toWorker.filter((c) => c.message.type === 'notes').length;
		const handedBack = recorded.fromWorker.flatMap((c) =>
			c.message.type === 'read' ? (c.message.buffers ?? []) : [],
		);
		const sets = new Set(take.mock.contexts as BatchBuffers[]);
		expect(sets.size).toBe(1); // one build, one set of buffers
		const made = [...sets][0]!.made;
		expect(batches).toBeGreaterThan(90);
		// The worker asks for 512 notes ahead (16 batches): the buffers of those in flight, and a few more, are all a build makes.
		expect(made).toBeLessThanOrEqual(24);
		expect(handedBack.length).toBeGreaterThanOrEqual(batches - made);
		expect(await plugin.engine.search('Heading 2999', { limit: 1 })).toMatchObject({
			results: [{ path: 'area3/note 2999.md' }],
		});
	});

	it('cuts a part into pieces of one size, each with a buffer of its own, passing whole pieces through', () => {
		const size = 8;
		const bytes = Uint8Array.from({ length: 45 }, (_, i) => i);
		const whole = bytes.slice(0, size);
		const parts = [whole, bytes.subarray(8, 11), bytes.subarray(11, 30), bytes.slice(30, 38), bytes.subarray(38)];
		const pieces = [...partPieces(parts, size)];
		expect(pieces.map((p) => p.length)).toEqual([8, 8, 8, 8, 8, 5]);
		expect(pieces[0]).toBe(whole); // already a piece: not copied
		for (const piece of pieces) expect(piece.buffer.byteLength).toBe(piece.length);
		expect(Array.from(pieces.flatMap((p) => Array.from(p)))).toEqual(Array.from(bytes));
		expect([...partPieces([], size)]).toEqual([]);
	});

	it('fills one buffer again for every full piece when asked to reuse it, each piece right when taken', () => {
		const size = 8;
		const bytes = Uint8Array.from({ length: 29 }, (_, i) => i);
		const parts = [bytes.subarray(0, 3), bytes.subarray(3, 20), bytes.subarray(20)];
		const taken: number[][] = [];
		const buffers = new Set<ArrayBufferLike>();
		for (const piece of partPieces(parts, size, true)) {
			taken.push(Array.from(piece)); // copied at once, as a put copies its record
			buffers.add(piece.buffer);
		}
		expect(taken.flat()).toEqual(Array.from(bytes));
		expect(taken.map((p) => p.length)).toEqual([8, 8, 8, 5]);
		expect(buffers.size).toBe(2); // the full pieces' one buffer, and the last piece's own
	});

	it('posts the part a few pieces ahead of the main thread taking them, never all at once', async () => {
		const files = notes(40);
		const paths = Object.keys(files);
		const posted: FromIndexWorker[] = [];
		let finished: () => void = () => undefined;
		const ended = new Promise<void>((resolve) => (finished = resolve));
		const handle = serveIndexBuild((message) => {
			posted.push(message);
			if (message.type === 'read')
				queueMicrotask(() =>
					handle({
						type: 'notes',
						batch: packNoteBatch(
							message.paths.map((path) => ({
								path,
								bytes: postedBytesOf(files[path]),
								error: null,
								metadata: null,
								skipReason: null,
								frontmatterError: null,
							})),
							(bytes) => new ArrayBuffer(bytes),
						),
					}),
				);
			if (message.type === 'built') queueMicrotask(() => handle({ type: 'send' })); // as where the worker cannot save
			if (message.type === 'part' || message.type === 'done' || message.type === 'failed') finished();
		}, 64);
		handle({
			type: 'build',
			settings: DEFAULT_SEARCH_SETTINGS,
			vault: { vaultPath: '/vault', configDir: '.obsidian', userIgnoreFilters: [] },
			notes: packPaths(paths),
			part: { tool: 'test', settings: '', stamps: packStamps(new Map()) },
		});
		await ended;
		const parts = (): number => posted.filter((m) => m.type === 'part').length;
		expect(parts()).toBe(PIECES_IN_FLIGHT); // the first few, then one a `taken`
		let taken = 0;
		while (posted.at(-1)?.type !== 'done') {
			expect(posted.at(-1)?.type).toBe('part');
			handle({ type: 'taken' });
			taken++;
			expect(parts()).toBeLessThanOrEqual(taken + PIECES_IN_FLIGHT);
		}
		const done = posted.at(-1);
		if (done?.type !== 'done') throw new Error('no done');
		expect(parts()).toBe(Math.ceil(done.length / 64));
		expect(parts()).toBeGreaterThan(PIECES_IN_FLIGHT * 2);
		handle({ type: 'taken' }); // a late one: nothing more to post
		expect(posted.at(-1)).toBe(done);
	});

	it('posts the progress when the build got a hundredth further, and at the end', () => {
		const posted: number[] = [];
		const onProgress = progressPoster((message) => {
			if (message.type === 'progress') posted.push(message.done);
		});
		for (let done = 64; done < 50_000; done += 64) onProgress(done, 50_000);
		onProgress(50_000, 50_000);
		expect(posted.length).toBeLessThanOrEqual(101);
		expect(posted.length).toBeGreaterThanOrEqual(90);
		expect(posted.at(-1)).toBe(50_000);
		const small: number[] = [];
		const few = progressPoster((message) => message.type === 'progress' && small.push(message.done));
		for (const done of [2, 3, 4]) few(done, 4);
		expect(small).toEqual([2, 3, 4]);
	});

	it('unpacks the paths and stats it packed, whatever the paths hold', () => {
		const stamps = new Map<string, NoteFingerprint>([
			['a/b c.md', { size: 12, mtimeMs: 1.5e12, ctimeMs: 1.5e12 + 0.25, ino: 0, racy: false }],
			['ünï/コード,\n;.md', { size: 0, mtimeMs: 0, ctimeMs: 7, ino: 2 ** 40, racy: true }],
			['', { size: 3, mtimeMs: 4, ctimeMs: 5, ino: 6, racy: false }],
		]);
		expect([...unpackStamps(packStamps(stamps))]).toEqual([...stamps]);
		expect(unpackStamps(packStamps(new Map())).size).toBe(0);
		const paths = ['x.md', 'with\nnewline.md', 'ünï/コード.md', 'lone \ud800 surrogate.md', '\ufeffbom.md'];
		expect(unpackPaths(packPaths(paths))).toEqual(paths);
		const many = Array.from({ length: 10_000 }, (_, i) => `folder ${i % 7}/note ${i}.md`); // several packing steps
		expect(unpackPaths(packPaths(many))).toEqual(many);
		expect(unpackPaths(packPaths([]))).toEqual([]);
	});
});
