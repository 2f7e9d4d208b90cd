/** The syntax tree of a Bases expression; every node keeps its 0-based offset for error messages. */

/** One node of a parsed expression. */
export type Node =
	| { t: 'lit'; value: null | boolean | number | string; pos: number }
	| { t: 'regex'; source: string; flags: string; pos: number }
	| { t: 'name'; name: string; pos: number }
	| { t: 'member'; object: Node; name: string; pos: number }
	| { t: 'index'; object: Node; index: Node; pos: number }
	| { t: 'call'; name: string; args: Node[]; pos: number }
	| { t: 'method'; object: Node; name: string; args: Node[]; pos: number }
	| { t: 'unary'; op: '!' | '-'; arg: Node; pos: number }
	| { t: 'binary'; op: string; left: Node; right: Node; pos: number }
	| { t: 'list'; items: Node[]; pos: number }
	| { t: 'object'; entries: [string, Node][]; pos: number };

/** A parsed expression with its source text (errors quote it). */
export interface Expression {
	readonly text: string;
	readonly root: Node;
}

/** Every node of `node`'s tree, depth first (the parser bounds the depth). */
export function* walk(node: Node): Generator<Node> {
	yield node;
	switch (node.t) {
		case 'member':
			yield* walk(node.object);
			break;
		case 'index':
			yield* walk(node.object);
			yield* walk(node.index);
			break;
		case 'call':
			for (const a of node.args) yield* walk(a);
			break;
		case 'method':
			yield* walk(node.object);
			for (const a of node.args) yield* walk(a);
			break;
		case 'unary':
			yield* walk(node.arg);
			break;
		case 'binary':
			yield* walk(node.left);
			yield* walk(node.right);
			break;
		case 'list':
			for (const a of node.items) yield* walk(a);
			break;
		case 'object':
			for (const [, a] of node.entries) yield* walk(a);
			break;
		default:
			break;
	}
}
