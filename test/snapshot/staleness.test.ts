/**
 * The snapshot is never stale: random sequences of edits between CLI calls — new notes, edits,
 * same-size edits with the mtime put back, renames, deletions, attachments, notes turned binary, a changed "Excluded
 * files" setting — and after each one, every answer through the snapshot and the saved search
 * and trigram indexes (search, pack, grep, phrases, regexes, another links key) equals the answer
 * of a full read (`--no-cache`). The racy window is 0 here so unchanged notes really are kept.
 */
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli';

const NAMES = ['n0.md', 'n1.md', 'n2.md', 'f/n3.md', 'f/n4.md', 'g/n0.md'];
const WORDS = ['alpha', 'gamma', 'delta'];
const TAGS = ['#aa', '#bb'];
const WHOLE_SECOND = 1_700_000_000;
const SWAPS: [RegExp, string, string][] = [
	[/alpha|gamma/, 'alpha', 'gamma'],
	[/#aa|#bb/, '#aa', '#bb'],
	[/\[\[n0\]\]|\[\[n1\]\]/, '[[n0]]', '[[n1]]'],
	[/status: (open|done)/, 'status: open', 'status: done'],
];

/** A note's text: frontmatter, a heading, words, tags and links, all drawn from small sets so queries hit. */
const noteText = fc
	.record({
		status: fc.constantFrom('open', 'done'),
		words: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 }),
		tags: fc.subarray(TAGS),
		links: fc.array(fc.constantFrom('n0', 'n1', 'n2', 'n3', 'pic.png', 'f/n4'), { maxLength: 3 }),
		related: fc.option(fc.constantFrom('n1', 'n2'), { nil: undefined }),
		// A `[[…]]` property value: backlinks tell frontmatter from body links (and both) by it.
		up: fc.option(fc.constantFrom('n0', 'n2'), { nil: undefined }),
		// Frontmatter tags too (a nested one among them): the snapshot keeps each note's tag list beside its metadata.
		fmTags: fc.subarray(['aa/sub', 'cc']),
	})
	.map(
		(r) =>
			`---\nstatus: ${r.status}\n${r.up ? `up: "[[${r.up}]]"\n` : ''}${r.related ? `related:\n  - ${r.related}\n` : ''}${r.fmTags.length > 0 ? `tags: [${r.fmTags.join(', ')}]\n` : ''}---\n# Title\n\n${r.words.join(' ')} ${r.tags.join(' ')}\n\n${r.links.map((l) => `[[${l}]]`).join(' ')}\n`,
	);

type Op =
	| { kind: 'write'; name: string; text: string }
	| { kind: 'same-size'; name: string; word: number }
	| { kind: 'rename'; name: string; to: string }
	| { kind: 'delete'; name: string }
	| { kind: 'attachment'; present: boolean }
	| { kind: 'binary'; name: string }
	| { kind: 'exclude'; folders: string[] };

const name = fc.constantFrom(...NAMES);
const op: fc.Arbitrary<Op> = fc.oneof(
	fc.record({ kind: fc.constant('write' as const), name, text: noteText }),
	fc.record({ kind: fc.constant('same-size' as const), name, word: fc.nat(3) }),
	fc.record({ kind: fc.constant('rename' as const), name, to: name }),
	fc.record({ kind: fc.constant('delete' as const), name }),
	fc.record({ kind: fc.constant('attachment' as const), present: fc.boolean() }),
	fc.record({ kind: fc.constant('binary' as const), name }),
	fc.record({ kind: fc.constant('exclude' as const), folders: fc.subarray(['f/', 'g/']) }),
);

/** Apply one edit to the vault on disk (edits of missing notes do nothing). */
function apply(vault: string, o: Op): void {
	const at = (n: string): string => join(vault, n);
	const exists = (n: string): boolean => {
		try {
			return statSync(at(n)).isFile();
		} catch {
			return false;
		}
	};
	switch (o.kind) {
		case 'write':
			mkdirSync(dirname(at(o.name)), { recursive: true });
			writeFileSync(at(o.name), o.text);
			// Whole seconds, so a same-size edit can put the mtime back exactly (a Date keeps only ms).
			utimesSync(at(o.name), WHOLE_SECOND, WHOLE_SECOND);
			break;
		case 'same-size': {
			if (!exists(o.name)) break;
			const before = statSync(at(o.name));
			const text = readFileSync(at(o.name), 'utf8');
			// Same-length swaps that change what is indexed: a word, a tag, a link target, a property.
			const [pattern, a, b] = SWAPS[o.word]!;
			const swapped = text.replace(pattern, (m) => (m === a ? b : a));
			writeFileSync(at(o.name), swapped);
			utimesSync(at(o.name), before.atime, before.mtime); // same size, same mtime: only ctime moves
			expect(statSync(at(o.name)).mtimeMs).toBe(before.mtimeMs);
			break;
		}
		case 'rename':
			if (!exists(o.name) || exists(o.to)) break;
			mkdirSync(dirname(at(o.to)), { recursive: true });
			renameSync(at(o.name), at(o.to));
			break;
		case 'delete':
			if (exists(o.name)) rmSync(at(o.name));
			break;
		case 'attachment':
			if (o.present) writeFileSync(at('pic.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
			else rmSync(at('pic.png'), { force: true });
			break;
		case 'binary':
			// A note that turns into binary content is skipped, and every answer must say so.
			mkdirSync(dirname(at(o.name)), { recursive: true });
			writeFileSync(at(o.name), Buffer.from([0x00, 0x01, 0x02, 0x61]));
			// Whole seconds as for 'write': a later same-size edit must be able to put this mtime back exactly.
			utimesSync(at(o.name), WHOLE_SECOND, WHOLE_SECOND);
			break;
		case 'exclude':
			mkdirSync(at('.obsidian'), { recursive: true });
			writeFileSync(at('.obsidian/app.json'), JSON.stringify({ userIgnoreFilters: o.folders }));
			break;
	}
}

const QUERIES = [
	['tag', 'aa'],
	['backlinks', 'n0'],
	['links', 'n1'],
	['grep', 'gamma'],
	['prop', 'status', 'open'],
	['search', 'delta'],
	['backlinks', 'n2', '--links-key', 'related'],
	['graph', 'n1', '--folders', 'all'],
	['pack', 'alpha gamma delta'],
	['search', 'gamma alpha', '--links-key', 'related'],
	['search', '"alpha gamma" tag:aa'],
	['grep', 'gam+a', '--regex'],
	['search', 'open n1'],
];

let previousRacy: string | undefined;
beforeAll(() => {
	previousRacy = process.env.VAULT_QUERY_RACY_MS;
	process.env.VAULT_QUERY_RACY_MS = '0';
});
afterAll(() => {
	if (previousRacy === undefined) delete process.env.VAULT_QUERY_RACY_MS;
	else process.env.VAULT_QUERY_RACY_MS = previousRacy;
});

describe('the snapshot is never stale', () => {
	it('answers every query like a full read after random edits between calls', async () => {
		const states = new Map<string, number>();
		/** Ask through the snapshot and in full; they must agree; count what the snapshot did. */
		const check = async (vault: string, q: string[], step: number): Promise<void> => {
			const cached = await cli([...q, '--vault', vault, '--json', '--verbose']);
			const full = await cli([...q, '--vault', vault, '--json', '--no-cache']);
			expect({ q, step, code: cached.code, out: cached.stdout }).toEqual({
				q,
				step,
				code: full.code,
				out: full.stdout,
			});
			const state = /index snapshot (used as saved|refreshed|built)/.exec(cached.stderr)?.[1] ?? 'none';
			states.set(state, (states.get(state) ?? 0) + 1);
			for (const part of cached.stderr.matchAll(/(search|trigrams) index loaded \((\d+) notes/g)) {
				const key = `${part[1]} ${part[2] === '0' ? 'as saved' : 'updated'}`;
				states.set(key, (states.get(key) ?? 0) + 1);
			}
		};
		// One fixed sequence first, so every way of using the saved indexes is met whatever the random draw.
		const fixed = mkdtempSync(join(tmpdir(), 'vq-stale-'));
		try {
			apply(fixed, { kind: 'write', name: 'n0.md', text: '# A\n\nalpha gamma #aa [[n1]]\n' });
			apply(fixed, { kind: 'write', name: 'n1.md', text: '# B\n\ngamma delta\n' });
			for (const [step, q] of [
				['grep', 'gamma'],
				['grep', 'gamma'],
				['search', 'gamma'],
				['search', 'gamma'],
			].entries())
				await check(fixed, q, step);
			apply(fixed, { kind: 'write', name: 'n1.md', text: '# B\n\ngamma alpha delta\n' });
			for (const q of [
				['grep', 'alpha'],
				['search', 'alpha'],
			])
				await check(fixed, q, 9);
		} finally {
			rmSync(fixed, { recursive: true, force: true });
		}
		await fc.assert(
			fc.asyncProperty(
				fc.array(noteText, { minLength: 3, maxLength: 5 }),
				fc.array(op, { minLength: 1, maxLength: 6 }),
				fc.nat(QUERIES.length - 1),
				async (initial, ops, first) => {
					const vault = mkdtempSync(join(tmpdir(), 'vq-stale-'));
					try {
						initial.forEach((text, i) => apply(vault, { kind: 'write', name: NAMES[i]!, text }));
						for (let step = 0; step <= ops.length; step++) {
							if (step > 0) apply(vault, ops[step - 1]!);
							// Two queries per step, rotating, so every query meets every kind of edit.
							for (const q of [
								QUERIES[(first + step) % QUERIES.length],
								QUERIES[(first + step + 3) % QUERIES.length],
							])
								await check(vault, q!, step);
						}
					} finally {
						rmSync(vault, { recursive: true, force: true });
					}
				},
			),
			{ numRuns: 40 },
		);
		// The property would hold trivially if the snapshot were never used: it must have been, both ways.
		expect(states.get('used as saved')).toBeGreaterThan(0);
		expect(states.get('refreshed')).toBeGreaterThan(0);
		expect(states.get('none')).toBeUndefined();
		// The saved search and trigram indexes were used, unchanged and brought up to date.
		for (const key of ['search as saved', 'search updated', 'trigrams as saved', 'trigrams updated'])
			expect(states.get(key) ?? 0, `${key} in ${JSON.stringify([...states])}`).toBeGreaterThan(0);
	}, 240_000);
});
