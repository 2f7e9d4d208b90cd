/** The layered map a server's refresh uses instead of copying a 50k-entry map: it must read exactly as the merged map. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LayeredMap } from '../../src/node/snapshot/layered-map';

describe('LayeredMap', () => {
	it('reads as the base with each set of changes put over it in turn, however many layers', () => {
		const entries = fc.array(fc.tuple(fc.constantFrom<string>('a', 'b', 'c', 'd', 'e'), fc.integer()), {
			maxLength: 6,
		});
		fc.assert(
			fc.property(entries, fc.array(entries, { maxLength: 4 }), (base, layers) => {
				const merged = new Map(base);
				let layered: ReadonlyMap<string, number> = new Map(base);
				for (const layer of layers) {
					for (const [k, v] of layer) merged.set(k, v);
					layered = LayeredMap.over(layered, new Map(layer));
				}
				expect([...layered]).toEqual([...merged]);
				expect([...layered.keys()]).toEqual([...merged.keys()]);
				expect([...layered.values()]).toEqual([...merged.values()]);
				expect(layered.size).toBe(merged.size);
				for (const k of ['a', 'b', 'c', 'd', 'e', 'z']) {
					expect(layered.get(k)).toBe(merged.get(k));
					expect(layered.has(k)).toBe(merged.has(k));
				}
			}),
		);
	});

	it('reads as the merged map when layers also take keys out (a note deleted or renamed away)', () => {
		const key = fc.constantFrom<string>('a', 'b', 'c', 'd', 'e');
		const layer = fc.record({
			put: fc.array(fc.tuple(key, fc.integer()), { maxLength: 4 }),
			drop: fc.array(key, { maxLength: 3 }),
		});
		fc.assert(
			fc.property(
				fc.array(fc.tuple(key, fc.integer()), { maxLength: 6 }),
				fc.array(layer, { maxLength: 4 }),
				(base, layers) => {
					const merged = new Map(base);
					let layered: ReadonlyMap<string, number> = new Map(base);
					for (const { put, drop } of layers) {
						for (const k of drop) merged.delete(k);
						for (const [k, v] of put) merged.set(k, v);
						layered = LayeredMap.over(layered, new Map(put), drop);
					}
					const sorted = (m: Iterable<[string, number]>) => [...m].sort(([a], [b]) => (a < b ? -1 : 1));
					expect(sorted(layered)).toEqual(sorted(merged));
					expect(layered.size).toBe(merged.size);
					for (const k of ['a', 'b', 'c', 'd', 'e', 'z']) {
						expect(layered.get(k)).toBe(merged.get(k));
						expect(layered.has(k)).toBe(merged.has(k));
					}
				},
			),
		);
	});
});
