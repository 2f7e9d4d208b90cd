/**
 * The MCP `base` tool: the vault's bases and their views, or one view's rows — the object
 * `vault-query base --json` prints — paged with `offset` and cut to the response budget at a
 * whole row like every other tool.
 */
import * as z from 'zod';
import { renderBaseText, type BaseResult } from '../core/bases/index';
import { boundList } from './bound';
import type { ToolSpec } from './tool-spec';

const baseInput = z.strictObject({
	base: z
		.string()
		.min(1)
		.optional()
		.describe(
			'A .base file by name or path, optionally with #View ("Books.base#Top rated"), or a note\'s base block ("Daily note#base"). Leave out to list every base and its views.',
		),
	view: z.string().min(1).optional().describe("The view by name (default: the one after #, else the base's first)."),
	this: z
		.string()
		.min(1)
		.optional()
		.describe(
			'The note `this` stands for, as when the base is embedded in it (e.g. a person for "Meetings.base#Person").',
		),
	limit: z.number().int().min(1).max(500).optional().describe('At most this many rows (default 50).'),
	offset: z
		.number()
		.int()
		.min(0)
		.optional()
		.describe('Skip this many rows — use the value a truncated response gives in `truncated.next`.'),
});

/** Rows `skip`… of a result, with group row indexes moved to match and groups left empty dropped. */
function pageRows(result: BaseResult, skip: number): BaseResult {
	if (skip === 0) return result;
	const rows = result.rows.slice(skip);
	const groups = result.groups
		?.map((g) => ({ ...g, rows: g.rows.map((i) => i - skip).filter((i) => i >= 0 && i < rows.length) }))
		.filter((g) => g.rows.length > 0);
	return { ...result, rows, ...(groups ? { groups } : {}) };
}

/** `base`: list the bases, or evaluate one view outside Obsidian. */
export const baseTool: ToolSpec<typeof baseInput> = {
	name: 'base',
	title: 'Obsidian Bases views',
	description:
		'Obsidian Bases are the vault\'s saved questions (.base files and base blocks: filters, formulas, views). Without `base`, lists every base and its views; with it, evaluates one view as Obsidian would and returns its rows (path and column values), groups and summaries. Use a base the user keeps ("my reading list", "meetings this week") instead of rebuilding its filter; then read notes with `note`, or pack a view\'s notes with pack\'s `base` option.',
	input: baseInput,
	run: async (args, session) => {
		if (args.base === undefined) {
			const listed = await session.use(async ({ engine }) => {
				const bases = [];
				for (const path of engine.baseFiles()) {
					const r = await engine.base({ base: path, list: true });
					bases.push({ path, views: r.views.map((v) => v.name), ...(r.error ? { error: r.error } : {}) });
				}
				return bases;
			});
			const structured = { status: 'success', bases: listed, limitations: [] as string[] };
			const text =
				listed.length === 0
					? 'This vault has no .base files.'
					: listed.map((b) => `${b.path}: ${b.error ?? b.views.join(', ')}`).join('\n');
			return {
				structured,
				text: () => text,
				failed: false,
				bound: (value, max) => boundList(value, 'bases', max, () => 'name a base to see its views'),
			};
		}
		const skip = args.offset ?? 0;
		const result = pageRows(
			await session.use(({ engine }) =>
				engine.base({ base: args.base!, view: args.view, this: args.this, limit: (args.limit ?? 50) + skip }),
			),
			skip,
		);
		return {
			structured: { ...result },
			text: (shown) => renderBaseText(shown as unknown as BaseResult),
			failed: result.status === 'failed',
			bound: (value, max) =>
				boundList(value, 'rows', max, (kept) => `call base again with offset: ${skip + kept}`),
		};
	},
};
