/**
 * JSON Schema → the OpenAPI 3.0 subset Gemini's `functionDeclarations[].parameters` accept:
 * `toGeminiSchema()` and the conversion behind it.
 *
 * Gemini parses `parameters` as its `Schema` message and answers 400 for any field it does not
 * know (`Unknown name "additionalProperties"`, `"$schema"`, `"$ref"`, `"const"`,
 * `"exclusiveMinimum"`, …). {@link toGeminiSchema} keeps what that message has, rewrites what
 * has an equivalent, inlines local references, and drops the rest (reporting each drop).
 *
 * The conversion is one {@link Converter} per schema (it spends a work budget on what it produces
 * and resolves references against the root). Against hostile schemas: names are looked up in
 * `Map`s and with `Object.hasOwn` only (a `type` of `constructor` is an unknown type); a `$ref`
 * chain is followed in a loop (the references being inlined are one `Set`, so a chain costs one
 * step per hop); `allOf` branches are merged from an explicit stack, not by recursion; every schema
 * node, `$ref` hop, merged `allOf` key and inlined annotation value spends one unit of the budget
 * ({@link MAX_NODES}); and the schema written is at most `maxDepth` JSON levels deep, so the
 * recursion that writes it is bounded.
 *
 * @module
 */
import { ToolStreamError } from '../../errors';
import { aMaxDepth, DEFAULT_MAX_REQUEST_DEPTH, fieldPath, jsonProblem } from '../../internal/jsonDepth';
import { aFunction, aString, checkOptions, type OptionChecks } from '../../internal/options';
import type { Schema as GeminiSchema, SchemaType as GeminiType } from '../../providers/gemini/wire';

/** One keyword {@link toGeminiSchema} left out (or a tool's `strict`, which the Gemini request translator leaves out). */
export interface GeminiSchemaDrop {
  /** The JSON path of the keyword (e.g. `'tools[0].function.parameters.properties.tags.uniqueItems'`). */
  readonly path: string;
  /** The keyword (e.g. `'additionalProperties'`). */
  readonly keyword: string;
  /** Why, e.g. `'Gemini schemas have no additionalProperties'`. */
  readonly reason: string;
}

/** Options of {@link toGeminiSchema}. */
export interface GeminiSchemaOptions {
  /** The schema's JSON path in the request, prefixed to the paths of errors and drops. Default `''`. */
  readonly path?: string;
  /** Called for every keyword left out. Default: nothing (throw from it to refuse a lossy conversion). */
  readonly onDrop?: (drop: GeminiSchemaDrop) => void;
  /**
   * The deepest nesting accepted, in JSON levels (an object or array is one level, the schema itself
   * level 1), both in the schema given and in the schema written once references are inlined.
   * Deeper throws `unsupported-request`. A whole number from 1 to 1,024; default 512.
   */
  readonly maxDepth?: number;
}

/** The checks of {@link GeminiSchemaOptions}' keys. */
const GEMINI_SCHEMA_OPTION_CHECKS: OptionChecks = { path: aString, onDrop: aFunction, maxDepth: aMaxDepth };

/** JSON Schema type names → Gemini's, looked up with `Object.hasOwn` (`constructor` or `toString` is not a type). */
const TYPES: Readonly<Record<string, GeminiType>> = { string: 'STRING', number: 'NUMBER', integer: 'INTEGER', boolean: 'BOOLEAN', array: 'ARRAY', object: 'OBJECT', null: 'NULL' };
/** Gemini's own type names, also accepted as they are. */
const GEMINI_TYPES: ReadonlySet<string> = /* @__PURE__ */ new Set(['STRING', 'NUMBER', 'INTEGER', 'BOOLEAN', 'ARRAY', 'OBJECT', 'NULL']);
/** Keywords of every type, copied as they are. */
const ANNOTATIONS = ['title', 'description', 'default', 'example'] as const;
/** Keywords that apply to one type only: Gemini rejects them on another. */
const TYPED: ReadonlyArray<readonly [string, readonly GeminiType[]]> = [
  ['properties', ['OBJECT']],
  ['required', ['OBJECT']],
  ['propertyOrdering', ['OBJECT']],
  ['minProperties', ['OBJECT']],
  ['maxProperties', ['OBJECT']],
  ['items', ['ARRAY']],
  ['minItems', ['ARRAY']],
  ['maxItems', ['ARRAY']],
  ['prefixItems', ['ARRAY']],
  ['minLength', ['STRING']],
  ['maxLength', ['STRING']],
  ['pattern', ['STRING']],
  ['minimum', ['NUMBER', 'INTEGER']],
  ['maximum', ['NUMBER', 'INTEGER']],
  ['exclusiveMinimum', ['NUMBER', 'INTEGER']],
  ['exclusiveMaximum', ['NUMBER', 'INTEGER']],
];
/** The formats the Gemini API accepts, per type (only Gemini types are looked up). */
const FORMATS: Partial<Record<GeminiType, readonly string[]>> = { STRING: ['date-time', 'enum'], NUMBER: ['float', 'double'], INTEGER: ['int32', 'int64'] };
/** Keywords consumed by the conversion itself. */
const STRUCTURAL = /* @__PURE__ */ new Set(['type', 'nullable', 'enum', 'const', 'anyOf', 'oneOf', 'allOf', 'format', '$defs', 'definitions', ...ANNOTATIONS, ...TYPED.map(([key]) => key)]);
/**
 * The work budget of one conversion: schema nodes written, `$ref` hops followed, keys merged from
 * `allOf` branches and JSON values of inlined annotations (`default`, `example`), together.
 */
const MAX_NODES = 10_000;

type Node = Record<string, unknown>;

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `node[key]` when `node` has it as its own property. */
function own(node: Node, key: string): unknown {
  return Object.hasOwn(node, key) ? node[key] : undefined;
}

/** Set `key` as an own data property (`__proto__` included: never the prototype setter). */
function setOwn(node: Node, key: string, value: unknown): void {
  Object.defineProperty(node, key, { value, writable: true, enumerable: true, configurable: true });
}

/** A pending step of the `allOf` merge: a branch to merge, or the end of a branch whose references are no longer being inlined. */
type MergeStep = { readonly branch: unknown; readonly path: string } | { readonly done: readonly string[] };

/** Converts one schema (see `toGeminiSchema()`). */
class Converter {
  private work = 0;
  private readonly maxDepth: number;
  /** The references being inlined on the way from the root to the node at hand (the root itself, `#`, always): meeting one again is a recursion. */
  private readonly inlining = new Set<string>(['#']);
  /** JSON text of compared values, by object (each is written once). */
  private readonly texts = new WeakMap<object, string>();
  /** The size (JSON values) and depth (levels) of annotation values, by object. */
  private readonly measures = new WeakMap<object, { readonly size: number; readonly depth: number }>();

  constructor(
    private readonly root: unknown,
    private readonly options: GeminiSchemaOptions,
  ) {
    this.maxDepth = options.maxDepth ?? DEFAULT_MAX_REQUEST_DEPTH;
  }

  /** Convert the root schema. */
  run(): GeminiSchema {
    const path = this.options.path ?? '';
    const problem = jsonProblem(this.root, this.maxDepth, path);
    if (problem !== undefined) this.fail(problem.path, problem.detail);
    return this.convert(this.root, path, 1);
  }

  private fail(path: string, detail: string): never {
    throw new ToolStreamError('unsupported-request', { target: 'gemini', field: path, detail });
  }

  private spend(path: string, units = 1): void {
    this.work += units;
    if (this.work > MAX_NODES) this.fail(path, `the schema has more than ${MAX_NODES} nodes once references are inlined`);
  }

  private drop(path: string, keyword: string, reason: string): void {
    this.options.onDrop?.({ path: fieldPath(path, keyword), keyword, reason });
  }

  /**
   * `value` as a schema object with its `$ref` chain inlined (siblings of a `$ref` override its
   * target, the outer ones the inner). The references followed are added to `inlining` and listed
   * in `added`, for the caller to remove once the node is done.
   */
  private resolve(value: unknown, path: string, added: string[]): Node {
    let current = value;
    // Whatever goes wrong along a chain is reported at its first `$ref`, the one written at `path`.
    const refPath = fieldPath(path, '$ref');
    const layers: Node[] = []; // the nodes of the chain that have siblings beside their $ref, outermost first
    for (;;) {
      const at = added.length === 0 ? path : refPath;
      if (current === true) current = {};
      if (current === false) this.fail(at, 'a false schema (nothing is valid) cannot be expressed');
      if (!isNode(current)) this.fail(at, 'a schema must be an object or a boolean');
      if (!Object.hasOwn(current, '$ref')) break;
      const ref = current['$ref'];
      const via = added.length === 0 ? '' : ` (reached through ${added.length} reference${added.length === 1 ? '' : 's'})`;
      if (typeof ref !== 'string' || !ref.startsWith('#')) this.fail(refPath, `only local references (#/…) can be inlined${via}`);
      if (this.inlining.has(ref)) this.fail(refPath, `the recursive reference ${ref} cannot be inlined${via} (the gemini parametersJsonSchema option sends the schema unchanged)`);
      this.spend(refPath);
      this.inlining.add(ref);
      added.push(ref);
      if (Object.keys(current).length > 1) layers.push(current);
      current = this.pointer(ref, refPath);
    }
    if (layers.length === 0) return current;
    const node: Node = { ...current };
    for (let i = layers.length - 1; i >= 0; i--) {
      const layer = layers[i] as Node;
      for (const key of Object.keys(layer)) if (key !== '$ref') setOwn(node, key, layer[key]);
    }
    return node;
  }

  /** The value a local JSON pointer (`#/$defs/Item`) designates in the root. */
  private pointer(ref: string, refPath: string): unknown {
    if (ref === '#') return this.root;
    if (!ref.startsWith('#/')) this.fail(refPath, `${ref} points to nothing`);
    let value: unknown = this.root;
    for (const raw of ref.slice(2).split('/')) {
      let key: string;
      try {
        key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
      } catch {
        return this.fail(refPath, `${JSON.stringify(ref)} is not a valid JSON pointer (a bad %-escape)`);
      }
      if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) this.fail(refPath, `${ref} points to nothing`);
      value = (value as Node)[key];
    }
    return value;
  }

  /** Convert the schema `value` found at `path`, to be written `depth` JSON levels deep (the root is 1). */
  convert(value: unknown, path: string, depth: number): GeminiSchema {
    this.spend(path);
    if (depth > this.maxDepth) this.fail(path, `the schema is nested deeper than ${this.maxDepth} levels once references are inlined (the maxDepth option)`);
    const added: string[] = [];
    const node = this.mergeAllOf(this.resolve(value, path, added), path);
    for (const key of Object.keys(node)) {
      if (!STRUCTURAL.has(key)) this.drop(path, key, `Gemini schemas have no ${key}`);
    }
    const out: GeminiSchema = {};
    for (const key of ANNOTATIONS) {
      const annotation = own(node, key);
      if (annotation === undefined) continue;
      if ((key === 'title' || key === 'description') && typeof annotation !== 'string') this.fail(fieldPath(path, key), 'must be a string');
      if (key === 'default' || key === 'example') this.inlineValue(annotation, fieldPath(path, key), depth);
      (out as Node)[key] = annotation;
    }
    let nullable = own(node, 'nullable') === true;
    let types = this.typesOf(node, fieldPath(path, 'type'));
    if (types.includes('NULL') && types.length > 1) {
      nullable = true;
      types = types.filter((t) => t !== 'NULL');
    }
    const values = this.enumOf(node, path);
    if (values?.nullable === true) nullable = true;
    const alternatives = this.alternativesOf(node, path, depth);
    if (alternatives.nullable) nullable = true;
    if (types.length > 1) {
      if (alternatives.schemas.length > 0) this.fail(fieldPath(path, 'type'), 'a type list together with anyOf / oneOf cannot be expressed');
      out.anyOf = types.map((type) => this.typed(node, type, path, depth + 2, values?.list));
    } else {
      Object.assign(out, this.typed(node, types[0], path, depth, values?.list));
      if (alternatives.schemas.length === 1) Object.assign(out, alternatives.schemas[0], stripUndefined(pick(out, ANNOTATIONS)));
      else if (alternatives.schemas.length > 1) out.anyOf = alternatives.schemas;
    }
    if (nullable) out.nullable = true;
    for (const ref of added) this.inlining.delete(ref);
    return out;
  }

  /** An annotation value copied into the schema `depth` levels deep: it spends its size and must fit under `maxDepth`. */
  private inlineValue(value: unknown, path: string, depth: number): void {
    const { size, depth: levels } = this.measure(value);
    this.spend(path, size);
    if (depth + levels > this.maxDepth) this.fail(path, `the schema is nested deeper than ${this.maxDepth} levels once references are inlined (the maxDepth option)`);
  }

  /** The number of JSON values in `value` and its depth in levels (0 for a scalar), without recursion; once per object. */
  private measure(value: unknown): { readonly size: number; readonly depth: number } {
    if (typeof value !== 'object' || value === null) return { size: 1, depth: 0 };
    const known = this.measures.get(value);
    if (known !== undefined) return known;
    // Post-order over the (acyclic: `run` checked it) value.
    const stack: Array<{ readonly node: object; expanded: boolean }> = [{ node: value, expanded: false }];
    while (stack.length > 0) {
      const top = stack[stack.length - 1] as { readonly node: object; expanded: boolean };
      const children = Object.values(top.node) as unknown[];
      if (!top.expanded) {
        top.expanded = true;
        for (const child of children) if (typeof child === 'object' && child !== null && !this.measures.has(child)) stack.push({ node: child, expanded: false });
        continue;
      }
      stack.pop();
      let size = 1;
      let depth = 1;
      for (const child of children) {
        const m = typeof child === 'object' && child !== null ? (this.measures.get(child) ?? { size: 1, depth: 0 }) : { size: 1, depth: 0 };
        size += m.size;
        depth = Math.max(depth, m.depth + 1);
      }
      this.measures.set(top.node, { size, depth });
    }
    return this.measures.get(value) ?? { size: 1, depth: 1 };
  }

  /** The keywords of one type (or of no type), with `properties` and `items` converted; `depth`: where the schema is written. */
  private typed(node: Node, type: GeminiType | undefined, path: string, depth: number, values: string[] | undefined): GeminiSchema {
    const out: GeminiSchema = type === undefined ? {} : { type };
    if (values !== undefined) out.enum = values;
    const format = own(node, 'format');
    if (format !== undefined) {
      if (type !== undefined && typeof format === 'string' && FORMATS[type]?.includes(format) === true) out.format = format;
      else this.drop(path, 'format', `Gemini accepts no format ${JSON.stringify(format)} here`);
    }
    for (const [key, on] of TYPED) {
      const value = own(node, key);
      if (value === undefined) continue;
      if (type === undefined || !on.includes(type)) {
        this.drop(path, key, `${key} applies to ${on.join(' / ').toLowerCase()} values only`);
        continue;
      }
      const keyPath = fieldPath(path, key);
      if (key === 'properties') {
        if (!isNode(value)) this.fail(keyPath, 'must be an object');
        out.properties = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, this.convert(sub, fieldPath(keyPath, name), depth + 2)]));
      } else if (key === 'items') {
        if (Array.isArray(value)) this.fail(keyPath, 'tuples (an items list) cannot be expressed');
        out.items = this.convert(value, keyPath, depth + 1);
      } else if (key === 'prefixItems') {
        this.fail(keyPath, 'tuples (prefixItems) cannot be expressed');
      } else if (key === 'required' || key === 'propertyOrdering') {
        if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) this.fail(keyPath, 'must be a list of names');
        out[key] = [...(value as string[])];
      } else if (key === 'pattern') {
        if (typeof value !== 'string') this.fail(keyPath, 'must be a string');
        out.pattern = value;
      } else if (key === 'exclusiveMinimum' || key === 'exclusiveMaximum') {
        this.exclusive(node, key, type, out, path);
      } else {
        if (typeof value !== 'number' || !Number.isFinite(value)) this.fail(keyPath, 'must be a number');
        (out as Node)[key] = value;
      }
    }
    return out;
  }

  /** `exclusiveMinimum` / `exclusiveMaximum` (a number, or draft 4's boolean beside `minimum` / `maximum`) as an inclusive bound. */
  private exclusive(node: Node, key: 'exclusiveMinimum' | 'exclusiveMaximum', type: GeminiType, out: GeminiSchema, path: string): void {
    const lower = key === 'exclusiveMinimum';
    const bound = lower ? 'minimum' : 'maximum';
    const raw = own(node, key);
    const boundValue = own(node, bound);
    const value = raw === true ? boundValue : raw === false ? undefined : raw;
    if (value === undefined) return;
    if (typeof value !== 'number' || !Number.isFinite(value)) this.fail(fieldPath(path, key), 'must be a number or a boolean beside a number bound');
    const step = lower ? Math.floor(value) + 1 : Math.ceil(value) - 1;
    const inclusive = type === 'INTEGER' ? step : value;
    if (type !== 'INTEGER') this.drop(path, key, `Gemini has no exclusive bounds: ${bound} ${value} is inclusive`);
    const other = typeof boundValue === 'number' && raw !== true ? boundValue : undefined;
    out[bound] = other === undefined ? inclusive : lower ? Math.max(other, inclusive) : Math.min(other, inclusive);
  }

  /** The Gemini types of a node: its `type` (string or list), or inferred from `properties` / `items`. */
  private typesOf(node: Node, path: string): GeminiType[] {
    const raw = own(node, 'type');
    if (raw === undefined) return own(node, 'properties') !== undefined ? ['OBJECT'] : own(node, 'items') !== undefined ? ['ARRAY'] : [];
    const names: unknown[] = Array.isArray(raw) ? raw : [raw];
    if (names.length === 0) this.fail(path, 'must name at least one type');
    const types = new Set<GeminiType>();
    for (const name of names) {
      const type = typeof name === 'string' ? ((Object.hasOwn(TYPES, name) ? TYPES[name] : undefined) ?? (GEMINI_TYPES.has(name) ? (name as GeminiType) : undefined)) : undefined;
      types.add(type ?? this.fail(path, `unknown type ${JSON.stringify(name)}`));
    }
    return [...types];
  }

  /** `enum` / `const` as Gemini's string enum; `null` among the values makes the schema nullable. */
  private enumOf(node: Node, path: string): { list: string[]; nullable: boolean } | undefined {
    const hasConst = own(node, 'const') !== undefined;
    const raw = hasConst ? [own(node, 'const')] : own(node, 'enum');
    if (raw === undefined) return undefined;
    const key = hasConst ? 'const' : 'enum';
    if (!Array.isArray(raw) || raw.length === 0) this.fail(fieldPath(path, key), 'must be a non-empty list');
    const list: string[] = [];
    let nullable = false;
    raw.forEach((value: unknown, i) => {
      if (value === null) nullable = true;
      else if (typeof value === 'string') list.push(value);
      else if (typeof value === 'number' || typeof value === 'boolean') list.push(String(value));
      else this.fail(hasConst ? fieldPath(path, key) : fieldPath(fieldPath(path, key), i), 'object and array enum values cannot be expressed');
    });
    return { list, nullable };
  }

  /** `anyOf` / `oneOf` branches, converted, with `{ type: 'null' }` branches taken out as `nullable`. */
  private alternativesOf(node: Node, path: string, depth: number): { schemas: GeminiSchema[]; nullable: boolean } {
    if (own(node, 'anyOf') !== undefined && own(node, 'oneOf') !== undefined) this.fail(fieldPath(path, 'oneOf'), 'anyOf and oneOf together cannot be expressed');
    const key = own(node, 'oneOf') !== undefined ? 'oneOf' : 'anyOf';
    const raw = own(node, key);
    if (raw === undefined) return { schemas: [], nullable: false };
    if (!Array.isArray(raw) || raw.length === 0) this.fail(fieldPath(path, key), 'must be a non-empty list');
    const schemas = raw.map((branch: unknown, i) => this.convert(branch, fieldPath(fieldPath(path, key), i), depth + 2));
    const nonNull = schemas.filter((s) => !(s.type === 'NULL' && Object.keys(s).length === 1));
    return { schemas: nonNull, nullable: nonNull.length < schemas.length };
  }

  /**
   * `node` with its `allOf` branches merged in, nested `allOf`s included (`properties` and
   * `required` united; any other conflict throws). From an explicit stack: no recursion per level.
   */
  private mergeAllOf(node: Node, path: string): Node {
    if (!Object.hasOwn(node, 'allOf')) return node;
    const { allOf: branches, ...merged } = node;
    const steps: MergeStep[] = [];
    this.pushBranches(steps, branches, path);
    let properties: Node | undefined; // the merged properties, once a second branch brought some (owned here)
    let required: Set<unknown> | undefined;
    while (steps.length > 0) {
      const step = steps.pop() as MergeStep;
      if ('done' in step) {
        for (const ref of step.done) this.inlining.delete(ref);
        continue;
      }
      const added: string[] = [];
      const branch = this.resolve(step.branch, step.path, added);
      steps.push({ done: added });
      for (const key of Object.keys(branch)) {
        if (key === 'allOf') continue;
        const value = branch[key];
        const keyPath = fieldPath(step.path, key);
        this.spend(keyPath);
        const current = own(merged, key);
        if (current === undefined) {
          setOwn(merged, key, value);
        } else if (current === value) {
          continue;
        } else if (key === 'properties' && isNode(current) && isNode(value)) {
          if (properties === undefined) {
            properties = { ...current };
            setOwn(merged, key, properties);
          }
          for (const name of Object.keys(value)) {
            this.spend(keyPath);
            const mine = own(properties, name);
            const theirs = value[name];
            if (mine !== undefined && !this.sameJson(mine, theirs)) this.fail(keyPath, 'conflicting allOf properties cannot be merged');
            setOwn(properties, name, theirs);
          }
        } else if (key === 'required' && Array.isArray(value) && (required !== undefined || Array.isArray(current))) {
          // United in one set (written back at the end), not copied per branch.
          required ??= new Set<unknown>(current as unknown[]);
          for (const name of value) required.add(name);
          this.spend(keyPath, value.length);
        } else if (!this.sameJson(current, value)) {
          this.fail(keyPath, 'conflicting allOf branches cannot be merged');
        }
      }
      if (Object.hasOwn(branch, 'allOf')) this.pushBranches(steps, branch['allOf'], step.path);
    }
    if (required !== undefined) setOwn(merged, 'required', [...required]);
    return merged;
  }

  /** Push the branches of the `allOf` of the node at `path` (first on top). */
  private pushBranches(steps: MergeStep[], branches: unknown, path: string): void {
    const allOfPath = fieldPath(path, 'allOf');
    if (!Array.isArray(branches)) this.fail(allOfPath, 'must be a list');
    for (let i = branches.length - 1; i >= 0; i--) steps.push({ branch: branches[i], path: fieldPath(allOfPath, i) });
  }

  /** Whether two values are the same JSON (each object written as text once). */
  private sameJson(a: unknown, b: unknown): boolean {
    if (a === b) return true;
    if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return JSON.stringify(a) === JSON.stringify(b);
    return this.text(a) === this.text(b);
  }

  private text(value: object): string {
    let text = this.texts.get(value);
    if (text === undefined) {
      text = JSON.stringify(value);
      this.texts.set(value, text);
    }
    return text;
  }
}

function pick(schema: GeminiSchema, keys: readonly string[]): Partial<GeminiSchema> {
  return Object.fromEntries(keys.map((key) => [key, (schema as Node)[key]]));
}

function stripUndefined(record: Partial<GeminiSchema>): Partial<GeminiSchema> {
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined));
}

/**
 * Convert a JSON Schema (draft 7 / 2020-12, or OpenAPI 3.0) into the schema Gemini's function
 * declarations accept.
 *
 * 1. Kept: `type` (as Gemini's upper-case names), `title`, `description`, `default`, `example`,
 *    `nullable`, `enum`, `format` (the ones Gemini accepts), `properties`, `required`,
 *    `propertyOrdering`, `min/maxProperties`, `items`, `min/maxItems`, `min/maxLength`,
 *    `pattern`, `minimum`, `maximum`, `anyOf`.
 * 2. Rewritten: `const` → a one-value `enum`; enum numbers and booleans → strings; `null` in a
 *    `type` list, an `enum` or an `anyOf` branch → `nullable: true`; a `type` list → `anyOf`;
 *    `oneOf` → `anyOf`; `allOf` → merged into one schema; `exclusiveMinimum` /
 *    `exclusiveMaximum` → `minimum` / `maximum` (exact for integers, inclusive for numbers,
 *    reported); local `$ref` (`#/$defs/…`, `#/definitions/…`, any `#/…` pointer) → inlined.
 * 3. Dropped and reported to `onDrop`: every other keyword (`$schema`, `$id`,
 *    `additionalProperties`, `uniqueItems`, `multipleOf`, `not`, `if`, `patternProperties`,
 *    `examples`, unsupported formats, type-specific keywords on another type, …).
 * 4. Throws `unsupported-request` (target `gemini`, naming the keyword) for what has no
 *    equivalent: a recursive or non-local `$ref`, a tuple (`prefixItems`, array `items`), a
 *    `false` schema, conflicting `allOf` branches, object or array enum values.
 * 5. Hostile schemas end with `unsupported-request` too, never a stack overflow or a raw
 *    `TypeError` / `URIError`: a schema (given, or once inlined) nested deeper than `maxDepth`
 *    (default 512 levels); more than 10,000 units of work (each schema node written, `$ref` hop
 *    followed, key merged from an `allOf` branch and JSON value of an inlined `default` /
 *    `example` is one); a `$ref` with a bad %-escape; a type name that is not a JSON Schema type
 *    (`"constructor"`). A `$ref` chain costs one step per hop.
 *
 * @example
 * ```ts
 * import { toGeminiSchema } from 'rxjs-tool-calls/tools';
 *
 * console.log(toGeminiSchema({ type: 'object', properties: { unit: { const: 'celsius' } }, additionalProperties: false }));
 * // displays: { type: 'OBJECT', properties: { unit: { enum: ['celsius'] } } }
 * ```
 *
 * @param schema The JSON Schema (a `false` schema throws, `true` is `{}`).
 * @param options `path` (for errors and drops), `onDrop` and `maxDepth`.
 * @return A new schema; the input is not modified.
 */
export function toGeminiSchema(schema: Readonly<Record<string, unknown>> | boolean, options: GeminiSchemaOptions = {}): GeminiSchema {
  checkOptions('toGeminiSchema', options, GEMINI_SCHEMA_OPTION_CHECKS);
  return new Converter(schema, options).run();
}
