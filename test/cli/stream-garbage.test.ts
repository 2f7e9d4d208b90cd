/**
 * A full `--json` grep answer keeps its garbage bounded (cli/stream.ts): the chunk writer looks at
 * the memory in use after each chunk and asks for a full collection once the answer's garbage
 * has grown past the allowance, so a server writing tens of MB of JSON never lets every result's
 * objects pile up until V8's own collection. Shown by counting collections and chunk sizes over a
 * host whose memory grows by every byte written (an answer held whole, or never collected, fails).
 */
import { describe, expect, it } from 'vitest';
import type { ParsedArgs } from '../../src/cli/args';
import type { CommandIO } from '../../src/cli/command';
import { CHUNK_BYTES, streamGrep } from '../../src/cli/stream';
import { VaultEngine } from '../../src/core/engine/engine';
import { GarbageBound, type GarbageHost } from '../../src/warm/garbage-bound';
import { MemorySource } from '../helpers/memory-source';

/** Notes that all hold the word (each links to the next, so every result has links and backlinks). */
const NOTES = 1500;
/** The most a chunk may hold: one note's result over CHUNK_BYTES at most. */
const CHUNK_BOUND = CHUNK_BYTES + 16 * 1024;
/** The allowance the test's bound collects at: small, so a few MB of answer cross it many times. */
const ALLOWANCE = 256 * 1024;

function vault(): MemorySource {
	const files: Record<string, string> = {};
	const filler = 'Plain words without the pattern, to give each note a body. '.repeat(6);
	for (let i = 0; i < NOTES; i++)
		files[`notes/n${String(i).padStart(4, '0')}.md`] =
			`---\ntags: [t${i % 4}]\n---\n# Note ${i}\n\n${filler}\n\nThe needle ${i} is here, see [[n${String((i + 1) % NOTES).padStart(4, '0')}]].\n\n${filler}\n`;
	return new MemorySource(files);
}

describe('a full --json grep answer', () => {
	it('is written in bounded chunks and collects its garbage once per allowance of output', async () => {
		const chunks: number[] = [];
		let written = 0;
		// The memory in use grows by every byte written since the last collection: the answer's garbage.
		let garbage = 0;
		const host: GarbageHost = {
			used: () => 100 * ALLOWANCE + garbage,
			collect: () => {
				garbage = 0;
			},
		};
		const bound = new GarbageBound(host, ALLOWANCE);
		const io: CommandIO = {
			stdout: () => undefined,
			stderr: () => undefined,
			cwd: '/',
			write: (part) => {
				const bytes = typeof part === 'string' ? Buffer.byteLength(part) : part.length;
				chunks.push(bytes);
				written += bytes;
				garbage += bytes;
			},
		};
		const args: ParsedArgs = { positionals: ['needle'], flags: { json: true }, notes: [] };
		const code = await streamGrep(
			args,
			io,
			new VaultEngine(vault()),
			{ type: 'grep', pattern: 'needle', limit: 100_000 },
			bound,
		);
		expect(code).toBe(0);
		// Many chunks, none much over CHUNK_BYTES: the document was never built whole.
		expect(written).toBeGreaterThan(8 * ALLOWANCE);
		expect(chunks.length).toBeGreaterThan(written / CHUNK_BOUND);
		expect(Math.max(...chunks)).toBeLessThanOrEqual(CHUNK_BOUND);
		// A collection each time the garbage passed the allowance: never more than one allowance and a chunk piled up.
		expect(bound.collections).toBeGreaterThanOrEqual(Math.floor(written / (ALLOWANCE + CHUNK_BOUND)));
		expect(bound.collections).toBeLessThanOrEqual(Math.ceil(written / ALLOWANCE));
	});
});
