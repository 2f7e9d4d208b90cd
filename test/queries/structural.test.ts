import { describe, expect, it } from 'vitest';
import type { NoteResult, QueryResult } from '../../src/core/contract';
import { cliJson } from '../helpers/cli';
import { EXAMPLE_VAULT } from '../helpers/paths';

const V = ['--vault', EXAMPLE_VAULT];
type Notes = QueryResult<NoteResult>;
const paths = (r: Notes): string[] => r.results.map((n) => n.path).sort();

describe('tag', () => {
	it('matches frontmatter and inline tags, with or without #, case-insensitively', async () => {
		const a = await cliJson<Notes>(['tag', 'copilot', ...V]);
		const b = await cliJson<Notes>(['tag', '#COPILOT', ...V]);
		expect(paths(a.json)).toEqual(['facts/copilot-data-retention.md', 'research/copilot-data-handling.md']);
		expect(paths(b.json)).toEqual(paths(a.json));
	});

	it('is nested: #project matches #project/alpha and #project/alpha/pilot', async () => {
		const { json } = await cliJson<Notes>(['tag', 'project', ...V]);
		expect(paths(json)).toEqual(['projects/alpha.md', 'sdlc-modernization.md']);
		const alpha = await cliJson<Notes>(['tag', 'project/alpha/pilot', ...V]);
		expect(paths(alpha.json)).toEqual(['projects/alpha.md']);
	});

	it('does not treat a prefix as a parent: #proj matches nothing and suggests a near tag', async () => {
		const { code, json } = await cliJson<Notes>(['tag', 'projet', ...V]);
		expect(code).toBe(1);
		expect(json.status).not.toBe('failed');
		expect(json.suggestions?.join(' ')).toContain('#project');
	});

	it('finds unicode tags', async () => {
		const { json } = await cliJson<Notes>(['tag', '中文', ...V]);
		expect(paths(json)).toEqual(['notes/多语言笔记.md']);
	});

	it('ignores tags in code blocks and in excluded folders', async () => {
		const { code } = await cliJson<Notes>(['tag', 'not-a-tag', ...V]);
		expect(code).toBe(1);
	});
});

describe('prop', () => {
	it('equals, case-insensitively', async () => {
		const { json } = await cliJson<Notes>(['prop', 'status', 'OPEN', ...V]);
		expect(paths(json)).toEqual(['research/copilot-data-handling.md', 'sdlc-modernization.md']);
	});

	it('lists match by membership and key=value works', async () => {
		const { json } = await cliJson<Notes>(['prop', 'deciders=platform-team', ...V]);
		expect(paths(json)).toEqual(['decisions/2026-06-20-adopt-obsidian-and-ob1-patterns.md']);
	});

	it('contains matches a substring', async () => {
		const { json } = await cliJson<Notes>(['prop', 'question', 'copilot', '--contains', ...V]);
		expect(paths(json)).toEqual(['research/copilot-data-handling.md']);
	});

	it('a link-valued property matches the bare note name', async () => {
		const { json } = await cliJson<Notes>(['prop', 'owner', 'people/ana-lima', ...V]);
		expect(paths(json)).toEqual(['sdlc-modernization.md']);
	});

	it('a near-miss key answers with "did you mean", never a silent empty list', async () => {
		const { code, json } = await cliJson<Notes>(['prop', 'Status', 'open', ...V]);
		expect(code).toBe(1);
		expect(json.results).toEqual([]);
		expect(json.suggestions).toEqual(['did you mean property "status"?']);
		expect(json.limitations.join(' ')).toContain('No note in scope has a property named "Status"');
	});

	it('reports the note with malformed frontmatter as partly read', async () => {
		const { json } = await cliJson<Notes>(['prop', 'status', 'open', ...V]);
		expect(json.status).toBe('partial');
		const skip = json.skipped.find((s) => s.path === 'notes/broken-frontmatter.md');
		expect(skip?.reason).toMatch(/frontmatter not parsed/);
	});
});

describe('backlinks', () => {
	it('marks frontmatter-only links (property [[links]], legacy [[[name]]] links: field)', async () => {
		const { json } = await cliJson<Notes>(['backlinks', 'research/copilot-data-handling', ...V]);
		const byPath = Object.fromEntries(json.results.map((r) => [r.path, r.source]));
		expect(byPath['facts/copilot-data-retention.md']).toBe('both');
		expect(byPath['digests/2026-w25.md']).toBe('body');
		expect(byPath['people/ravi-patel.md']).toBe('body');
		const conventions = await cliJson<Notes>(['backlinks', 'conventions', ...V]);
		const insight = conventions.json.results.find((r) => r.path === 'insights/agents-read-before-they-search.md');
		expect(insight?.source).toBe('frontmatter');
	});

	it('counts links from a list property of [[links]] as frontmatter', async () => {
		const { json } = await cliJson<Notes>(['backlinks', 'people/ana-lima', ...V]);
		expect(Object.fromEntries(json.results.map((r) => [r.path, r.source]))).toEqual({
			'events/2026-06-20-architecture-review.md': 'frontmatter',
			'sdlc-modernization.md': 'frontmatter',
		});
	});

	it('leaves out excluded folders and Obsidian "Excluded files"', async () => {
		const { json } = await cliJson<Notes>(['backlinks', 'conventions', ...V]);
		const all = json.results.map((r) => r.path);
		expect(
			all.some((p) => p.startsWith('.templates/') || p.startsWith('_inbox/') || p.startsWith('archive/old/')),
		).toBe(false);
		expect(json.limitations.join('\n')).toMatch(/Excluded files: archive\/old\//);
	});

	it('an ambiguous note name is reported, not guessed', async () => {
		const { code, json, stderr } = await cliJson<Notes>(['backlinks', 'README', ...V]);
		expect(code).toBe(2);
		expect(json.status).toBe('failed');
		expect(stderr).toMatch(/"README" names 5 notes/);
	});

	it('an unknown note name is reported with near names', async () => {
		const { code, stderr } = await cliJson<Notes>(['backlinks', 'convention', ...V]);
		expect(code).toBe(2);
		expect(stderr).toMatch(/no note named "convention".*did you mean "conventions"/);
	});
});

describe('grep', () => {
	it('gives line numbers and two lines of context, frontmatter excluded', async () => {
		const { json } = await cliJson<Notes>(['grep', 'FFIEC IT Handbook', ...V]);
		expect(json.results).toHaveLength(1);
		const [match] = json.results[0]!.matches ?? [];
		expect(match!.line).toBe(14);
		expect(match!.text).toContain('FFIEC IT Handbook');
		expect(match!.before).toEqual([
			'What do we know about Copilot data handling? The facts so far are in [[copilot-data-retention]].',
			'',
		]);
		expect(match!.after).toHaveLength(2);
		expect(json.results[0]!.excerpt).toContain('FFIEC IT Handbook');
	});

	it('does not search frontmatter', async () => {
		const { code } = await cliJson<Notes>(['grep', 'decided_on', ...V]);
		expect(code).toBe(1);
	});

	it('regex, case-sensitive on request', async () => {
		const insensitive = await cliJson<Notes>(['grep', '^## goals$', '--regex', ...V]);
		expect(paths(insensitive.json)).toEqual(['sdlc-modernization.md']);
		const sensitive = await cliJson<Notes>(['grep', '^## goals$', '--regex', '--case-sensitive', ...V]);
		expect(sensitive.code).toBe(1);
	});

	it('searches the body of a note whose frontmatter is malformed', async () => {
		const { json } = await cliJson<Notes>(['grep', 'never closes its list', ...V]);
		expect(paths(json)).toEqual(['notes/broken-frontmatter.md']);
		// Listed as skipped (its frontmatter was not searched), so partial, as tag and search say.
		expect(json.status).toBe('partial');
	});

	it('an invalid regex fails naming the compile error', async () => {
		const { code, json, stderr } = await cliJson<Notes>(['grep', '([a-z', '--regex', ...V]);
		expect(code).toBe(2);
		expect(json.error).toMatch(/^pattern: invalid regular expression \(RE2 syntax\): missing closing \]/);
		expect(stderr).toMatch(/missing closing \]/);
	});

	it('a pattern that backtracks exponentially elsewhere runs in linear time and answers', async () => {
		const { code, json } = await cliJson<Notes>(['grep', '(a+)+$', '--regex', ...V]);
		expect(code).toBe(0);
		expect(json.status).not.toBe('failed');
	});

	it('a backreference or lookaround is refused, naming the feature', async () => {
		const back = await cliJson<Notes>(['grep', '(ru)le\\1', '--regex', ...V]);
		expect(back.code).toBe(2);
		expect(back.json.error).toBe(
			'pattern: refused, "\\1" is a backreference, which linear-time regular expressions (RE2 syntax) do not support; rewrite the pattern without it',
		);
		expect((await cliJson<Notes>(['grep', 'rules(?= of)', '--regex', ...V])).json.error).toContain(
			'"(?=" is a lookahead',
		);
		// Built from parts: the lint rule for iOS takes any string holding "(?<!" for a regex.
		const lookbehind = ['(?<', '!'].join('');
		expect((await cliJson<Notes>(['grep', `${lookbehind}the )rules`, '--regex', ...V])).json.error).toContain(
			`"${lookbehind}" is a lookbehind`,
		);
	});

	it('a 100 KB literal is refused with its length and the limit, never an internal error', async () => {
		const { code, json } = await cliJson<Notes>(['grep', 'x'.repeat(100_000), ...V]);
		expect(code).toBe(2);
		expect(json.error).toBe('pattern: 100000 characters is longer than the 10000-character limit for a literal');
		const long = await cliJson<Notes>(['grep', `rules${'.'.repeat(2000)}`, '--regex', ...V]);
		expect(long.json.error).toBe(
			'pattern: 2005 characters is longer than the 1000-character limit for a regular expression',
		);
	});

	it('a literal full of regex syntax is matched as typed', async () => {
		const { code, json } = await cliJson<Notes>(['grep', '[[conventions]]', ...V]);
		expect(code).toBe(0);
		expect(json.matched).toBeGreaterThan(0);
	});
});

describe('result contract and order', () => {
	it('each note result has the DESIGN.md fields', async () => {
		const { json } = await cliJson<Notes>(['backlinks', 'conventions', ...V]);
		expect(Object.keys(json).sort()).toEqual([
			'limitations',
			'matched',
			'query',
			'results',
			'searched',
			'skipped',
			'status',
		]);
		const decision = json.results.find((r) => r.path.startsWith('decisions/2026'));
		expect(decision).toMatchObject({
			title: '2026-06-20-adopt-obsidian-and-ob1-patterns', // Obsidian's rule: the file name (issue 9 case 1), not the H1 the seed showed
			folder: 'decisions',
			frontmatter: { status: 'accepted', links: ['sdlc-modernization', 'conventions'] },
			forward_links: ['sdlc-modernization', 'conventions'],
		});
		expect(decision?.backlinks).toEqual([{ path: 'Home.md', source: 'body' }]);
	});

	it('orders authority folders first, then by path, and truncates with a limitation', async () => {
		const { json } = await cliJson<Notes>(['backlinks', 'conventions', '--limit', '3', ...V]);
		expect(json.results.map((r) => r.path)).toEqual([
			'decisions/2026-06-20-adopt-obsidian-and-ob1-patterns.md',
			'decisions/README.md',
			'facts/README.md',
		]);
		expect(json.matched).toBeGreaterThan(3);
		expect(json.limitations.join(' ')).toMatch(/Truncated to 3 of \d+/);
	});

	it('--folders narrows, and an unknown folder is an error naming it', async () => {
		const { json } = await cliJson<Notes>(['backlinks', 'conventions', '--folders', 'facts,research', ...V]);
		expect(paths(json)).toEqual(['facts/README.md', 'research/README.md']);
		const bad = await cliJson<Notes>(['grep', 'x', '--folders', 'nope', ...V]);
		expect(bad.code).toBe(2);
		expect(bad.json.error).toMatch(/folders: no notes under "nope\/"/);
	});
});
