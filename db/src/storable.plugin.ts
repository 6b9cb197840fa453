import {
  OperationNodeTransformer,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type PrimitiveValueListNode,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
  type ValueNode,
} from "kysely";
import { storableText } from "@fixloop/contract";

const clean = (v: unknown): unknown => (typeof v === "string" ? storableText(v) : v);

class StorableStrings extends OperationNodeTransformer {
  protected override transformValue(node: ValueNode): ValueNode {
    return typeof node.value === "string" ? { ...node, value: storableText(node.value) } : node;
  }
  protected override transformPrimitiveValueList(node: PrimitiveValueListNode): PrimitiveValueListNode {
    return { ...node, values: node.values.map(clean) };
  }
}

/**
 * Every string parameter of every query made storable (NUL and lone surrogates → U+FFFD): the one
 * place rows are written, so no text from outside (test output, model answers, step details) can
 * fail a write. JSON columns are made storable by their codecs (json-columns.ts).
 */
export class StorableTextPlugin implements KyselyPlugin {
  readonly #transformer = new StorableStrings();
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return this.#transformer.transformNode(args.node, args.queryId);
  }
  transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return Promise.resolve(args.result);
  }
}
