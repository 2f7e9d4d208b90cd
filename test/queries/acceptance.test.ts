import { describe, expect, it } from 'vitest';
import type { LinkResult, NoteResult, QueryResult } from '../../src/core/contract';
import { cliJson } from '../helpers/cli';
import { EXAMPLE_VAULT } from '../helpers/paths';

const V = ['--vault', EXAMPLE_VAULT];
const DECISION = 'decisions/2026-06-20-adopt-obsidian-and-ob1-patterns.md';

// The four acceptance queries of seed 000 (vault-querier), run through the CLI on examples/vault.
describe('seed acceptance queries', () => {
	it('backlinks to conventions: Home, the decision and several folder READMEs', async () => {
		const { code, json } = await cliJson<QueryResult<NoteResult>>(['backlinks', 'conventions', ...V]);
		expect(code).toBe(0);
		const paths = json.results.map((r) => r.path);
		expect(paths).toEqual(
			expect.arrayContaining([
				'Home.md',
				DECISION,
				'facts/README.md',
				'decisions/README.md',
				'insights/README.md',
				'research/README.md',
			]),
		);
		expect(json.results.length).toBeGreaterThanOrEqual(3);
		// The decision links from its body and from its `links:` field.
		expect(json.results.find((r) => r.path === DECISION)?.source).toBe('both');
		expect(json.results.find((r) => r.path === 'Home.md')?.source).toBe('body');
	});

	it('backlinks to sdlc-modernization: at least Home and the decision', async () => {
		const { json } = await cliJson<QueryResult<NoteResult>>(['backlinks', 'sdlc-modernization', ...V]);
		expect(json.results.map((r) => r.path)).toEqual(expect.arrayContaining(['Home.md', DECISION]));
	});

	it('forward links of the decision: sdlc-modernization and conventions', async () => {
		const { code, json } = await cliJson<QueryResult<LinkResult>>([
			'links',
			'2026-06-20-adopt-obsidian-and-ob1-patterns',
			...V,
		]);
		expect(code).toBe(0);
		expect(json.results.map((r) => r.linkpath)).toEqual(['sdlc-modernization', 'conventions']);
		expect(json.results.map((r) => r.resolved)).toEqual(['sdlc-modernization.md', 'conventions.md']);
		expect(json.results.every((r) => r.source === 'both')).toBe(true);
	});

	it('full text "OB1": the decision and Home, nothing from excluded folders', async () => {
		const { json } = await cliJson<QueryResult<NoteResult>>(['grep', 'OB1', ...V]);
		expect(json.results.map((r) => r.path).sort()).toEqual([DECISION, 'Home.md'].sort());
		// Authority order: decisions/ before the rest.
		expect(json.results[0]!.path).toBe(DECISION);
	});
});
