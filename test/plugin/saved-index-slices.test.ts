// @vitest-environment happy-dom
/**
 * The plugin's save encodes its search index in slices of Obsidian's main thread: it hands the
 * thread back many times for a vault of a few thousand notes, saves the bytes the synchronous
 * encoding (the CLI's) gives, and an edit made while it encodes waits for it, then reaches the index.
 */
import { waitFor } from '../helpers/wait';
import type { App } from 'obsidian';
import { afterEach, describe, expect, it, vi } from 'vitest';
import VaultQueryPlugin from '../../src/main';
import { FakeApp } from './fake-app';
import { MANIFEST, savedPartBytes, settle } from './harness';

const NOTES = 2000;
const OLD = Date.parse('2026-01-01T00:00:00Z');

afterEach(() => {
	vi.restoreAllMocks();
});

/** A vault of `NOTES` notes over ~30k distinct words. */
function files(): Record<string, string> {
	const out: Record<string, string> = {};
	for (let i = 0; i < NOTES; i++) {
		const words = Array.from({ length: 40 }, (_, k) => `w${((i * 7919 + k * 104_729) % 30_011).toString(36)}`);
		out[`folder${i % 13}/note ${i}.md`] = `# Note ${i}\n\n${words.join(' ')} [[note ${(i + 1) % NOTES}]]\n`;
	}
	return out;
}

/** Whether two byte arrays are equal (vitest's deep equality takes seconds over megabytes). */
function same(a: Uint8Array, b: Uint8Array): boolean {
	return Buffer.from(a.buffer, a.byteOffset, a.length).equals(Buffer.from(b.buffer, b.byteOffset, b.length));
}

describe('the plugin saves its search index in slices', () => {
	it('hands the main thread back many times, saves the synchronous bytes, and holds an edit until the save ends', async () => {
		const all = files();
		const app = new FakeApp(all, { mtimes: Object.fromEntries(Object.keys(all).map((p) => [p, OLD])) });
		app.indexAll();
		const plugin = new VaultQueryPlugin(app as unknown as App, MANIFEST);
		plugin.load();
		await settle();
		app.layoutReady();
		await plugin.engine.searchIndex();
		await plugin.engine.savesSettled();

		// Count the turns one save takes, under a clock that moves 1 ms at each read: a slice is then a
		// fixed number of steps, however fast the machine is, so the count measures the steps.
		const turns = plugin.engine.source.turns;
		const next = turns.next;
		let taken = 0;
		Object.defineProperty(turns, 'next', { value: () => (taken++, next()) });
		let now = Date.now(); // clock-ok: the start of a fake clock that moves 1 ms a read
		vi.spyOn(Date, 'now').mockImplementation(() => (now += 1));
		expect(await plugin.engine.saveNow()).toBe(true);
		vi.mocked(Date.now).mockRestore();
		expect(taken).toBeGreaterThan(20);
		const sliced = await savedPartBytes(app);
		// The CLI's way: the same steps drained at once, over the same index.
		expect(await plugin.engine.saved?.save(plugin.engine.engine)).toBe(true);
		expect(same(sliced, await savedPartBytes(app))).toBe(true);

		// An edit made while the save encodes waits for it: the saved index lacks it, the one in memory has it.
		const before = taken;
		const saving = plugin.engine.saveNow();
		await waitFor(() => taken > before, { what: 'the save to begin encoding' });
		expect(taken).toBeGreaterThan(before); // the encoding has begun
		app.modify('folder0/note 0.md', '# Note 0\n\nquokka');
		const edited = plugin.engine.engine.upsert('folder0/note 0.md');
		expect(await saving).toBe(true);
		await edited;
		expect(Buffer.from(await savedPartBytes(app)).includes('quokka')).toBe(false);
		expect((await plugin.engine.search('quokka')).results.map((h) => h.path)).toEqual(['folder0/note 0.md']);
		plugin.unload();
	});
});
