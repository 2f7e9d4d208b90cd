import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/paths';

/**
 * The pages users read — README.md, CHANGELOG.md and the guide in docs/ — speak the user's
 * language: no word that only means something inside the project (the names of its internal
 * specifications and teams, its working sessions, its issue numbers). A user cannot act on them.
 *
 * Exempt, on purpose:
 * - docs/DESIGN.md is the contributors' design record (CONTRIBUTING.md and the README's
 *   Development section link it; the guide does not). Its issue numbers are how a contributor
 *   finds the discussion behind a decision, which is the point of that page.
 * - docs/BENCHMARKS.md from its "## History" heading on: dated measurement logs kept verbatim so
 *   an old figure can be traced to the build and the conditions it was measured in. The current
 *   table above that heading is checked like every other page.
 */

/** A word that must not appear, what it is, and the pattern that finds it. */
const INTERNAL: { word: string; pattern: RegExp }[] = [
	// "seed" as the name of an internal specification; a random generator's `--seed N` or "random seed" is fine.
	{ word: 'seed', pattern: /(?<!--|random )\bseeds?\b/gi },
	{ word: 'ob1', pattern: /\bob1\b/gi },
	// A team's name; `skill-lab/` as a folder path (a folder of examples/vault, a profile's folder) is fine.
	{ word: 'skill-lab', pattern: /\bskill-lab\b(?!\/)/gi },
	{ word: 'session', pattern: /\bsessions?\b/gi },
	{ word: 'issue number', pattern: /\bissues?[ -]#?\d+|(?<![\w&/])#\d+\b(?![\w-])/gi },
];

/** The page's text that is checked: all of it, or the part above its exempt history. */
function checkedText(path: string, text: string): string {
	if (path === 'docs/BENCHMARKS.md') {
		const history = text.search(/^## History\b/m);
		return history === -1 ? text : text.slice(0, history);
	}
	return text;
}

/** The user-facing pages, repository-relative. */
function userPages(): string[] {
	const guide = readdirSync(join(REPO, 'docs'))
		.filter((name) => name.endsWith('.md') && name !== 'DESIGN.md')
		.sort()
		.map((name) => `docs/${name}`);
	return ['README.md', 'CHANGELOG.md', ...guide];
}

/** Every internal word of a text, as `page:line: word — the line`. */
function findInternalWords(path: string, text: string): string[] {
	const found: string[] = [];
	checkedText(path, text)
		.split('\n')
		.forEach((line, index) => {
			for (const { word, pattern } of INTERNAL)
				for (const hit of line.matchAll(pattern))
					found.push(`${path}:${index + 1}: ${word} ("${hit[0]}") — ${line.trim().slice(0, 120)}`);
		});
	return found;
}

describe('user-facing pages use no internal words', () => {
	it('the checker finds each internal word and lets the legitimate uses through', () => {
		const bad = [
			'the seed spec',
			"the seed's rule",
			'profile OB1',
			'reads skill-lab and more',
			"this session's runs",
			'after issue 14',
			'see #12',
		];
		expect(bad.map((line) => findInternalWords('x.md', line).length)).toEqual(bad.map(() => 1));
		const fine = [
			'gen-vault --seed 14',
			'a random seed',
			'maturity: [seedling]',
			'the folder skill-lab/dcf-valuation.md',
			'`#project/alpha`',
			'a heading ## 2',
			'[[Note#^block]]',
			'C#7 and 8',
		];
		expect(fine.flatMap((line) => findInternalWords('x.md', line))).toEqual([]);
	});

	it('README.md, CHANGELOG.md and every guide page in docs/ are free of them', () => {
		const pages = userPages();
		expect(pages).toEqual(expect.arrayContaining(['README.md', 'CHANGELOG.md', 'docs/cli.md', 'docs/plugin.md']));
		const hits = pages.flatMap((path) => findInternalWords(path, readFileSync(join(REPO, path), 'utf8')));
		expect(hits, 'reword these for users (what the thing does, not what the project calls it)').toEqual([]);
	});

	it("BENCHMARKS.md's current part is checked, only its History is exempt", () => {
		const page = '# Benchmarks\n\nafter issue 3\n\n## History\n\nthis session\n';
		expect(findInternalWords('docs/BENCHMARKS.md', page)).toHaveLength(1);
	});
});
