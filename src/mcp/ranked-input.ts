/**
 * The MCP `search` and `pack` tools' input schemas, derived from their registry entries
 * (`SEARCH`, `PACK` in core/query/registry.ts): one parameter for the free text and one per
 * option, named as the CLI names them (snake case), described by the registry's help (which
 * carries the defaults). A new option in the registry is a new tool parameter with no edit here.
 */
import * as z from 'zod';
import type { OperationOption, OptionValues, RankedOperationSpec } from '../core/query/registry';
import { DAY_PATTERN } from '../core/note-date';

/** An argument's or option's MCP parameter name (snake case: `include-drafts` → `include_drafts`). */
export function parameterName(name: string): string {
	return name.replace(/-/g, '_');
}

/** A line of registry help as a parameter description: capitalised, ending with a full stop. */
export function describe(help: string): string {
	return `${help.charAt(0).toUpperCase()}${help.slice(1)}.`;
}

/**
 * What the MCP face adds to or narrows in a ranked operation: the name of its free-text
 * parameter (`question` for pack, as the `handoff` prompt names it), tighter ranges for number
 * options (why: a response is read into an agent's context, so a limit or budget is bounded
 * smaller than the CLI's), and parameters of its own (`offset` paging).
 */
export interface RankedFace {
	text: string;
	ranges?: Record<string, readonly [number, number]>;
	extra?: z.ZodRawShape;
}

/** The zod schema of one option (numbers whole and within range; `YYYY-MM-DD` values checked as days). */
function optionSchema(option: OperationOption, range: readonly [number, number] | undefined): z.ZodType {
	if (option.kind === 'number') {
		const [min, max] = range ?? option.range ?? [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER];
		return z.number().int().min(min).max(max);
	}
	if (option.kind === 'list') return z.array(z.string());
	if (option.kind === 'flag') return z.boolean();
	return option.value === 'YYYY-MM-DD' ? z.string().regex(DAY_PATTERN) : z.string();
}

/** The strict input schema of a ranked operation's tool: unknown parameters are errors naming them. */
export function rankedInput<Name extends 'search' | 'pack'>(
	spec: RankedOperationSpec<Name, unknown>,
	face: RankedFace,
): z.ZodObject {
	const options = Object.fromEntries(
		spec.options.map((option) => [
			parameterName(option.name),
			optionSchema(option, face.ranges?.[option.name]).optional().describe(describe(option.help)),
		]),
	);
	return z.strictObject({
		[face.text]: z.string().min(1).describe(describe(spec.text.help)),
		...options,
		...face.extra,
	});
}

/** The registry's option values (by their CLI names) from a tool call's arguments. */
export function rankedValues(
	spec: RankedOperationSpec<'search' | 'pack', unknown>,
	args: Record<string, unknown>,
): OptionValues {
	return Object.fromEntries(
		spec.options.map((option) => [option.name, args[parameterName(option.name)] as OptionValues[string]]),
	);
}
