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

/** The nodes directly under a node of each kind, in source order (a new kind of node must say its own). */
const CHILDREN: { [T in Node['t']]: (node: Extract<Node, { t: T }>) => Node[] } = {
	lit: () => [],
	regex: () => [],
	name: () => [],
	member: (n) => [n.object],
	index: (n) => [n.object, n.index],
	call: (n) => n.args,
	method: (n) => [n.object, ...n.args],
	unary: (n) => [n.arg],
	binary: (n) => [n.left, n.right],
	list: (n) => n.items,
	object: (n) => n.entries.map(([, value]) => value),
};

/** Every node of `node`'s tree, depth first (the parser bounds the depth). */
export function* walk(node: Node): Generator<Node> {
	yield node;
	// The entry for `node.t` takes that kind of node, which TypeScript cannot tell from the lookup.
	const children = CHILDREN[node.t] as (node: Node) => Node[];
	for (const child of children(node)) yield* walk(child);
}
