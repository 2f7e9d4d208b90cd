/**
 * The MCP server over one warm vault (answering while it opens, starting.ts): the six tools, the `handoff` prompt and the note
 * resource template. `createServer` is a factory (the SDK's `serveStdio` pins one instance per
 * connection, of whichever protocol era the client opens with).
 */
import {
	McpServer,
	ProtocolError,
	ProtocolErrorCode,
	ResourceTemplate,
	type CallToolResult,
	type Resource,
	type ServerContext,
} from '@modelcontextprotocol/server';
import * as z from 'zod';
import { DEFAULT_BUDGET } from '../core/pack/types';
import { answerInToolTerms, inToolTerms } from './advice';
import { boundEcho, boundLines, jsonBytes, type Truncation } from './bound';
import { confinedNotePath, noteUri, NOTE_URI_TEMPLATE } from './note-uri';
import type { StartingVault } from './starting';
import { withSessionFor } from './waiting';
import { ParameterError, TOOLS, type ToolAnswer, type ToolSpec } from './tools';

/** Server options: the response budget. */
export interface ServerOptions {
	/** Largest response in bytes (structured JSON plus text); lists are cut at a whole item past it. */
	maxBytes: number;
	/** The server's version for `serverInfo`. */
	version: string;
	/** Where log lines go (stderr in the CLI: stdout carries only the protocol). */
	log: (line: string) => void;
}

/** Annotations of every tool: they only read the vault. */
const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

/** An error result an agent can act on (the message names the parameter). */
function errorResult(message: string, structured?: Record<string, unknown>): CallToolResult {
	return {
		content: [{ type: 'text', text: message }],
		isError: true,
		...(structured ? { structuredContent: structured } : {}),
	};
}

/** What a cut response says at the end of its text: how many results were kept of how many, and the call that continues. */
function cutLine(structured: Record<string, unknown>): string | null {
	const cut = structured.truncated as Truncation | undefined;
	if (cut === undefined) return null;
	const of =
		cut.total === null
			? `${cut.kept} ${cut.field} (more match, not counted)`
			: `${cut.kept} of ${cut.total} ${cut.field}`;
	const why = cut.max_bytes === null ? 'at the limit' : `to stay within ${cut.max_bytes} bytes`;
	return `Cut to ${of} ${why}; structuredContent holds the same ${cut.kept}. Next: ${cut.next}.`;
}

/** The text sent: the rendering within `budget` bytes at a whole line, then the cut line (kept whatever the rendering's length). */
function textOf(rendered: string, structured: Record<string, unknown>, budget: number): string {
	const cut = cutLine(structured);
	const room = budget - (cut === null ? 0 : Buffer.byteLength(cut, 'utf8') + 200);
	const shown = boundLines(rendered, Math.max(0, room));
	const lines = [shown.text];
	if (shown.cut)
		lines.push(`… (text cut at ${shown.lines} lines for size; structuredContent holds the whole answer as sent)`);
	if (cut !== null) lines.push(cut);
	return lines.join('\n');
}

/** The `status` answer while the vault opens: what is being built and how far along (the full status follows once open). */
function startingStatus(vault: StartingVault): ToolAnswer {
	const progress = vault.progress();
	const structured = { status: 'success', vault_path: vault.vaultPath, building: progress };
	return {
		structured,
		text: () => [`Vault: ${vault.vaultPath}`, `Building: ${progress.detail}`].join('\n'),
		failed: false,
	};
}

/** Runs a tool and shapes the result within the byte budget: text first (short), the JSON in what is left. */
async function callTool(
	spec: ToolSpec,
	args: unknown,
	vault: StartingVault,
	options: ServerOptions,
	ctx: ServerContext | undefined,
): Promise<CallToolResult> {
	let answer;
	try {
		if (spec.name === 'status' && vault.ready() === null) answer = startingStatus(vault);
		else answer = await withSessionFor(spec.name, vault, ctx, (session) => spec.run(args as never, session));
	} catch (error) {
		if (error instanceof ParameterError)
			return errorResult(`Invalid arguments for tool ${spec.name}: ${boundLines(error.message, 4096).text}`);
		const opening = vault.progress();
		if (opening.phase === 'failed') return errorResult(`${spec.name}: ${opening.detail}`);
		options.log(`${spec.name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
		return errorResult(
			`${spec.name}: internal error (${error instanceof Error ? error.message : String(error)}); the server log has details`,
		);
	}
	// The JSON is cut first and the text rendered from what it kept: both list the same results and say the same cut.
	const textBudget = Math.min(16 * 1024, Math.floor(options.maxBytes / 4));
	const jsonBudget = options.maxBytes - textBudget - 512;
	const nextOffset = answer.nextOffset ?? null;
	const worded = answerInToolTerms(boundEcho(answer.structured), spec.name, nextOffset);
	const structured = answer.bound ? answer.bound(worded, jsonBudget) : worded;
	const text = textOf(inToolTerms(answer.text(structured), spec.name, nextOffset), structured, textBudget);
	if (jsonBytes(structured) > jsonBudget)
		options.log(
			`${spec.name}: response of ${jsonBytes(structured)} bytes over the ${jsonBudget}-byte budget could not be cut further`,
		);
	return {
		content: [{ type: 'text', text }],
		structuredContent: structured,
		...(answer.failed ? { isError: true } : {}),
	};
}

/** The `handoff` prompt: a question and a budget become the context pack as a user message. */
function registerHandoffPrompt(server: McpServer, vault: StartingVault): void {
	server.registerPrompt(
		'handoff',
		{
			title: 'Hand off vault context',
			description:
				'Builds a cited context pack from the vault for a question and hands it over as a message, ready for the model to answer from.',
			argsSchema: z.strictObject({
				question: z.string().min(1).describe('The question to gather evidence for.'),
				budget: z
					.string()
					.regex(/^\d+$/, 'budget: a whole number of tokens')
					.optional()
					.describe(`Token budget of the pack (default ${DEFAULT_BUDGET}).`),
			}),
		},
		async ({ question, budget }) => {
			const pack = await withSessionFor('pack', vault, undefined, (session) =>
				session.use(({ engine }) =>
					engine.pack({ query: question, budget: budget === undefined ? undefined : Number(budget) }),
				),
			);
			const text =
				pack.status === 'failed'
					? `The vault could not be searched for "${question}": ${pack.error ?? 'failed'}`
					: pack.markdown.trimEnd();
			return {
				description: `Context pack for: ${question}`,
				messages: [{ role: 'user', content: { type: 'text', text } }],
			};
		},
	);
}

/** The note resources: `vault-note:///{+path}`, listed from the index, read verbatim. */
function registerNoteResources(server: McpServer, vault: StartingVault, options: ServerOptions): void {
	// Listed from the index in pages of RESOURCE_PAGE (the SDK's own list handler takes no cursor; it is replaced below).
	const page = async (cursor: string | undefined): Promise<{ resources: Resource[]; nextCursor?: string }> => {
		const { source } = await withSessionFor('note', vault, undefined, (session) => session.current());
		const notes = source.listNotes().filter((p) => source.getSkipReason(p) === null);
		const from = cursor === undefined ? 0 : Number(cursor);
		if (!Number.isSafeInteger(from) || from < 0 || from > notes.length)
			throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid cursor: ${String(cursor).slice(0, 40)}`);
		const resources = notes
			.slice(from, from + RESOURCE_PAGE)
			.map((path) => ({ uri: noteUri(path), name: path, mimeType: 'text/markdown' }));
		return from + RESOURCE_PAGE < notes.length
			? { resources, nextCursor: String(from + RESOURCE_PAGE) }
			: { resources };
	};
	const template = new ResourceTemplate(NOTE_URI_TEMPLATE, { list: () => page(undefined) });
	server.registerResource(
		'note',
		template,
		{
			title: 'Vault note',
			description: 'A note of the vault by its vault-relative path, verbatim Markdown.',
			mimeType: 'text/markdown',
		},
		async (uri, variables) => {
			const path = confinedNotePath(variables.path);
			const result = await withSessionFor('note', vault, undefined, (session) =>
				session.use(({ engine }) => engine.note({ ref: path })),
			);
			if (result.status === 'failed') throw new Error(result.error ?? `Cannot read ${path}`);
			const note = result.results[0]!;
			const shown = boundLines(note.text, options.maxBytes - 1024);
			const text = shown.cut
				? `${shown.text}\n<!-- cut at line ${shown.lines} of ${note.total_lines} to stay within ${options.maxBytes} bytes; use the note tool with from: ${shown.lines + 1} -->`
				: shown.text;
			return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text }] };
		},
	);
	server.server.setRequestHandler('resources/list', (request) => page(request.params?.cursor));
}

/** Notes per page of `resources/list`: a page stays well within the response budget. */
export const RESOURCE_PAGE = 1000;

/** A new server instance over the vault as it opens (one per connection); `instructions` introduce the vault to the agent. */
export function createServer(vault: StartingVault, options: ServerOptions, instructions: string): McpServer {
	const server = new McpServer(
		{ name: 'vault-query', version: options.version },
		{
			instructions,
		},
	);
	for (const spec of TOOLS) {
		server.registerTool(
			spec.name,
			{ title: spec.title, description: spec.description, inputSchema: spec.input, annotations: READ_ONLY },
			(args: unknown, ctx: ServerContext) => callTool(spec, args, vault, options, ctx),
		);
	}
	registerHandoffPrompt(server, vault);
	registerNoteResources(server, vault, options);
	return server;
}
