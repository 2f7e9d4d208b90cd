import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli';
import { hashTree } from '../helpers/hash';
import { EXAMPLE_VAULT } from '../helpers/paths';
import { call, connect, type Connected } from './client';

/** A CLI flag (`--limit`, `--schema`) in advice an MCP client cannot follow. */
const CLI_FLAG = /(^|\s|\()--[a-z]/;

/** The numbered result lines of a search's text (`1. path — title …`). */
function listedPaths(text: string): string[] {
	return [...text.matchAll(/^\d+\. (\S+) — /gm)].map((m) => m[1]!);
}

describe('MCP answers say what they hold: a cut, the offset that continues, advice in the tools’ terms', () => {
	let root: string;
	let vault: string;
	let small: Connected;
	let before: string;

	beforeAll(async () => {
		root = mkdtempSync(join(tmpdir(), 'vq-honest-'));
		vault = join(root, 'vault');
		cpSync(EXAMPLE_VAULT, vault, { recursive: true });
		// A vault without a schema note: what a new user's vault is.
		rmSync(join(vault, '_meta', 'frontmatter-schema.md'));
		before = hashTree(vault);
		small = await connect(vault, { extra: ['--max-bytes', '4096'] });
	});

	afterAll(async () => {
		await small.close();
		expect(hashTree(vault), 'the vault is byte-identical after the session').toBe(before);
		rmSync(root, { recursive: true, force: true });
	});

	it('a search cut for size lists the same results in its text as in structuredContent, says kept of total, and the exact offset to continue', async () => {
		const full = JSON.parse(
			(await cli(['search', 'note', '--limit', '40', '--json', '--vault', vault])).stdout,
		) as {
			results: { path: string }[];
			matched: number;
		};
		expect(full.results.length).toBeGreaterThan(4);
		const first = await call(small.client, 'search', { query: 'note', limit: 40 });
		const cut = first.json.truncated as { kept: number; total: number; next: string };
		const kept = (first.json.results ?? []).map((r) => r.path as string);
		expect(cut.kept).toBe(kept.length);
		expect(cut.kept).toBeLessThan(full.results.length);
		expect(cut.total).toBe(full.results.length);
		expect(kept).toEqual(full.results.slice(0, cut.kept).map((r) => r.path));
		// The text lists exactly what structuredContent kept, and says the cut and the next call in the same numbers.
		expect(listedPaths(first.text)).toEqual(kept);
		expect(first.text).toContain(`${full.matched} notes matched, showing ${cut.kept}`);
		expect(first.text).toContain(`Cut to ${cut.kept} of ${cut.total} results`);
		expect(first.text).toContain(`call search again with offset: ${cut.kept}`);
		expect(cut.next).toBe(`call search again with offset: ${cut.kept}`);
		expect(first.text).not.toContain('full results in structuredContent');
		// The offset continues exactly where the cut left off.
		const rest = await call(small.client, 'search', { query: 'note', limit: 40, offset: cut.kept });
		expect((rest.json.results ?? [])[0]?.path).toBe(full.results[cut.kept]!.path);
	});

	it('a search that stops at its limit says the offset that gets more, in text', async () => {
		const out = await call(small.client, 'search', { query: 'note', limit: 2 });
		expect(out.json.truncated).toBeUndefined();
		expect(out.text).toContain('More: call search again with offset: 2.');
	});

	it('a query cut at its limit words its limitation with the tool’s offset, not a CLI flag', async () => {
		const out = await call(small.client, 'query', { type: 'tag', tag: 'project', limit: 1 });
		const limitations = out.json.limitations ?? [];
		expect(limitations.some((l) => l.includes('(call query again with offset: 1)'))).toBe(true);
		for (const line of [...limitations, out.text]) expect(line).not.toMatch(CLI_FLAG);
	});

	it('read on a vault with no schema note fails naming the path, and advises schema: "draft", not a CLI flag', async () => {
		const out = await call(small.client, 'read', { operation: 'filter', where: { status: 'active' } });
		expect(out.isError).toBe(true);
		expect(out.json.error).toContain(join(vault, '_meta', 'frontmatter-schema.md'));
		expect(out.json.error).toContain('schema: "draft"');
		expect(out.json.error).not.toMatch(CLI_FLAG);
		expect(out.text).not.toMatch(CLI_FLAG);
	});

	it('read with schema: "draft" reads against the schema drafted in memory, and finds what the CLI finds with that draft saved', async () => {
		const out = await call(small.client, 'read', { operation: 'filter', where: { status: 'active' } });
		expect(out.isError).toBe(true);
		const drafted = await call(small.client, 'read', {
			operation: 'filter',
			where: { status: 'active' },
			folders: ['all'],
			schema: 'draft',
		});
		expect(drafted.isError).toBe(false);
		expect(drafted.json.status).not.toBe('failed');
		const outside = join(root, 'schema.md');
		writeFileSync(outside, (await cli(['schema', 'draft', '--vault', vault])).stdout);
		const printed = JSON.parse(
			(
				await cli([
					'filter',
					'--where',
					'status=active',
					'--folders',
					'all',
					'--schema',
					outside,
					'--json',
					'--vault',
					vault,
				])
			).stdout,
		) as { results: { path: string }[] };
		expect(printed.results.length).toBeGreaterThan(0);
		// This server cuts answers at 4 KB: what it kept is the head of the CLI's list.
		const kept = (drafted.json.results ?? []).map((r) => r.path);
		expect(kept.length).toBeGreaterThan(0);
		expect(kept).toEqual(printed.results.slice(0, kept.length).map((r) => r.path));
	});

	it('an absolute schema path outside the vault is read where it is, never joined onto the vault path', async () => {
		const outside = join(root, 'outside-schema.md');
		writeFileSync(outside, (await cli(['schema', 'draft', '--vault', vault])).stdout);
		const out = await call(small.client, 'read', {
			operation: 'filter',
			where: { status: 'active' },
			folders: ['all'],
			schema: outside,
		});
		expect(out.isError).toBe(false);
		expect((out.json.schema as { path: string }).path).toBe(outside);
		const missing = join(root, 'nowhere', 'schema.md');
		const gone = await call(small.client, 'read', {
			operation: 'filter',
			where: { status: 'active' },
			schema: missing,
		});
		expect(gone.isError).toBe(true);
		expect(gone.json.error).toContain(missing);
		expect(gone.json.error).not.toContain(join(vault, missing));
	});

	it('the read tool says it takes an absolute path outside the vault and "draft"', async () => {
		const { tools } = await small.client.listTools();
		const read = tools.find((t) => t.name === 'read');
		expect(read?.description).toMatch(/outside the vault/);
		const schema = (read?.inputSchema.properties ?? {}).schema as { description: string };
		expect(schema.description).toMatch(/absolute path/);
		expect(schema.description).toMatch(/"draft"/);
	});
});
