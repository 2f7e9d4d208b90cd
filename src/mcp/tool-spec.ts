/** The shape of an MCP tool and its answer, apart from the tools themselves (a tool in its own file imports it without a cycle). */
import type * as z from 'zod';
import type { VaultSession } from '../warm/session';

/** What a handler returns: the contract JSON, its short text rendering, and the list a bound may cut. */
export interface ToolAnswer {
	structured: Record<string, unknown>;
	/** The text of the answer as sent: rendered from `structured` after any cut, so both list the same results. */
	text: (shown: Record<string, unknown>) => string;
	/** The offset that continues a list cut at its limit (null: none), for advice in the tool's terms. */
	nextOffset?: number | null;
	failed: boolean;
	/** Cuts `structured` to a byte budget at a whole item, saying how to get the rest (absent: it is small by construction). */
	bound?: (structured: Record<string, unknown>, maxBytes: number) => Record<string, unknown>;
}

/** One tool: its MCP metadata, its strict input schema and its handler. */
export interface ToolSpec<S extends z.ZodObject = z.ZodObject> {
	name: string;
	title: string;
	description: string;
	input: S;
	run(args: z.infer<S>, session: VaultSession): Promise<ToolAnswer>;
}
