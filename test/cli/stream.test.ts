/**
 * A full grep or text-search answer streams (cli/stream.ts): with a high `--limit` each matching note is written
 * as it is found, in chunks the writer is handed one at a time — never the whole answer — in this
 * process and through the background server, which relays the chunks as they come. Bounded memory
 * is shown by counting: the largest piece any writer is handed.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { setImmediate } from 'node:timers';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run';
import { askServer, exchange } from '../../src/cli/server/client';
import { SERVER_STAMP, socketPathFor } from '../../src/cli/server/protocol';
import { CHUNK_BYTES, STREAM_ABOVE } from '../../src/cli/stream';
import { hashTree } from '../helpers/hash';
import { startInProcessServer } from '../helpers/in-process-server';
import { REPO } from '../helpers/paths';

/** Notes that all hold the word, fewer than STREAM_ABOVE so the whole answer (limit STREAM_ABOVE) lists them all too. */
const NOTES = 450;
/** The most a chunk may hold (bytes): a chunk is written once it reaches CHUNK_BYTES, so it exceeds it by at most one note's result. */
const CHUNK_BOUND = CHUNK_BYTES + 16 * 1024;

let root: string;
let vault: string;
/** text-search's schema note, outside the vault. */
let schema: string;
let cache: string;
let previousCache: string | undefined;

beforeAll(() => {
	root = mkdtempSync(join(tmpdir(), 'vq-stream-'));
	vault = join(root, 'vault');
	cache = join(root, 'cache');
	previousCache = process.env.VAULT_QUERY_CACHE_DIR;
	process.env.VAULT_QUERY_CACHE_DIR = cache;
	const filler = 'Plain words that do not hold the pattern, to give each note a body. '.repeat(8);
	for (let i = 0; i < NOTES; i++) {
		const folder = join(vault, `part-${i % 7}`);
		mkdirSync(folder, { recursive: true });
		const body = [`# Note ${i}`, filler, `The needle ${i} is here.`, filler, `A second needle line.`, filler];
		// Every tenth note is archived: text-search leaves it out by default, grep does not.
		const status = i % 10 === 0 ? '\nstatus: archived' : '';
		writeFileSync(
			join(folder, `note ${String(i).padStart(4, '0')}.md`),
			`---\ntags: [t${i % 5}]${status}\n---\n${body.join('\n\n')}\n`,
		);
	}
	writeFileSync(join(vault, 'other.md'), '# Other\n\nNothing to find.\n');
	schema = join(root, 'schema.md');
	writeFileSync(schema, '# Schema\n\n```yaml\nfields:\n  status: [active, archived]\n```\n');
});

afterAll(() => {
	process.env.VAULT_QUERY_CACHE_DIR = previousCache;
	rmSync(root, { recursive: true, force: true });
});

/** Runs the CLI in-process with a writer that records every piece it is handed. */
async function streamed(argv: string[]): Promise<{ code: number; stdout: string; pieces: number[] }> {
	const pieces: Buffer[] = [];
	const lines: string[] = [];
	const code = await runCli([...argv, '--vault', vault, '--no-server'], {
		stdout: (text) => lines.push(`${text}\n`),
		stderr: () => undefined,
		write: (part) => void pieces.push(Buffer.from(part)),
		cwd: REPO,
	});
	return {
		code,
		stdout: Buffer.concat([...pieces, Buffer.from(lines.join(''))]).toString('utf8'),
		pieces: pieces.map((p) => p.length),
	};
}

describe('a full grep answer', () => {
	it.each([
		['grep', NOTES, 'limit'],
		['text-search', NOTES - NOTES / 10, 'max_results'],
	] as const)(
		'of %s is written in bounded chunks as it is found, the same document as the whole answer',
		async (command, matching, limitKey) => {
			const before = hashTree(vault);
			const ask = [command, 'needle', '--json', ...(command === 'grep' ? [] : ['--schema', schema])];
			const full = await streamed([...ask, '--limit', '100000']);
			const whole = await streamed([...ask, '--limit', String(STREAM_ABOVE)]);
			expect(full.code).toBe(0);
			// The whole answer is one piece through stdout; the full one many pieces, none much over a chunk.
			expect(whole.pieces).toEqual([]);
			expect(full.pieces.length).toBeGreaterThan(5);
			expect(Math.max(...full.pieces)).toBeLessThanOrEqual(CHUNK_BOUND);
			const parsed = JSON.parse(full.stdout) as { status: string; matched: number; results: unknown[] };
			// Laid out exactly as JSON.stringify lays out the whole document.
			expect(full.stdout).toBe(`${JSON.stringify(parsed, null, 2)}\n`);
			expect(parsed.status).toBe('success');
			expect(parsed.matched).toBe(matching);
			expect(parsed.results).toHaveLength(matching);
			const expected = JSON.parse(whole.stdout) as { query: Record<string, number> };
			expected.query[limitKey] = 100000;
			expect(parsed).toEqual(expected);
			expect(hashTree(vault)).toBe(before);
		},
	);

	it('as text lists every note in the whole answer’s order and ends with the count line', async () => {
		const full = await streamed(['grep', 'needle', '--limit', '100000']);
		const whole = await streamed(['grep', 'needle', '--limit', String(STREAM_ABOVE)]);
		expect(full.pieces.length).toBeGreaterThan(1);
		expect(Math.max(...full.pieces)).toBeLessThanOrEqual(CHUNK_BOUND);
		const count = `${NOTES} notes match (searched ${NOTES + 1} notes)`;
		expect(whole.stdout.startsWith(`${count}\n\n`)).toBe(true);
		// The same notes and lines, with the count line moved from the top to the end.
		expect(full.stdout).toBe(`${whole.stdout.slice(count.length + 2).replace(/\n$/, '')}\n\n${count}\n`);
	});

	it('says what was wrong with a bad pattern before writing anything', async () => {
		const bad = await streamed(['grep', '(', '--regex', '--limit', '100000', '--json']);
		expect(bad.code).toBe(2);
		expect(bad.pieces).toEqual([]);
		expect((JSON.parse(bad.stdout) as { status: string }).status).toBe('failed');
	});

	it('of text-search as text lists the whole answer’s notes and ends with the count line and footer', async () => {
		const search = ['text-search', 'needle', '--schema', schema];
		const full = await streamed([...search, '--limit', '100000']);
		const whole = await streamed([...search, '--limit', String(STREAM_ABOVE)]);
		expect(full.pieces.length).toBeGreaterThan(1);
		expect(Math.max(...full.pieces)).toBeLessThanOrEqual(CHUNK_BOUND);
		const count = `${NOTES - NOTES / 10} notes match (searched ${NOTES + 1} notes)`;
		expect(whole.stdout.startsWith(`${count}\n\n`)).toBe(true);
		// The whole answer: count, notes, footer; streamed: notes, count, footer.
		const footer = whole.stdout.indexOf('\n\nLimitations:');
		expect(footer).toBeGreaterThan(0);
		const notes = whole.stdout.slice(count.length + 2, footer);
		expect(full.stdout).toBe(`${notes}\n\n${count}${whole.stdout.slice(footer)}`);
	});

	it('of text-search keeps the post-filters: --include-archived lists the archived notes too', async () => {
		const full = await streamed([
			'text-search',
			'needle',
			'--schema',
			schema,
			'--limit',
			'501',
			'--include-archived',
		]);
		const listed = full.stdout.split('\n').filter((line) => line.startsWith('part-'));
		expect(listed).toHaveLength(NOTES);
		expect(full.stdout).toContain(`${NOTES} notes match (searched ${NOTES + 1} notes)`);
	});

	it('comes through the background server in chunks as they are written', async () => {
		const stderr: string[] = [];
		const server = await startInProcessServer(vault, cache, (t) => stderr.push(t));
		const { socket } = server;
		try {
			const chunks: number[] = [];
			const received: Buffer[] = [];
			const { reply } = await exchange(
				socket,
				{
					stamp: SERVER_STAMP,
					argv: ['grep', 'needle', '--limit', '100000', '--json', '--vault', vault],
					cwd: REPO,
				},
				0,
				(chunk) => {
					chunks.push(chunk.length);
					received.push(Buffer.from(chunk));
				},
			);
			expect(reply !== null && 'code' in reply && reply.code).toBe(0);
			expect(chunks.length).toBeGreaterThan(5);
			expect(Math.max(...chunks)).toBeLessThanOrEqual(CHUNK_BOUND);
			const own = await streamed(['grep', 'needle', '--limit', '100000', '--json']);
			expect(Buffer.concat(received).toString('utf8')).toBe(own.stdout);
			// text-search streams through the server the same way.
			const searched: number[] = [];
			const listing: Buffer[] = [];
			const search = ['text-search', 'needle', '--schema', schema, '--limit', '100000'];
			const answered = await exchange(
				socket,
				{ stamp: SERVER_STAMP, argv: [...search, '--vault', vault], cwd: REPO },
				0,
				(chunk) => {
					searched.push(chunk.length);
					listing.push(Buffer.from(chunk));
				},
			);
			expect(answered.reply !== null && 'code' in answered.reply && answered.reply.code).toBe(0);
			expect(searched.length).toBeGreaterThan(2);
			expect(Math.max(...searched)).toBeLessThanOrEqual(CHUNK_BOUND);
			expect(Buffer.concat(listing).toString('utf8')).toBe((await streamed(search)).stdout);
		} finally {
			await server.stop();
		}
	});

	/** Asks a fake server, listening under the vault's socket name, that answers with `writes` one at a time; what the call printed. */
	async function askFake(
		writes: (string | Buffer)[],
		print = (out: string | Uint8Array, printed: Buffer[]): void | Promise<void> =>
			void printed.push(Buffer.from(out)),
	): Promise<{ kind: string; printed: Buffer }> {
		const fake = createServer({ allowHalfOpen: true }, (socket) => {
			socket.on('data', () => undefined);
			socket.on('end', () => {
				const next = (i: number): void => {
					if (i === writes.length) socket.end();
					else socket.write(writes[i]!, () => setImmediate(() => next(i + 1)));
				};
				next(0);
			});
		});
		const printed: Buffer[] = [];
		const sockets = { VAULT_QUERY_CACHE_DIR: cache };
		const real = socketPathFor(realpathSync.native(vault), sockets)!;
		rmSync(real, { force: true });
		mkdirSync(join(real, '..'), { recursive: true, mode: 0o700 });
		await new Promise<void>((done) => fake.listen(real, done));
		try {
			const asked = await askServer(
				['grep', 'needle', '--limit', '100000', '--vault', vault],
				REPO,
				{ ...process.env, ...sockets, VAULT_QUERY_SERVER: 'on' },
				5000,
				(out) => print(out, printed),
			);
			return { kind: asked.kind, printed: Buffer.concat(printed) };
		} finally {
			await new Promise((done) => fake.close(done));
		}
	}

	it('from a server that stops after the first chunk fails the call rather than printing the answer twice', async () => {
		const asked = await askFake([`${JSON.stringify({ out: 'part of an answer\n' })}\n`]);
		expect(asked.kind).toBe('broken');
		expect(asked.printed.toString('utf8')).toBe('part of an answer\n');
		// The same with a chunk sent as bytes and cut short.
		const cut = await askFake(['{"bytes":100}\n', 'only part']);
		expect(cut.kind).toBe('broken');
		expect(cut.printed.toString('utf8')).toBe('only part');
	});

	it('sent as bytes is printed byte for byte, a character split between packets included', async () => {
		const body = Buffer.from('Ünïcødé 文字 needle\n'.repeat(3), 'utf8');
		const reply = `${JSON.stringify({ stdout: [], stderr: [], code: 0 })}\n`;
		// Heartbeat spaces, the count line, the bytes in three packets (one cut inside 文), the reply.
		const split = body.indexOf(Buffer.from('文')) + 1;
		const asked = await askFake([
			'  ',
			`{"bytes":${body.length}}\n`,
			body.subarray(0, split),
			body.subarray(split, split + 5),
			Buffer.concat([body.subarray(split + 5), Buffer.from(reply)]),
		]);
		expect(asked.kind).toBe('answered');
		expect(asked.printed.equals(body)).toBe(true);
	});

	it('lends each chunk until it is written: the next read does not overwrite bytes still being written', async () => {
		// Several MB in chunks of every size, each chunk's bytes different, so a read over lent bytes shows.
		const chunks = Array.from({ length: 40 }, (_, i) =>
			Buffer.from(`chunk ${i} ${'文字 needle '.repeat(1 + ((i * 7919) % 30_000))}\n`, 'utf8'),
		);
		const reply = `${JSON.stringify({ stdout: [], stderr: [], code: 0 })}\n`;
		const writes = chunks.flatMap((chunk) => [`{"bytes":${chunk.length}}\n`, chunk]);
		writes.push(reply);
		let waited = 0;
		const asked = await askFake(writes, async (out, printed) => {
			// A slow writer: the bytes are read only once it has waited (as a pipe's write completes later).
			for (let turn = 0; turn < 3; turn++) await new Promise((done) => setImmediate(done));
			waited++;
			printed.push(Buffer.from(out));
		});
		expect(asked.kind).toBe('answered');
		expect(waited).toBeGreaterThanOrEqual(chunks.length);
		expect(asked.printed.equals(Buffer.concat(chunks))).toBe(true);
	});
});
