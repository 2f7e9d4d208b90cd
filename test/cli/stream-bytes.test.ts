/**
 * The full answer through the background server — notes matched on their bytes, only the lines
 * shown decoded, rendered straight into the chunks' bytes — is byte for byte the answer of a call
 * that reads the vault's text itself (`--no-cache`), on a vault of non-ASCII text, case variants,
 * characters whose NFC or lower case is ASCII, combining marks after a match, CRLF and lone CR
 * line ends, a byte order mark, control characters, more matching lines than a note shows, and
 * multi-byte characters at chunk borders, matches at a note's first and last lines; a text listing
 * copies the lines' bytes undecoded.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run';
import { exchange } from '../../src/cli/server/client';
import { SERVER_STAMP } from '../../src/cli/server/protocol';
import { CHUNK_BYTES } from '../../src/cli/stream';
import { RACY_WINDOW_ENV } from '../../src/node/snapshot/fingerprints';
import { hashTree } from '../helpers/hash';
import { startInProcessServer } from '../helpers/in-process-server';
import { REPO } from '../helpers/paths';

/** Enough notes for many chunks (each note's listing is a few KB of multi-byte text). */
const NOTES = 160;

let root: string;
let vault: string;
let schema: string;
let cache: string;
let previousCache: string | undefined;
let previousRacy: string | undefined;

/** The body of note `i`: every kind of line the byte path must answer as the text path does. */
function body(i: number): string {
	const wide = '文字😀Ünïcødé'.repeat(80 + 4 * (i % 13));
	const lines = [
		`# Nöte ${i} — 文字`,
		wide,
		`An Obsidian vault ${i}, ÖBSIDIAN in upper case, obsidian in lower case: ${wide}`,
		'OBSIDIAN',
		// Characters whose NFC or lower case is ASCII, and a combining mark after a match, in some notes only.
		i % 4 === 0
			? `Kelvin \u212aelvin and kelvin; question\u037e mark and grave \u1fef accent ${i}`
			: 'kelvin; mark',
		i % 6 === 0 ? `combining: obsidian\u0301 and cafe\u0301 and café` : 'café',
		`İstanbul and ß and ſ for obsidian`,
		i % 3 === 0 ? 'Obsidianの and obsidian은 and OBSIDIAN。' : 'plain',
		i % 5 === 0 ? `control \u001b[31m red and \u202e reversed obsidian` : 'no control',
		wide,
		`tab\tobsidian\tend ${wide.slice(0, 7 + (i % 5))}`,
		// More matching lines than a note shows, their contexts overlapping, in some notes.
		...(i % 7 === 3 ? Array.from({ length: 120 }, (_, k) => (k % 3 === 2 ? `between ${k}` : `obsidian ${k}`)) : []),
		`last line ${wide.slice(0, 3 + (i % 7))}`,
	];
	return lines.join('\n');
}

beforeAll(() => {
	root = mkdtempSync(join(tmpdir(), 'vq-stream-bytes-'));
	vault = join(root, 'vault');
	cache = join(root, 'cache');
	previousCache = process.env.VAULT_QUERY_CACHE_DIR;
	process.env.VAULT_QUERY_CACHE_DIR = cache;
	// Notes just written are otherwise read again as text by every call (racily clean), never as bytes.
	previousRacy = process.env[RACY_WINDOW_ENV];
	process.env[RACY_WINDOW_ENV] = '0';
	for (let i = 0; i < NOTES; i++) {
		const folder = join(vault, `Ordner ${i % 5} 文`);
		mkdirSync(folder, { recursive: true });
		const front = `---\ntitle: "Tïtle ${i} 文字"\n${i % 10 === 0 ? 'status: archived\n' : ''}---\n`;
		let text = `${front}${body(i)}\n`;
		if (i % 3 === 1) text = text.replaceAll('\n', '\r\n'); // CRLF notes
		if (i % 17 === 5) text = text.replace('OBSIDIAN\n', 'OBSIDIAN\rlone CR obsidian\n'); // a lone CR
		if (i % 11 === 2) text = `\ufeff${text}`; // a byte order mark
		writeFileSync(join(folder, `Nöte ${String(i).padStart(3, '0')} ✓.md`), text);
	}
	// Stretches of lines at a note's edges: empty first lines, a match on the first or last line, no final line end.
	const edges = [
		'\n\nobsidian\n',
		'\nobsidian',
		'obsidian\n',
		'obsidian',
		'\r\n\r\nobsidian\r\n\r\n',
		'---\ntag: obsidian\n---\nobsidian right after the frontmatter\n\nobsidian',
		'---\ntag: x\n---\n\n\n\nx\nobsidian\nx\n\nx\nobsidian\n\n\n',
		'a\nb\nc\nobsidian\nd\ne\nf\ng\nh\nobsidian\ni\nj\nobsidian\n',
	];
	mkdirSync(join(vault, 'edges'));
	edges.forEach((text, i) => writeFileSync(join(vault, 'edges', `edge ${i}.md`), text));
	schema = join(root, 'schema.md');
	writeFileSync(schema, '# Schema\n\n```yaml\nfields:\n  status: [active, archived]\n```\n');
});

afterAll(() => {
	process.env.VAULT_QUERY_CACHE_DIR = previousCache;
	if (previousRacy === undefined) delete process.env[RACY_WINDOW_ENV];
	else process.env[RACY_WINDOW_ENV] = previousRacy;
	rmSync(root, { recursive: true, force: true });
});

/** A call answered in this process, reading the vault's text (no snapshot, no server): what it printed. */
async function ownAnswer(argv: string[]): Promise<Buffer> {
	const pieces: Buffer[] = [];
	const lines: string[] = [];
	const code = await runCli([...argv, '--vault', vault, '--no-cache'], {
		stdout: (text) => lines.push(`${text}\n`),
		stderr: () => undefined,
		write: (part) => void pieces.push(Buffer.from(part)),
		cwd: REPO,
	});
	expect(code).toBe(0);
	return Buffer.concat([...pieces, Buffer.from(lines.join(''))]);
}

const ASKED: string[][] = [
	['grep', 'obsidian'],
	['grep', 'obsidian', '--json'],
	['grep', 'obsidian', '-C', '0'],
	['grep', 'obsidian', '-C', '5'],
	['grep', 'obsidian', '-C', '1'],
	['grep', 'Obsidian', '--case-sensitive'],
	['grep', 'kelvin'],
	['grep', 'mark'],
	['text-search', 'obsidian'],
	['text-search', 'obsidian', '--json'],
];

describe('a full answer through the server', () => {
	it('is byte for byte the answer read from the text, in chunks of about CHUNK_BYTES', async () => {
		const before = hashTree(vault);
		// The snapshot first, so the server answers from notes it reads from disk (as bytes), not from text it holds.
		expect(
			await runCli(['index', '--vault', vault], { stdout: () => undefined, stderr: () => undefined, cwd: REPO }),
		).toBe(0);
		const server = await startInProcessServer(vault, cache);
		const { socket } = server;
		try {
			for (const asked of ASKED) {
				const argv = [
					...asked,
					...(asked[0] === 'text-search' ? ['--schema', schema] : []),
					'--limit',
					'100000',
				];
				const chunks: Buffer[] = [];
				const { reply } = await exchange(
					socket,
					{ stamp: SERVER_STAMP, argv: [...argv, '--vault', vault], cwd: REPO },
					0,
					(out) => {
						chunks.push(Buffer.from(out));
					},
				);
				expect(reply !== null && 'code' in reply && reply.code, asked.join(' ')).toBe(0);
				const served = Buffer.concat([
					...chunks,
					Buffer.from(
						reply !== null && 'stdout' in reply ? reply.stdout.map((line) => `${line}\n`).join('') : '',
					),
				]);
				expect(served.toString('utf8'), asked.join(' ')).toBe((await ownAnswer(argv)).toString('utf8'));
				if (asked.join(' ') === 'grep obsidian') {
					// Many chunks, none much over CHUNK_BYTES, and borders next to multi-byte characters.
					expect(chunks.length).toBeGreaterThan(4);
					expect(Math.max(...chunks.map((c) => c.length))).toBeLessThanOrEqual(CHUNK_BYTES + 16 * 1024);
					const borders = chunks.slice(0, -1).map((c) => c.subarray(-8).some((byte) => byte >= 0x80));
					expect(borders.some(Boolean)).toBe(true);
				}
			}
		} finally {
			await server.stop();
		}
		expect(hashTree(vault)).toBe(before);
	});
});
