import type { RankedOperationSpec } from '../../core/query/registry';
import { queryText, type ParsedArgs } from '../args';
import { optionFlags, optionValues, type Command, type CommandIO } from '../command';
import { ENGINE_FLAGS } from '../vault';

/**
 * The command of a ranked operation (core/query/registry.ts): its name, summary, text and options
 * come from the operation; `answer` gets the request its query text and flags build, once `check`
 * (the usage checks that read nothing: see Command.check) has passed it.
 */
export function rankedCommand<Name extends 'search' | 'pack', Request>(
	operation: RankedOperationSpec<Name, Request>,
	examples: string[],
	answer: (args: ParsedArgs, io: CommandIO, request: Request) => Promise<number>,
	check?: (request: Request) => void,
): Command {
	const requestOf = (args: ParsedArgs): Request => {
		const request = operation.build(queryText(args), optionValues(args, operation.options));
		check?.(request);
		return request;
	};
	return {
		name: operation.name,
		summary: operation.summary,
		usage: `"<${operation.text.name}>"`,
		examples,
		flags: { ...optionFlags(operation.options), ...ENGINE_FLAGS },
		check: (args) => void requestOf(args),
		run: (args, io) => answer(args, io, requestOf(args)),
	};
}
