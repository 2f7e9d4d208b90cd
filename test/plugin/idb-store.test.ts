// @vitest-environment happy-dom
/**
 * The plugin's IndexedDB store keeps a part in records of 256 kB, each read and written in a
 * task of its own: what it loads is what was saved, a smaller save leaves none of a larger one's
 * records behind, and a part with a record missing reads as none (the index is then built).
 */
import fc from 'fast-check';
import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import { chunkedPart, memoryPart } from '../../src/core/snapshot/part-codec';
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
	it('saves a part in records of 256 kB and loads the same bytes; a smaller save leaves no record of a larger one', async () => {
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

	it('saves a part handed in pieces as the records of the joined bytes, with no record of a piece boundary', async () => {
		const store = new IndexedDbStore('store-test/pieces');
		const whole = bytesOf(CHUNK_BYTES * 2 + 4_321, 6);
		const cuts = [0, 20, CHUNK_BYTES - 3, CHUNK_BYTES - 3, CHUNK_BYTES + 100, 2 * CHUNK_BYTES + 7, whole.length];
		await store.save(
			'part',
			cuts.slice(1).map((end, i) => whole.subarray(cuts[i], end)),
			2,
		);
		expect(await recordCount(store.name)).toBe(1 + 3); // the head and three records, as for the whole
		expect(Buffer.from((await store.load('part'))!).equals(Buffer.from(whole))).toBe(true);
		expect(await store.info('part')).toMatchObject({ bytes: whole.length, notes: 2 });
		const db = await openDB(store.name);
		const second = (await db.get('parts', ['part', 1])) as Uint8Array;
		db.close();
		expect(second.length).toBe(CHUNK_BYTES);
		expect(Buffer.from(second).equals(Buffer.from(whole.subarray(CHUNK_BYTES, 2 * CHUNK_BYTES)))).toBe(true);
		store.close();
	});

	it('saves pieces made as they are asked for into one reused buffer (a streamed re-save) as the bytes they were', async () => {
		const store = new IndexedDbStore('store-test/streamed');
		const whole = bytesOf(CHUNK_BYTES * 3 + 999, 9);
		let made = 0;
		/** Each piece written into the same buffer, as streamPieces makes a section's bytes: valid until the next is asked for. */
		function* reused(): Generator<Uint8Array, void, void> {
			const buffer = new Uint8Array(CHUNK_BYTES);
			for (let at = 0; at < whole.length; at += CHUNK_BYTES) {
				const view = buffer.subarray(0, Math.min(CHUNK_BYTES, whole.length - at));
				view.set(whole.subarray(at, at + view.length));
				made++;
				yield view;
			}
		}
		await store.save('part', reused(), 4);
		expect(made).toBe(4);
		expect(Buffer.from((await store.load('part'))!).equals(Buffer.from(whole))).toBe(true);
		expect(await store.info('part')).toMatchObject({ bytes: whole.length, notes: 4 });
		store.close();
	});

	it('reads a part with a record missing, or saved whole by an earlier version, as none', async () => {
		const store = new IndexedDbStore('store-test/missing');
		await store.save('part', bytesOf(CHUNK_BYTES * 2 + 1, 3));
		const db = await openDB(store.name);
		await db.delete('parts', ['part', 1]);
		expect(await store.load('part')).toBeNull();
		expect(await store.loadReader('part')).toBeNull();
		await db.put('parts', { bytes: bytesOf(100, 4), savedAt: 0, notes: 1 }, 'part');
		expect(await store.load('part')).toBeNull();
		expect(await store.loadReader('part')).toBeNull();
		db.close();
		store.close();
	});

	it('reads a part an earlier version kept in records of 1 MB as none, so the index is built and saved again', async () => {
		expect(CHUNK_BYTES).toBe(256 * 1024);
		const store = new IndexedDbStore('store-test/megabyte-records');
		const bytes = bytesOf((1 << 20) * 2 + 50_000, 8);
		const db = await openDB(store.name, 1, { upgrade: (up) => up.createObjectStore('parts') });
		for (let i = 0; i * (1 << 20) < bytes.length; i++)
			await db.put('parts', bytes.slice(i * (1 << 20), (i + 1) * (1 << 20)), ['part', i]);
		await db.put('parts', { chunks: 3, length: bytes.length, savedAt: 1, notes: 9 }, 'part');
		expect(await store.load('part')).toBeNull();
		expect(await store.loadReader('part')).toBeNull();
		expect(await store.loadLazy('part', () => [])).toBeNull();
		db.close();
		store.close();
	});

	it('loads a part as a reader over its records that reads the saved bytes, with no copy of the whole', async () => {
		const store = new IndexedDbStore('store-test/reader');
		const bytes = bytesOf(CHUNK_BYTES * 2 + 777, 5);
		await store.save('part', bytes);
		const reader = (await store.loadReader('part'))!;
		expect(reader.size).toBe(bytes.length);
		const inside = reader.read(CHUNK_BYTES + 8, 4096); // within the second record: a view of it
		expect(inside.buffer.byteLength).toBe(CHUNK_BYTES);
		expect(Buffer.from(inside).equals(Buffer.from(bytes.subarray(CHUNK_BYTES + 8, CHUNK_BYTES + 8 + 4096)))).toBe(
			true,
		);
		const across = reader.read(CHUNK_BYTES - 100, CHUNK_BYTES + 200); // over three records: copied
		expect(Buffer.from(across).equals(Buffer.from(bytes.subarray(CHUNK_BYTES - 100, 2 * CHUNK_BYTES + 100)))).toBe(
			true,
		);
		store.close();
	});

	it('reads from chunks exactly what one array gives, each view 8-aligned', () => {
		fc.assert(
			fc.property(
				fc.uint8Array({ minLength: 1, maxLength: 300 }),
				fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 8 }),
				fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 20 }),
				(bytes, sizes, reads) => {
					// Chunks of 8× the sizes (a store's records are a multiple of 8), the last takes the rest.
					const chunks: Uint8Array[] = [];
					let at = 0;
					for (const size of sizes) {
						if (at >= bytes.length) break;
						chunks.push(bytes.slice(at, Math.min(bytes.length, at + size * 8)));
						at += size * 8;
					}
					if (at < bytes.length) chunks.push(bytes.slice(at));
					const reader = chunkedPart(chunks, bytes.length)!;
					const whole = memoryPart(bytes);
					for (const [a, b] of reads) {
						const offset = a % bytes.length;
						const length = b % (bytes.length - offset + 1);
						const got = reader.read(offset, length);
						expect([...got]).toEqual([...whole.read(offset, length)]);
						expect(got.byteOffset % 8).toBe(0);
					}
					expect(chunkedPart(chunks, bytes.length + 1)).toBeNull();
				},
			),
		);
	});
});
