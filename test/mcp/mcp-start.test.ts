import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE_VAULT } from '../helpers/paths';
import { cli } from '../helpers/cli';
import { waitFor } from '../helpers/wait';
import { heldOpener, HOLD_OPEN_ENV } from '../../src/mcp/run';
import { BUILD_LOG_ENV } from '../../src/node/snapshot/build-log';
import { connect } from './client';

describe('agents connect at once: the handshake introduces the vault, calls wait for what they need and say so', () => {
	let root: string;
	let small: string;
	let large: string;

	beforeAll(() => {
		root = mkdtempSync(join(tmpdir(), 'vq-start-'));
		small = join(root, 'small');
		cpSync(EXAMPLE_VAULT, small, { recursive: true });
		writeFileSync(join(small, 'AGENTS.md'), '# For agents\n\nDecisions live in decisions/; cite them by path.\n');
		// A vault whose first read the test holds (HOLD_OPEN_ENV) until it has seen the start's status.
		large = join(root, 'large');
		for (let folder = 0; folder < 20; folder++) {
			mkdirSync(join(large, `area-${folder}`), { recursive: true });
			for (let i = 0; i < 5; i++)
				writeFileSync(
					join(large, `area-${folder}`, `note-${i}.md`),
					`---\ntags: [area${folder}]\n---\n# Note ${folder}-${i}\n\nwombat ${i} lorem ipsum dolor sit amet\n`,
				);
		}
	});

	afterAll(() => rmSync(root, { recursive: true, force: true }));

	it("initialize's instructions name the note count, the main folders, the schema note and the vault's AGENTS.md, within the cap", async () => {
		const server = await connect(small);
		try {
			const intro = server.client.getInstructions() ?? '';
			const { notes } = JSON.parse((await cli(['status', '--json', '--vault', small])).stdout) as {
				notes: number;
			};
			expect(intro).toContain(`\n${notes} notes; main folders: `);
			expect(intro).toContain('skill-lab/ (');
			expect(intro).toContain('Schema note: _meta/frontmatter-schema.md');
			expect(intro).toContain("The vault's AGENTS.md:");
			expect(intro).toContain('Decisions live in decisions/; cite them by path.');
			expect(intro.length).toBeLessThanOrEqual(4000);
		} finally {
			await server.close();
		}
	});

	it('a vault without a schema note is introduced with the way to read it anyway', async () => {
		const bare = join(root, 'bare');
		mkdirSync(bare);
		writeFileSync(join(bare, 'one.md'), '# One\n');
		const server = await connect(bare);
		try {
			expect(server.client.getInstructions()).toContain('call read with schema: "draft"');
		} finally {
			await server.close();
		}
	});

	it('status answers while the vault is read, saying so; a search waits and says so in progress notifications, then both answer in full', async () => {
		// The server's first read of the vault waits until this file exists: the test sees the start for sure.
		const release = join(root, 'release-large');
		const server = await connect(large, { env: { [HOLD_OPEN_ENV]: release } });
		try {
			// The handshake is answered before the vault is read: status says it is still opening.
			const first = await server.client.callTool({ name: 'status', arguments: {} });
			const building = (first.structuredContent as { building?: { phase: string; detail: string } }).building;
			expect(building?.phase).toBe('opening');
			expect(building?.detail).toMatch(/^opening the vault/);
			const progress: { progress: number; message?: string }[] = [];
			const search = server.client.callTool(
				{ name: 'search', arguments: { query: 'wombat', limit: 3 } },
				{ onprogress: (p) => progress.push(p) },
			);
			// The waiting search says so at once, while the read is still held.
			await waitFor(() => progress.length > 0, { what: 'a progress notification from the waiting search' });
			expect(progress[0]!.message).toMatch(/^waiting: opening the vault/);
			const still = await server.client.callTool({ name: 'status', arguments: {} });
			expect((still.structuredContent as { building?: { phase: string } }).building?.phase).toBe('opening');
			writeFileSync(release, '');
			expect(((await search).structuredContent as { results: unknown[] }).results).toHaveLength(3);
			for (let i = 1; i < progress.length; i++)
				expect(progress[i]!.progress).toBeGreaterThan(progress[i - 1]!.progress);
			// Once open, status is the full one.
			const after = await server.client.callTool({ name: 'status', arguments: {} });
			expect((after.structuredContent as { notes: number }).notes).toBe(100);
			expect((after.structuredContent as { building?: unknown }).building).toBeUndefined();
		} finally {
			await server.close();
		}
	});

	it('from an empty cache the first search waits, says so, and answers as a cold --no-cache search; the next start reads what it saved', async () => {
		const cache = mkdtempSync(join(root, 'cache-'));
		// Each full read of the vault appends a line here: the two servers read it once between them.
		const builds = join(root, 'builds.log');
		const cold = JSON.parse(
			(await cli(['search', 'wombat lorem', '--limit', '5', '--json', '--no-cache', '--vault', large])).stdout,
		) as unknown;
		const release = join(root, 'release-first-search');
		const first = await connect(large, {
			env: { VAULT_QUERY_CACHE_DIR: cache, [BUILD_LOG_ENV]: builds, [HOLD_OPEN_ENV]: release },
		});
		try {
			const progress: { progress: number; message?: string }[] = [];
			const search = first.client.callTool(
				{ name: 'search', arguments: { query: 'wombat lorem', limit: 5 } },
				{ onprogress: (p) => progress.push(p) },
			);
			await waitFor(() => progress.length > 0, { what: 'a progress notification from the waiting search' });
			writeFileSync(release, '');
			expect((await search).structuredContent).toEqual(cold);
			// The start saves after answering; the trigram index is built once the search part is saved.
			await waitFor(
				async () =>
					(
						(await first.client.callTool({ name: 'status', arguments: {} })).structuredContent as {
							trigram_index: { state: string };
						}
					).trigram_index.state === 'ready',
				{ what: 'the first server to save its indexes' },
			);
		} finally {
			await first.close();
		}
		const next = await connect(large, { env: { VAULT_QUERY_CACHE_DIR: cache, [BUILD_LOG_ENV]: builds } });
		try {
			expect(
				(await next.client.callTool({ name: 'search', arguments: { query: 'wombat lorem', limit: 5 } }))
					.structuredContent,
			).toEqual(cold);
			const status = (await next.client.callTool({ name: 'status', arguments: {} })).structuredContent as {
				snapshot: { state: string };
			};
			expect(status.snapshot.state).toBe('warm');
			expect(readFileSync(builds, 'utf8').trim().split('\n')).toHaveLength(1);
		} finally {
			await next.close();
		}
	});

	it('the hold is inert without its variable: the opener is used as given', () => {
		const open = () => Promise.reject(new Error('not called'));
		expect(heldOpener(open, {})).toBe(open);
		expect(heldOpener(open, { [HOLD_OPEN_ENV]: '' })).toBe(open);
	});
});
