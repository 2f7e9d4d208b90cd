/**
 * A note's bytes read at the size its fingerprint gives (`readKnownBytesSync`, no fstat) are the
 * bytes the read with an fstat gives (`readNoteBytesSync`) when the file still holds that many;
 * any other file — grown, shrunk, gone, a folder, a FIFO, not UTF-8 — is left to the read with
 * an fstat (null), which says why it is skipped.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readKnownBytesSync, readNoteBytesSync, ScratchBuffer } from '../../src/node/note-reader';

let dir: string;
const MAX = 5 * 1024 * 1024;

beforeAll(() => {
	dir = mkdtempSync(join(tmpdir(), 'vq-note-bytes-'));
});

afterAll(() => {
	rmSync(dir, { recursive: true, force: true });
});

/** Writes `content` as a file of `dir`; its path and size. */
function put(name: string, content: string | Buffer): { path: string; size: number } {
	const path = join(dir, name);
	writeFileSync(path, content);
	return { path, size: statSync(path).size };
}

describe('a note read at its known size', () => {
	it('is the note read with an fstat, byte order mark left out', () => {
		const scratch = new ScratchBuffer();
		for (const [name, content] of [
			['plain.md', 'obsidian\nline two\n'],
			['empty.md', ''],
			['bom.md', '\ufeffafter the mark\r\n'],
			['wide.md', '文字😀Ünïcødé\n'.repeat(9000)],
		] as const) {
			const { path, size } = put(name, content);
			const known = readKnownBytesSync(path, size, scratch);
			expect(known, name).not.toBeNull();
			const known1 = Buffer.from(known!);
			expect(known1.equals(readNoteBytesSync(path, MAX, new ScratchBuffer())!), name).toBe(true);
			expect(known1.toString('utf8'), name).toBe(content.replace(/^\ufeff/, ''));
		}
	});

	it('is left to the read with an fstat when the file is not that size or not a note', () => {
		const scratch = new ScratchBuffer();
		const { path, size } = put('changed.md', 'twelve bytes');
		expect(readKnownBytesSync(path, size - 1, scratch)).toBeNull(); // grown since
		expect(readKnownBytesSync(path, size + 1, scratch)).toBeNull(); // shrunk since
		expect(readKnownBytesSync(join(dir, 'gone.md'), 3, scratch)).toBeNull();
		mkdirSync(join(dir, 'folder.md'));
		expect(readKnownBytesSync(join(dir, 'folder.md'), 0, scratch)).toBeNull();
		const bad = put('latin1.md', Buffer.from([0x63, 0x61, 0x66, 0xe9]));
		expect(readKnownBytesSync(bad.path, bad.size, scratch)).toBeNull();
		expect(readNoteBytesSync(bad.path, MAX, scratch)).toBeNull();
		const binary = put('binary.md', Buffer.from([0x61, 0x00, 0x62]));
		expect(readKnownBytesSync(binary.path, binary.size, scratch)).toBeNull();
	});

	it('does not wait on a FIFO put where a note was', () => {
		const fifo = join(dir, 'pipe.md');
		if (spawnSync('mkfifo', [fifo]).status !== 0) return; // no mkfifo on this system
		expect(readKnownBytesSync(fifo, 10, new ScratchBuffer())).toBeNull();
		expect(readKnownBytesSync(fifo, 0, new ScratchBuffer())).toBeNull();
	});
});
