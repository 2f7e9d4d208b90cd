/**
 * Advice in the tools' own terms: the engine words what to do next as the CLI does (flags), and an
 * MCP client cannot pass a flag. These are the CLI phrases an answer can carry, each replaced by
 * the parameter of the tool that answered.
 */
import { RAISE_LIMIT } from '../core/query/envelope';
import { CLI_SCHEMA_ADVICE } from '../core/schema/load';

/** The `read` tool's way to a schema when the vault has none at the path tried. */
export const TOOL_SCHEMA_ADVICE =
	'Call read again with schema: "draft" to read against a schema drafted in memory from the frontmatter of this vault\'s notes, or with schema: "/absolute/path/schema.md" for a schema note outside the vault';

/** `text` with the CLI's advice replaced by `tool`'s parameters; `nextOffset`: the offset that continues a list cut at its limit. */
export function inToolTerms(text: string, tool: string, nextOffset: number | null): string {
	const more = nextOffset === null ? '(raise limit)' : `(call ${tool} again with offset: ${nextOffset})`;
	return text.split(RAISE_LIMIT).join(more).split(CLI_SCHEMA_ADVICE).join(TOOL_SCHEMA_ADVICE);
}

/** The answer's `error`, `suggestions` and `limitations` in `tool`'s terms (see {@link inToolTerms}). */
export function answerInToolTerms<T extends Record<string, unknown>>(
	value: T,
	tool: string,
	nextOffset: number | null,
): T {
	const words = (s: unknown): unknown => (typeof s === 'string' ? inToolTerms(s, tool, nextOffset) : s);
	const out: Record<string, unknown> = { ...value };
	if (typeof value.error === 'string') out.error = words(value.error);
	for (const key of ['suggestions', 'limitations'])
		if (Array.isArray(value[key])) out[key] = (value[key] as unknown[]).map(words);
	return out as T;
}
