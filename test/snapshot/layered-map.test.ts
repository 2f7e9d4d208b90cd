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
});
