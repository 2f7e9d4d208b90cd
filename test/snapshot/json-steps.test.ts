/**
 * A saved part's large JSON arrays (its path lists) are decoded in steps of a bounded number of
 * bytes: the result is exactly `JSON.parse`'s, for any JSON value list and any piece size, and
 * what is not one JSON array throws as `JSON.parse` does.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonArraySteps } from '../../src/core/snapshot/json-steps';
import { drain } from '../../src/core/steps';

const utf8 = {
	encode: (text: string) => new TextEncoder().encode(text),
	encodeInto: (text: string, target: Uint8Array, at: number) =>
		new TextEncoder().encodeInto(text, target.subarray(at)).written,
	decode: (bytes: Uint8Array, start: number, end: number) => new TextDecoder().decode(bytes.subarray(start, end)),
};

describe('a JSON array decoded in steps', () => {
	it('gives what JSON.parse gives, for any values and piece size', () => {
		fc.assert(
			fc.property(
				fc.array(
					fc.oneof(
						fc.string({ unit: 'binary' }),
						fc.constantFrom('a,b', '"]', '\\', '[', '{', 'ä/ö.md'),
						fc.jsonValue(),
					),
				),
				fc.integer({ min: 1, max: 40 }),
				(values, piece) => {
					const bytes = utf8.encode(JSON.stringify(values));
					expect(drain(jsonArraySteps(bytes, utf8, piece))).toEqual(JSON.parse(JSON.stringify(values)));
				},
			),
		);
	});

	it('decodes a long list a piece per step: each step parses about the piece size', () => {
		const paths = Array.from({ length: 5000 }, (_, i) => `folder ${i % 7}/note "${i}", with, commas.md`);
		const bytes = utf8.encode(JSON.stringify(paths));
		const steps = jsonArraySteps(bytes, utf8, 4096);
		let pauses = 0;
		let r = steps.next();
		while (r.done !== true) {
			pauses++;
			r = steps.next();
		}
		expect(r.value).toEqual(paths);
		expect(pauses).toBeGreaterThanOrEqual(Math.floor(bytes.length / (2 * 4096)));
		expect(pauses).toBeLessThanOrEqual(Math.ceil(bytes.length / 4096));
	});

	it('throws as JSON.parse does on what is not one JSON array', () => {
		for (const text of ['[1,,2]', '[,1]', '[1],[2]', '["a"', '[1,2', '[1 2]'])
			expect(() => drain(jsonArraySteps(utf8.encode(text), utf8, 1))).toThrow(SyntaxError);
	});
});
