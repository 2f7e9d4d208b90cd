/**
 * The batch buffers go round: the main thread copies a batch of notes' bytes into a buffer and
 * transfers it to the index worker, the worker hands it back once every note of the batch is
 * decoded, and the main thread fills it again — never while a note's bytes in it are still unread.
 */
import { describe, expect, it } from 'vitest';
import { BatchBuffers } from '../../src/obsidian/batch-buffers';
import { PostedNotes } from '../../src/obsidian/posted-notes';
import { DEFAULT_SEARCH_SETTINGS } from '../../src/core/search/settings';
import { packPaths, type PostedNote } from '../../src/obsidian/worker-protocol';

const utf8 = new TextEncoder();

/** The notes `paths` as one batch, their bytes end to end in one buffer (`texts` as given, or bytes). */
function batch(paths: readonly string[], texts: (path: string) => Uint8Array): PostedNote[] {
	const bytes = paths.map(texts);
	const buffer = new ArrayBuffer(bytes.reduce((n, b) => n + b.length, 0));
	let at = 0;
	return paths.map((path, i) => {
		const view = new Uint8Array(buffer, at, bytes[i]!.length);
		view.set(bytes[i]!);
		at += view.length;
		return { path, bytes: view, error: null, metadata: null, skipReason: null, frontmatterError: null };
	});
}

/** A PostedNotes over `count` notes read in list order, and the asks it made (paths and buffers handed back). */
function postedNotes(count: number): {
	notes: PostedNotes;
	paths: string[];
	asks: { paths: string[]; buffers: ArrayBuffer[] }[];
} {
	const paths = Array.from({ length: count }, (_, i) => `n${String(i).padStart(4, '0')}.md`);
	const asks: { paths: string[]; buffers: ArrayBuffer[] }[] = [];
	const list = {
		settings: DEFAULT_SEARCH_SETTINGS,
		vault: { vaultPath: '/v', configDir: '.obsidian', userIgnoreFilters: [] },
		notes: packPaths(paths),
	};
	const notes = new PostedNotes(list, (asked, buffers) => asks.push({ paths: asked, buffers }), paths);
	return { notes, paths, asks };
}

describe('the buffers a batch of notes crosses to the index worker in', () => {
	it('are filled again once handed back, a new one made only when none kept is large enough', () => {
		const buffers = new BatchBuffers();
		const first = buffers.take(100_000);
		const second = buffers.take(100_000);
		expect(first).not.toBe(second);
		expect(buffers.made).toBe(2);
		buffers.giveBack([first]);
		expect(buffers.take(90_000)).toBe(first);
		buffers.giveBack([second]);
		const large = buffers.take(second.byteLength + 1); // larger than any kept: a new one
		expect(large.byteLength).toBeGreaterThan(second.byteLength);
		expect(buffers.made).toBe(3);
		expect(buffers.take(10)).toBe(second);
	});

	it('lets go of detached buffers and of those past the ones kept', () => {
		const buffers = new BatchBuffers();
		const detached = new ArrayBuffer(300_000);
		structuredClone(detached, { transfer: [detached] });
		buffers.giveBack([detached]);
		buffers.take(1);
		expect(buffers.made).toBe(1);
		const many = Array.from({ length: 40 }, () => new ArrayBuffer(300_000));
		buffers.giveBack(many);
		for (let i = 0; i < 40; i++) buffers.take(1);
		expect(buffers.made).toBe(1 + 40 - 32); // 32 kept, the rest new
	});

	it('makes no buffer for a batch without bytes', () => {
		const buffers = new BatchBuffers();
		expect(buffers.take(0).byteLength).toBe(0);
		expect(buffers.made).toBe(0);
	});

	it('are handed back by the worker with its next ask once the batch is decoded, and its notes read as written', async () => {
		const { notes, paths, asks } = postedNotes(600);
		const reading = notes.read(paths[0]!);
		expect(asks).toHaveLength(1);
		expect(asks[0]!.buffers).toEqual([]);
		const posted = batch(paths.slice(0, 300), (path) => utf8.encode(`text of ${path}`));
		const buffer = posted[0]!.bytes!.buffer;
		notes.receive(posted);
		expect(await reading).toBe(`text of ${paths[0]!}`);
		for (let i = 1; i < 300; i++) expect(await notes.read(paths[i]!)).toBe(`text of ${paths[i]!}`);
		expect(asks).toHaveLength(2); // the next window, past half of the first
		expect(asks[1]!.buffers).toEqual([buffer]);
	});

	it('are kept by the worker while a note of the batch is still to be decoded on its own', async () => {
		const { notes, paths, asks } = postedNotes(600);
		const reading = notes.read(paths[0]!);
		// A malformed note: the batch is decoded note by note as each is read, so its buffer is still in use.
		const posted = batch(paths.slice(0, 300), (path) =>
			path === paths[299] ? Uint8Array.of(0x61, 0xff, 0x62) : utf8.encode(`text of ${path}`),
		);
		notes.receive(posted);
		await reading;
		for (let i = 1; i < 299; i++) await notes.read(paths[i]!);
		expect(asks).toHaveLength(2);
		expect(asks[1]!.buffers).toEqual([]);
		expect(await notes.read(paths[299]!)).toBe('a\uFFFDb');
	});
});
