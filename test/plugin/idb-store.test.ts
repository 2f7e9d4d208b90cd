// @vitest-environment happy-dom
/**
 * The plugin's IndexedDB store keeps a part in records of a megabyte, each read and written in a
 * task of its own: what it loads is what was saved, a smaller save leaves none of a larger one's
 * records behind, and a part with a record missing reads as none (the index is then built).
 */
import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import { CHUNK_BYTES, IndexedDbStore } from '../../src/obsidian/idb-store';

/** `n` bytes of a pattern that differs from chunk to chunk. */
function bytesOf(n: number, salt: number): Uint8Array {
	const out = new Uint8Array(n);
	for (let i = 0; i < n; i++) out[i] = (i * 31 + salt + (i >> 20)) & 0xff;
	return out;
}

async function recordCount(name: string): Promise<number> {
	const db = await openDB(name);
	const count = await db.count('parts');
	db.close();
	return count;
}

describe('the plugin’s IndexedDB store', () => {
	it('saves a part in records of a megabyte and loads the same bytes; a smaller save leaves no record of a larger one', async () => {
		const store = new IndexedDbStore('store-test/chunks');
		const large = bytesOf(CHUNK_BYTES * 3 + 12_345, 1);
		await store.save('part', large, 7);
		expect(await recordCount(store.name)).toBe(1 + 4); // the head and four chunks
		expect(Buffer.from((await store.load('part'))!).equals(Buffer.from(large))).toBe(true);
		expect(await store.info('part')).toMatchObject({ bytes: large.length, notes: 7 });

		const small = bytesOf(CHUNK_BYTES + 5, 2);
		await store.save('part', small, 3);
		expect(await recordCount(store.name)).toBe(1 + 2);
		expect(Buffer.from((await store.load('part'))!).equals(Buffer.from(small))).toBe(true);

		expect(await store.clear('part')).toBe(true);
		expect(await recordCount(store.name)).toBe(0);
		expect(await store.load('part')).toBeNull();
		store.close();
	});

	it('reads a part with a record missing, or saved whole by an earlier version, as none', async () => {
		const store = new IndexedDbStore('store-test/missing');
		await store.save('part', bytesOf(CHUNK_BYTES * 2 + 1, 3));
		const db = await openDB(store.name);
		await db.delete('parts', ['part', 1]);
		expect(await store.load('part')).toBeNull();
		await db.put('parts', { bytes: bytesOf(100, 4), savedAt: 0, notes: 1 }, 'part');
		expect(await store.load('part')).toBeNull();
		db.close();
		store.close();
	});
});
