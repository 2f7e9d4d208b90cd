import type { ChildProcess } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { setImmediate } from 'node:timers';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { describe, expect, it, vi } from 'vitest';
import { LineTransport, MAX_MESSAGE_BYTES, readableId } from '../../src/mcp/line-transport';
import { EXAMPLE_VAULT } from '../helpers/paths';
import { waitFor } from '../helpers/wait';
import { call, connect } from './client';

/** The first message with this id that reaches the client's transport, once it has. */
function nextMessage(seen: JSONRPCMessage[], id: unknown): Promise<JSONRPCMessage> {
	return waitFor(() => seen.find((m) => (m as { id?: unknown }).id === id) ?? null, {
		what: `a reply to id ${JSON.stringify(id)}`,
	});
}

describe('MCP stdin: oversized and malformed lines are answered, and stdin end ends the server', () => {
	it('answers an 11 MB message (-32600, with its id) and a malformed line (-32700), serves the next call, and exits when stdin closes', async () => {
		const server = await connect(EXAMPLE_VAULT);
		const child = (server.transport as unknown as { _process: ChildProcess })._process;
		const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
		const seen: JSONRPCMessage[] = [];
		const original = server.transport.onmessage;
		server.transport.onmessage = (message: JSONRPCMessage) => {
			seen.push(message);
			original?.(message);
		};
		server.client.onerror = () => undefined; // replies to ids it never sent are reported there

		const huge = 'x'.repeat(11 * 1024 * 1024);
		await expect(
			server.client.callTool({ name: 'search', arguments: { query: huge } }, { timeout: 60_000 }),
		).rejects.toMatchObject({ code: -32600 });

		child.stdin?.write('{"jsonrpc":"2.0","id":"broken-1","method":"tools/call","params":\n');
		const parse = await nextMessage(seen, 'broken-1');
		expect(parse).toMatchObject({ id: 'broken-1', error: { code: -32700 } });
		child.stdin?.write('{"jsonrpc":"2.0","id":41,"params":{}}\n');
		const invalid = await nextMessage(seen, 41);
		expect(invalid).toMatchObject({ error: { code: -32600 } });

		const after = await call(server.client, 'search', { query: 'valuation', limit: 1 });
		expect(after.isError).toBe(false);
		expect(after.json.results).toHaveLength(1);
		expect(server.stderr()).toContain('over the 10485760-byte limit');

		child.stdin?.end();
		// A server that does not end runs into the test's timeout.
		expect(await exited).toBe(0);
		await server.close();
	}, 120_000);
});

describe('LineTransport (unit)', () => {
	/** Feeds `text` in 64 KB chunks, as a pipe delivers it; returns the messages read and the errors written. */
	function feed(text: string, maxBytes = MAX_MESSAGE_BYTES): { messages: JSONRPCMessage[]; written: string[] } {
		const stdin = new PassThrough();
		const stdout = new PassThrough();
		const transport = new LineTransport(stdin, stdout, maxBytes);
		const messages: JSONRPCMessage[] = [];
		const written: string[] = [];
		transport.onmessage = (m) => messages.push(m);
		stdout.on('data', (chunk: Buffer) => written.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
		void transport.start();
		const bytes = Buffer.from(text, 'utf8');
		for (let at = 0; at < bytes.length; at += 65536) stdin.write(bytes.subarray(at, at + 65536));
		return { messages, written };
	}

	it('copies a long line once: bytes concatenated stay within twice its size (the SDK buffer copies it per chunk)', async () => {
		const concat = vi.spyOn(Buffer, 'concat');
		const line = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'y'.repeat(8_000_000) } });
		const { messages } = feed(`${line}\n`);
		await new Promise((resolve) => setImmediate(resolve));
		const copied = concat.mock.results.reduce((sum, r) => sum + (r.value as Buffer).length, 0);
		concat.mockRestore();
		expect(messages).toHaveLength(1);
		expect(copied).toBeLessThanOrEqual(2 * line.length);
	});

	it('skips a line over the limit to its end, answers it with its id, and reads the next line', async () => {
		const big = JSON.stringify({ jsonrpc: '2.0', id: 'big', method: 'ping', params: { pad: 'z'.repeat(5000) } });
		const { messages, written } = feed(`${big}\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n`, 1000);
		await new Promise((resolve) => setImmediate(resolve));
		expect(JSON.parse(written[0]!)).toMatchObject({ id: 'big', error: { code: -32600 } });
		expect(messages).toEqual([{ jsonrpc: '2.0', id: 2, method: 'ping' }]);
	});

	it('reads a request id from the start of a line, and none from text without one', () => {
		expect(readableId('{"jsonrpc":"2.0","id": 12,"method"')).toBe(12);
		expect(readableId('{"id":"a\\"b","x')).toBe('a"b');
		expect(readableId('{"jsonrpc":"2.0","method":"x"')).toBeUndefined();
		expect(readableId('{"id":1.5}')).toBeUndefined();
	});
});
