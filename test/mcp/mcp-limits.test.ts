import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE_VAULT } from '../helpers/paths';
import { call, connect, type Connected } from './client';

describe('MCP limits: echoes of arguments are capped, __proto__ is an unknown parameter, resources are paged', () => {
	let server: Connected;
	beforeAll(async () => {
		server = await connect(EXAMPLE_VAULT);
	});
	afterAll(async () => {
		await server.close();
	});

	it('a 1 MB argument is not sent back: error and empty answers stay within the 64 KB budget', async () => {
		const big = 'q'.repeat(1_000_000);
		const cases: [string, Record<string, unknown>][] = [
			['search', { query: `/${big}(/` }],
			['query', { type: 'prop', key: big }],
			['query', { type: 'grep', pattern: `/${big}[/` }],
			['read', { operation: 'lookup', slug: big }],
		];
		for (const [name, args] of cases) {
			const out = await call(server.client, name, args);
			expect(out.bytes, name).toBeLessThanOrEqual(64 * 1024);
			expect(JSON.stringify(out.json), name).toContain('characters; cut');
		}
	});

	it('a `__proto__` key in tool arguments is rejected as an unknown parameter', async () => {
		const args = JSON.parse('{"query":"valuation","__proto__":{"limit":1}}') as Record<string, unknown>;
		await expect(server.client.callTool({ name: 'search', arguments: args })).rejects.toMatchObject({
			code: -32602,
			message: expect.stringContaining('__proto__') as unknown,
		});
	});
});

describe('resources/list pages a large vault with nextCursor', () => {
	it('lists 1,205 notes as a page of 1,000 and a page of 205, each note once', async () => {
		const vault = mkdtempSync(join(tmpdir(), 'vq-many-notes-'));
		mkdirSync(join(vault, 'n'));
		for (let i = 0; i < 1205; i++) writeFileSync(join(vault, 'n', `note-${i}.md`), `Note ${i}.\n`);
		const server = await connect(vault);
		try {
			// The client follows nextCursor to the end when asked without a cursor: every note, once.
			expect((await server.client.listResources()).resources).toHaveLength(1205);
			const first = await server.client.listResources({ cursor: '0' });
			expect(first.resources).toHaveLength(1000);
			expect(first.nextCursor).toBeTypeOf('string');
			const second = await server.client.listResources({ cursor: first.nextCursor });
			expect(second.resources).toHaveLength(205);
			expect(second.nextCursor).toBeUndefined();
			const names = new Set([...first.resources, ...second.resources].map((r) => r.name));
			expect(names.size).toBe(1205);
			await expect(server.client.listResources({ cursor: 'nonsense' })).rejects.toMatchObject({ code: -32602 });
		} finally {
			await server.close();
		}
	});
});
