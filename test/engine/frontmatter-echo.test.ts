import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VaultEngine } from '../../src/core/engine/engine';
import { ECHO_MAX_BYTES, ECHO_MAX_VALUES, echoFrontmatter } from '../../src/core/frontmatter-echo';
import { MemorySource, metadataOf } from '../helpers/memory-source';

/** Bytes of a value as `--json` prints it. */
function printed(value: unknown): number {
	return Buffer.byteLength(JSON.stringify(value, null, 2), 'utf8');
}

/** `value` inside `depth` one-item lists. */
function nested(depth: number, value: unknown): unknown {
	let out = value;
	for (let i = 0; i < depth; i++) out = [out];
	return out;
}

/** A note whose frontmatter holds `properties`, each written as a YAML flow value (JSON is YAML). */
function noteOf(properties: Record<string, unknown>, body = 'The zebra note.'): string {
	const lines = Object.entries(properties).map(([key, value]) => `${key}: ${JSON.stringify(value)}`);
	return `---\n${lines.join('\n')}\n---\n${body}\n`;
}

/** The printed bytes of every face's result that lists the note, with the JSON itself. */
async function answers(
	text: string,
): Promise<{ name: string; result: { results: unknown[]; limitations: string[] } }[]> {
	const engine = new VaultEngine(new MemorySource({ 'deep.md': text, 'plain.md': 'zebra\n' }));
	const prop = await engine.query({ type: 'prop', key: 'kind', value: 'deep' });
	const grep = await engine.query({ type: 'grep', pattern: 'zebra' });
	const search = await engine.search('zebra');
	return [
		{ name: 'prop', result: prop },
		{ name: 'grep', result: grep },
		{ name: 'search', result: search },
	];
}

describe('frontmatter echoed in results is bounded (bytes and values), and limitations says so', () => {
	it('a 400 KB note of frontmatter nested 60 deep prints under 16 KB of it per result, not 26 MB', async () => {
		const leaves = Array.from({ length: 2000 }, (_, i) => i % 10);
		const properties: Record<string, unknown> = { kind: 'deep' };
		for (let k = 0; k < 100; k++) properties[`p${k}`] = nested(60, leaves);
		const text = noteOf(properties);
		expect(text.length).toBeGreaterThan(400_000);
		for (const { name, result } of await answers(text)) {
			const deep = (result.results as { path: string; frontmatter: Record<string, unknown> }[]).find(
				(r) => r.path === 'deep.md',
			);
			expect(deep, name).toBeDefined();
			expect(printed(deep?.frontmatter), name).toBeLessThanOrEqual(ECHO_MAX_BYTES);
			expect(deep?.frontmatter.kind, name).toBe('deep');
			expect(printed(result), name).toBeLessThan(text.length / 8);
			expect(result.limitations.join('\n'), name).toMatch(
				/Frontmatter echoed in results is bounded .*deep\.md \(p0, p1/,
			);
		}
	});

	it('a property with more than the value bound is left out even when its bytes would fit', () => {
		const echo = echoFrontmatter({ a: 1, many: Array.from({ length: ECHO_MAX_VALUES + 5 }, () => 0), b: 2 });
		expect(echo.frontmatter).toEqual({ a: 1, b: 2 });
		expect(echo.cut).toEqual(['many']);
	});

	it('a small frontmatter is echoed whole, as the same object', () => {
		const fm = { title: 'x', tags: ['a', 'b'], nested: { deep: [1, [2, [3]]] } };
		expect(echoFrontmatter(fm)).toEqual({ frontmatter: fm, cut: [] });
	});

	it('a `__proto__` property stays a plain property when the echo is cut', () => {
		const fm = JSON.parse(`{"__proto__": {"polluted": 1}, "big": "${'x'.repeat(ECHO_MAX_BYTES)}"}`) as Record<
			string,
			unknown
		>;
		const echo = echoFrontmatter(fm);
		expect(Object.keys(echo.frontmatter)).toEqual(['__proto__']);
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
	});

	it('property: for generated frontmatter, each result prints at most 16 KB of it, whole properties equal to the note’s, and the output stays within 16 KB + 2 × the note + 8 KB', async () => {
		const key = fc.stringMatching(/^[a-z][a-z0-9_]{0,8}$/);
		const leaf = fc.oneof(fc.string({ maxLength: 40 }), fc.integer(), fc.boolean(), fc.constant(null));
		const { tree } = fc.letrec<{ tree: unknown }>((tie) => ({
			tree: fc.oneof(
				{ depthSize: 'small', withCrossShrink: true },
				leaf,
				fc.array(tie('tree'), { maxLength: 5 }),
				fc.dictionary(key, tie('tree'), { maxKeys: 5 }),
			),
		}));
		const deep = fc
			.tuple(fc.integer({ min: 1, max: 60 }), fc.array(leaf, { maxLength: 300 }))
			.map(([depth, items]) => nested(depth, items));
		const frontmatter = fc.dictionary(key, fc.oneof(tree, deep), { maxKeys: 30 });
		await fc.assert(
			fc.asyncProperty(frontmatter, async (generated) => {
				const text = noteOf({ ...generated, kind: 'deep' });
				const parsed = metadataOf(text).frontmatter ?? {};
				for (const { name, result } of await answers(text)) {
					const deepResult = (
						result.results as { path: string; frontmatter: Record<string, unknown> }[]
					).find((r) => r.path === 'deep.md');
					if (deepResult === undefined) continue; // frontmatter past the parser's depth bound is not parsed: prop finds nothing
					expect(printed(deepResult.frontmatter), name).toBeLessThanOrEqual(ECHO_MAX_BYTES);
					for (const [k, v] of Object.entries(deepResult.frontmatter))
						expect(v, `${name} ${k}`).toEqual(parsed[k]);
					const cut = Object.keys(parsed).filter((k) => !(k in deepResult.frontmatter));
					if (cut.length > 0) expect(result.limitations.join('\n'), name).toContain('deep.md (');
					expect(printed(result), name).toBeLessThanOrEqual(
						ECHO_MAX_BYTES + 2 * Buffer.byteLength(text) + 8192,
					);
				}
			}),
			{ numRuns: 60 },
		);
	});
});
