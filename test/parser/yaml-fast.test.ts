/**
 * The frontmatter fast path must give exactly what js-yaml (core schema) gives, or step aside
 * (`undefined`). Property test over generated frontmatter built from tricky pieces.
 */
import fc from 'fast-check';
import { CORE_SCHEMA, load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { parseSimpleYaml } from '../../src/node/parser/yaml-fast';

const KEYS = [
	'tags',
	'aliases',
	'a',
	'creation date',
	'TQ_x',
	'k.v',
	'null',
	'True',
	'__proto__',
	'a b ',
	'-x',
	'x:y',
	'k',
];
const SCALARS = [
	'1',
	'-1',
	'+12',
	'0x1F',
	'0o17',
	'0b101',
	'1_000',
	'012',
	'1.5',
	'1e3',
	'.inf',
	'-.Inf',
	'.nan',
	'~',
	'null',
	'Null',
	'true',
	'FALSE',
	'yes',
	'no',
	'2024-07-21',
	'2024-07-21T12:37:00',
	'12:30',
	'plain text',
	'C#',
	"it's",
	'a "quoted" word',
	'"dq"',
	'"d\\"q"',
	"'sq'",
	"'s''q'",
	'[]',
	'{}',
	'[a, b]',
	'"[[Note]]"',
	'[[Note]]',
	'https://x.org/a#b',
	'a: b',
	'a #c',
	'#tag',
	'- x',
	'*alias',
	'&a x',
	'!tag x',
	'|',
	'>',
	'%x',
	'@x',
	'`x`',
	'ü ñ 日本',
	'x\t',
	' ',
	'',
];

const line = fc.oneof(
	fc.tuple(fc.constantFrom(...KEYS), fc.constantFrom(...SCALARS)).map(([k, v]) => `${k}: ${v}`),
	fc.tuple(fc.constantFrom(...KEYS), fc.constantFrom('', ' ')).map(([k, sp]) => `${k}:${sp}`),
	fc.tuple(fc.constantFrom('', '  ', '    ', ' '), fc.constantFrom(...SCALARS)).map(([ind, v]) => `${ind}- ${v}`),
	fc.constantFrom('', '  ', '-', '  -', '# comment', '---', '...', 'k:\r', '\tk: v'),
);

describe('frontmatter fast path', () => {
	it('agrees with js-yaml core schema whenever it answers', () => {
		fc.assert(
			fc.property(fc.array(line, { minLength: 0, maxLength: 8 }), (lines) => {
				const src = lines.join('\n');
				const fast = parseSimpleYaml(src);
				if (fast === undefined) return;
				const slow: unknown = load(src, { schema: CORE_SCHEMA });
				expect(fast).toEqual(slow);
			}),
			{ numRuns: 5000 },
		);
	});

	it('answers for the common shapes', () => {
		expect(
			parseSimpleYaml('permalink: sync/faq\npublish: true\ncssclasses:\n  - soft-embed\ndate: 2024-07-21'),
		).toEqual({
			permalink: 'sync/faq',
			publish: true,
			cssclasses: ['soft-embed'],
			date: '2024-07-21',
		});
	});
});
