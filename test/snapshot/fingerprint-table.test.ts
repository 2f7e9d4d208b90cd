/**
 * FingerprintTable answers as the Map of fingerprint objects it replaces: the same reads, sizes
 * and order after the same writes (a replaced note keeps its place), past the columns' first room,
 * and a reconcile plan over it equals one over the Map.
 */
import { describe, expect, it } from 'vitest';
import type { NoteFingerprint } from '../../src/core/snapshot/codec';
import { FingerprintTable } from '../../src/core/snapshot/fingerprint-table';
import { planReconcile } from '../../src/core/snapshot/reconcile';

/** A fingerprint of note `i` with times past the small integers V8 keeps unboxed. */
function fingerprint(i: number, racy = false): NoteFingerprint {
	return { size: 100 + i, mtimeMs: 1_733_300_000_000 + i * 1.5, ctimeMs: 1_733_300_000_000 + i, ino: i % 7, racy };
}

/** The same notes set into a Map and a table (3,000: past the table's first room of 1,024). */
function both(): { map: Map<string, NoteFingerprint>; table: FingerprintTable } {
	const map = new Map<string, NoteFingerprint>();
	const table = new FingerprintTable();
	for (let i = 0; i < 3000; i++) {
		const path = `notes/${i % 10}/note ${i}.md`;
		map.set(path, fingerprint(i, i % 11 === 0));
		table.set(path, fingerprint(i, i % 11 === 0));
	}
	// A note stat'ed again: replaced in place, in both.
	map.set('notes/5/note 5.md', fingerprint(9999));
	table.set('notes/5/note 5.md', fingerprint(9999));
	return { map, table };
}

describe('FingerprintTable', () => {
	it('reads, sizes and iterates as a Map of the same fingerprints', () => {
		const { map, table } = both();
		expect(table.size).toBe(map.size);
		expect([...table]).toEqual([...map]);
		expect([...table.keys()]).toEqual([...map.keys()]);
		expect([...table.values()]).toEqual([...map.values()]);
		expect(table.get('notes/5/note 5.md')).toEqual(fingerprint(9999));
		expect(table.get('notes/0/note 0.md')?.racy).toBe(true);
		expect(table.get('notes/1/note 1.md')?.racy).toBe(false);
		expect(table.get('missing.md')).toBeUndefined();
		expect(table.has('notes/9/note 2999.md')).toBe(true);
		expect(table.has('missing.md')).toBe(false);
		const seen: [string, NoteFingerprint][] = [];
		table.forEach((value, key, self) => {
			expect(self).toBe(table);
			seen.push([key, value]);
		});
		expect(seen).toEqual([...map]);
	});

	it('gives the same reconcile plan as the Map', () => {
		const { map, table } = both();
		const paths = [...map.keys()].filter((_, i) => i % 3 !== 0); // a saved part missing a third of them
		const saved = { paths, fingerprint: (i: number) => fingerprint(i * 2) };
		expect(planReconcile(saved, table)).toEqual(planReconcile(saved, map));
	});
});
