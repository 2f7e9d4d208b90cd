/**
 * The saved part read as it is used (src/obsidian/lazy-part.ts): a read of a record not loaded yet
 * says so with the load it started, and reads once that is done; a record gone or replaced reads
 * as damaged; the rest come in one by one. And the engine's retry (retryingSaved): a query that
 * read a record not loaded yet runs again once it is.
 */
import { describe, expect, it } from 'vitest';
import { retryingSaved, SavedIndexDamaged, SavedIndexPending } from '../../src/core/search/index-state';
import { LazyPart } from '../../src/obsidian/lazy-part';

/** 10 bytes 0..9 in records of 4 (4, 4, 2); `have` says which are loaded at first; the loads made are counted in `asked`. */
function part(have: boolean[], stored = true): { lazy: LazyPart; asked: number[] } {
	const bytes = Uint8Array.from({ length: 10 }, (_, i) => i);
	const record = (c: number): Uint8Array => bytes.slice(c * 4, Math.min(10, c * 4 + 4));
	const asked: number[] = [];
	const lazy = new LazyPart(
		have.map((loaded, c) => (loaded ? record(c) : null)),
		10,
		4,
		(c) => {
			asked.push(c);
			return Promise.resolve(stored ? record(c) : null);
		},
	);
	return { lazy, asked };
}

/** The error `read` throws (null: none). */
function thrown(read: () => unknown): unknown {
	try {
		read();
		return null;
	} catch (error) {
		return error;
	}
}

describe('a saved part read as it is used', () => {
	it('reads loaded records at once, and a record not loaded yet once its load is done', async () => {
		const { lazy, asked } = part([true, false, true]);
		expect([...lazy.read(1, 2)]).toEqual([1, 2]);
		expect([...lazy.read(8, 2)]).toEqual([8, 9]);
		const pending = thrown(() => lazy.read(2, 5)); // records 0 and 1
		expect(pending).toBeInstanceOf(SavedIndexPending);
		await (pending as SavedIndexPending).loaded;
		expect(asked).toEqual([1]);
		expect([...lazy.read(2, 5)]).toEqual([2, 3, 4, 5, 6]);
		expect(lazy.missing).toBe(0);
	});

	it('copies a read over two records into the scratch it is given when it is long enough', () => {
		const { lazy } = part([true, true, true]);
		const scratch = new Uint8Array(6);
		const over = lazy.read(2, 5, scratch);
		expect([...over]).toEqual([2, 3, 4, 5, 6]);
		expect(over.buffer).toBe(scratch.buffer);
		expect(lazy.read(5, 2, scratch).buffer).not.toBe(scratch.buffer); // within one record: a view of it
		const long = lazy.read(1, 8, scratch); // longer than the scratch: a new array
		expect([...long]).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
		expect(long.buffer).not.toBe(scratch.buffer);
	});

	it('a record gone or replaced since the part was opened reads as damaged', async () => {
		const { lazy } = part([true, false, false], false);
		const pending = thrown(() => lazy.read(5, 1)) as SavedIndexPending;
		await expect(pending.loaded).rejects.toBeInstanceOf(SavedIndexDamaged);
	});

	it('loads the records not read yet one by one, each after a turn', async () => {
		const { lazy, asked } = part([true, false, false]);
		let turns = 0;
		await lazy.loadRest(() => {
			turns++;
			return Promise.resolve();
		});
		expect(asked).toEqual([1, 2]);
		expect(turns).toBe(2);
		expect([...lazy.read(0, 10)]).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
	});

	it("the engine's retry runs a query again once the bytes it read are loaded, and drops a damaged index once", async () => {
		const { lazy } = part([true, false, false]);
		let attempts = 0;
		const answer = await retryingSaved(
			() => {
				attempts++;
				return Promise.resolve(lazy.read(0, 10).reduce((a, b) => a + b, 0));
			},
			() => expect.unreachable('nothing is damaged'),
		);
		expect(answer).toBe(45);
		expect(attempts).toBe(2); // both records asked for at once, then the answer
		const gone = part([true, false, false], false).lazy;
		const dropped: string[] = [];
		let built = false;
		const rebuilt = await retryingSaved(
			() => Promise.resolve(built ? 'built' : gone.read(0, 10).length.toString()),
			(error) => {
				dropped.push(error.message);
				built = true;
			},
		);
		expect(rebuilt).toBe('built');
		expect(dropped).toHaveLength(1);
	});
});
