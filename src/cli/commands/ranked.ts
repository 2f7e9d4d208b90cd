import type { RankedOperationSpec } from '../../core/query/registry';
import { queryText, type ParsedArgs } from '../args';
import { optionFlags, optionValues, type Command, type CommandIO } from '../command';
import { ENGINE_FLAGS } from '../vault';

/**
 * The command of a ranked operation (core/query/registry.ts): its name, summary, text and options
 * come from the operation; `answer` gets the request its query text and flags build.
 */
export function rankedCommand<Name extends 'search' | 'pack', Request>(
	operation: RankedOperationSpec<Name, Request>,
	examples: string[],
	answer: (args: ParsedArgs, io: CommandIO, request: Request) => Promise<number>,
): Command {
	return {
		name: operation.name,
		summary: operation.summary,
		usage: `"<${operation.text.name}>"`,
		examples,
		flags: { ...optionFlags(operation.options), ...ENGINE_FLAGS },
		run: (args, io) => answer(args, io, operation.build(queryText(args), optionValues(args, operation.options))),
	};
}
