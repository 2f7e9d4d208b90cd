/**
 * The MCP `base` tool and base-scoped packs through the official client SDK: the bases and their
 * views listed, a view's rows as `vault-query base --json` gives them, offset paging and the byte
 * cap at whole rows, bad names named; a pack with `base` quotes only that view's notes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashTree } from '../helpers/hash';
import { cli } from '../helpers/cli';
import { EXAMPLE_VAULT } from '../helpers/paths';
import { call, connect, type Connected } from './client';
import { VaultEngine } from '../../src/core/engine/engine';
import { baseTool } from '../../src/mcp/base-tool';
import { openVault } from '../../src/node/vault-source';
import type { VaultSession } from '../../src/warm/session';

describe('MCP base tool (examples/vault)', () => {
	let server: Connected;
	let before: string;

	beforeAll(async () => {
		before = hashTree(EXAMPLE_VAULT);
		server = await connect(EXAMPLE_VAULT);
	});

	afterAll(async () => {
		await server.close();
		expect(hashTree(EXAMPLE_VAULT)).toBe(before);
	});

	it('lists the bases and their views when no base is named', async () => {
		const r = await call(server.client, 'base', {});
		expect(r.isError).toBe(false);
		expect(r.json).toMatchObject({
			status: 'success',
			bases: [{ path: 'skills.base', views: ['Top rated', 'By domain', 'Stale'] }],
		});
	});

	it("returns a view's rows with the same object as the CLI's --json", async () => {
		const r = await call(server.client, 'base', { base: 'skills.base', view: 'By domain' });
		const viaCli: unknown = JSON.parse(
			(await cli(['base', 'skills.base', '--view', 'By domain', '--json', '--vault', EXAMPLE_VAULT])).stdout,
		);
		expect(r.json).toEqual(viaCli);
		expect(r.text.split('\n')[0]).toBe('skills.base › By domain: 3 rows');
	});

	it('pages with offset, moving group indexes with the rows', async () => {
		const r = await call(server.client, 'base', { base: 'skills.base', view: 'By domain', offset: 1 });
		const rows = r.json.rows as { path: string }[];
		expect(rows.map((row) => row.path)).toEqual(['skill-lab/dcf-valuation.md', 'skill-lab/position-sizing.md']);
		expect(r.json.groups).toEqual([{ value: 'investing', rows: [0, 1] }]);
	});

	it('cuts a response over the byte cap at a whole row and says how to continue', async () => {
		// The server's smallest cap (4 KB) holds this vault's whole view, so the tool's bound is driven in-process.
		const engine = new VaultEngine(await openVault(EXAMPLE_VAULT));
		const session = {
			use: <T>(f: (s: { engine: VaultEngine }) => Promise<T>) => f({ engine }),
		} as unknown as VaultSession;
		const answer = await baseTool.run({ base: 'skills.base', view: 'By domain' }, session);
		const cut = answer.bound!(answer.structured, 900) as {
			rows: unknown[];
			truncated: { kept: number; next: string };
		};
		expect(cut.rows.length).toBe(cut.truncated.kept);
		expect(cut.truncated.kept).toBeLessThan(3);
		expect(cut.truncated.next).toBe(`call base again with offset: ${cut.truncated.kept}`);
	});

	it('a bad base or view is an error naming it', async () => {
		const r = await call(server.client, 'base', { base: 'skills.base', view: 'Nope' });
		expect(r.isError).toBe(true);
		expect(r.json.error).toBe('view: no view "Nope" in skills.base (views: "Top rated", "By domain", "Stale")');
	});

	it("pack with base quotes only the notes of the view's rows", async () => {
		const scoped = await call(server.client, 'pack', {
			question: 'position sizing and valuation',
			base: 'skills.base#Top rated',
			today: '2026-07-01',
		});
		const paths = (scoped.json as { pack: { path: string }[] }).pack.map((s) => s.path);
		expect(paths.length).toBeGreaterThan(0);
		expect(new Set(paths).size).toBeLessThanOrEqual(2);
		for (const p of paths)
			expect(['skill-lab/dcf-valuation.md', 'skill-lab/code-review-checklist.md']).toContain(p);
		const open = await call(server.client, 'pack', {
			question: 'position sizing and valuation',
			today: '2026-07-01',
		});
		expect((open.json as { pack: { path: string }[] }).pack.some((s) => s.path.includes('position-sizing'))).toBe(
			true,
		);
		const bad = await call(server.client, 'pack', { question: 'x', base: 'nope.base' });
		expect(bad.json.error).toMatch(/^base: no base file "nope.base"/);
	});
});
