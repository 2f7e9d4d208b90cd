/** The Node parser wrapped so a test can count how many notes a read or a refresh parsed. */
import { parseNote } from '../../src/node/parser/index';

/** A parser that counts its calls in `counter.parses`, and the counter. */
export function countingParse(): { counter: { parses: number }; parse: typeof parseNote } {
	const counter = { parses: 0 };
	const parse = (text: string): ReturnType<typeof parseNote> => {
		counter.parses++;
		return parseNote(text);
	};
	return { counter, parse };
}
