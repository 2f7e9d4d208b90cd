/**
 * Fuzzing (issue 13): random Markdown/YAML soup through the parser, the search query parser, the
 * tokenizer and the pack builder. None may throw; each does linear work on a 10 KB input (characters
 * touched, counted by test/helpers/work.ts, a few dozen per character of input, never a clock); every
 * position the parser reports lies within the text, on the line and column its offset names, and
 * every pack quote is text of its note. CI runs a fixed seed; `npm run fuzz` runs many more cases
 * (FUZZ_RUNS, default 20000) from a fresh seed (FUZZ_SEED to replay one).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allLocs } from '../helpers/locs';
import { buildPack } from '../../src/core/pack/pack';
import { parseQuery } from '../../src/core/search/query-parser';
import { SearchIndex } from '../../src/core/search/search';
import { analyzeQueryText, termsOf } from '../../src/core/search/tokenize';
import { parseNote } from '../../src/node/parser/index';
import { loneCrAsLf } from '../../src/node/parser/line-ends';
import { MemorySource } from '../helpers/memory-source';
import { countWork, countWorkAsync, expectLinear } from '../helpers/work';

const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const SEED = Number(process.env.FUZZ_SEED ?? 20261201);
/**
 * Characters the code may touch per character of input (plus {@link SMALL}, for what any input
 * costs): a linear scanner touches a few dozen (37 at most at the fixed seed); a quadratic one on a
 * 10 KB input, thousands (a query parser searching the rest of the query again at every `[`: 1,000).
 */
const WORK_PER_CHAR = 200;
/** The work any input costs, counted as this many characters more. */
const SMALL = 1000;
const BIG = 10_000;

/** Pieces that matter to Markdown, YAML, Obsidian syntax and the tokenizer, plus hostile characters. */
const PIECES = [
	'---\n',
	'...\n',
	'\n',
	'\r',
	'\r\n',
	'\n\n',
	' ',
	'  ',
	'\t',
	'word',
	'Title',
	'[[',
	']]',
	'|',
	'#',
	'#tag',
	'##',
	'# ',
	'`',
	'```',
	'~~~',
	'%%',
	'$$',
	'>',
	'> ',
	'- ',
	'* ',
	'+ ',
	'1. ',
	'1) ',
	'- [ ] ',
	'^id',
	'^constructor',
	':',
	'key: ',
	'a: &x ',
	'*x',
	'[',
	']',
	'(',
	')',
	'![[',
	'](',
	'http://x.y/z',
	'<div>',
	'</div>',
	'<!--',
	'-->',
	'{',
	'}',
	'"',
	"'",
	'\\',
	'!',
	'=',
	'===',
	'***',
	'___',
	'é',
	'ก',
	'สวัสดี',
	'中文',
	'ノート',
	'한국어',
	'\uD800',
	'\uDC00',
	'😀',
	'\u0000',
	'\u200B',
	'\uFEFF',
	'\u2028',
	'tags: [a, b]',
	'links:\n  - "[[n]]"\n',
];
const soup = fc.array(fc.constantFrom(...PIECES), { maxLength: 120 }).map((parts) => parts.join(''));
/** A short soup repeated to about 10 KB: the shape that finds super-linear corners. */
const amplified = fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 12 }).map((parts) => {
	const unit = parts.join('') || 'x';
	return unit.repeat(Math.ceil(BIG / unit.length)).slice(0, BIG);
});
const note = fc.oneof(soup, amplified);
const options = { seed: SEED, numRuns: RUNS };

/** `fn()`'s result, failing when it touches more characters than a linear scan of `input` would. */
function bounded<T>(what: string, input: string, fn: () => T): T {
	const { value, work } = countWork(fn);
	if (work.chars > WORK_PER_CHAR * (input.length + SMALL))
		throw new Error(`${what} touched ${work.chars} characters for an input of ${input.length}`);
	return value;
}

/** Start offsets of each line of `text` (lines end at `\n`). */
function lineStarts(text: string): number[] {
	const starts = [0];
	for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
	return starts;
}

describe(`fuzzing (seed ${SEED}, ${RUNS} runs)`, () => {
	it('the note parser never throws, does linear work, and reports positions inside the text', () => {
		fc.assert(
			fc.property(note, (input) => {
				const { metadata } = bounded('parseNote', input, () => parseNote(input));
				const text = loneCrAsLf(input.charCodeAt(0) === 0xfeff ? input.slice(1) : input);
				const starts = lineStarts(text);
				// Plain checks (thousands of locations per input; `expect` per value is slow).
				for (const loc of allLocs(metadata)) {
					const inside = loc.offset >= 0 && loc.offset <= text.length && starts[loc.line] !== undefined;
					if (!inside || loc.offset - starts[loc.line]! !== loc.col)
						throw new Error(`bad position ${JSON.stringify(loc)} in a text of ${text.length} characters`);
				}
			}),
			options,
		);
	});

	it('the search query parser and the tokenizer never throw and do linear work', () => {
		fc.assert(
			fc.property(note, (input) => {
				const parsed = bounded('parseQuery', input, () => parseQuery(input));
				expect(typeof parsed.text).toBe('string');
				const terms = bounded('termsOf', input, () => termsOf(input));
				for (const t of terms) expect(t.length).toBeGreaterThan(0);
				const query = input.slice(0, 2000);
				bounded('analyzeQueryText', query, () => analyzeQueryText(query));
			}),
			options,
		);
	});

	it('the search query parser reads a query of many unclosed `[` in linear work (a case this fuzzing found)', () => {
		expectLinear('unclosed [', (n) => '[---\n'.repeat(n), parseQuery, 1000);
	});

	it('the pack builder never throws and quotes only text of its notes', async () => {
		await fc.assert(
			fc.asyncProperty(fc.array(soup, { minLength: 1, maxLength: 4 }), soup, async (notes, query) => {
				const files: Record<string, string> = {};
				notes.forEach((text, i) => (files[`n${i}.md`] = `${text}\nfindme words\n`));
				const source = new MemorySource(files);
				const index = await SearchIndex.build(
					source,
					{ keywordIndexPath: '', synonymsPath: '' },
					{ yieldFn: () => Promise.resolve() },
				);
				const { value: pack, work } = await countWorkAsync(() =>
					buildPack(source, index, { query: `findme ${query}`.slice(0, 500), builtAt: '2026-12-01' }),
				);
				const text = Object.values(files).join('').length + 500;
				expect(work.chars, 'characters the pack builder touched').toBeLessThanOrEqual(
					WORK_PER_CHAR * (text + SMALL),
				);
				expect(['success', 'partial', 'failed']).toContain(pack.status);
				// The memory vault serves the text as written (the disk reader turns lone CRs into LFs).
				for (const s of pack.pack) for (const q of s.quotes) expect(files[s.path]).toContain(q);
			}),
			{ ...options, numRuns: Math.max(20, Math.floor(RUNS / 10)) },
		);
	});
});
