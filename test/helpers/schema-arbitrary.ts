/**
 * fast-check arbitraries from the JSON Schemas (2020-12) of an OpenAPI document: `validOf` makes
 * values the schema accepts (enums, consts, patterns, lengths, bounds, required and optional
 * properties, `oneOf` of required sets as "exactly one of"); `hostileOf` makes, beside valid ones,
 * values the schema refuses or that probe the edges: a missing required property, an unknown one,
 * a value of another type, NUL and other controls, lone surrogates, deep nesting, huge numbers.
 * Strings are kept short (the fuzzer probes shapes, not sizes). Pure: no I/O.
 */
import fc from 'fast-check';

type Schema = Record<string, any>;

export interface ArbitraryOptions {
  /** The document, to resolve `$ref`s (`#/components/...`). */
  root?: Schema;
  /**
   * Values for properties of these names, used about half of the time where the schema is a
   * string (ids of real objects; a property of the same name that is a number, such as a comment's
   * `from` offset beside a diff's `from` version, keeps its own values).
   */
  named?: Record<string, fc.Arbitrary<unknown>>;
  /** Longest generated string when the schema allows longer (default 40). */
  maxString?: number;
}

/** Characters of ordinary text plus those that mean something to markdown, JSON, URLs or a database. */
const SPECIAL = ['\u0000', '\u0001', '\u001f', '\u007f', '\n', '\r', '\t', '*', '_', '#', '`', '<', '>', '[', ']', '\\', '"', "'", '%', '/', '?', '&', '|', 'é', 'ß', '😀', 'ש', '\u200b', '\ufeff'];
const textChar = fc.oneof({ weight: 5, arbitrary: fc.string({ minLength: 1, maxLength: 1 }) }, { weight: 2, arbitrary: fc.constantFrom(...SPECIAL) });

function resolve(schema: Schema, opts: ArbitraryOptions): Schema {
  let s = schema;
  for (let i = 0; i < 10 && typeof s?.$ref === 'string'; i++) {
    const path = s.$ref.replace(/^[^#]*#\//, '').split('/');
    s = path.reduce((node: any, key: string) => node?.[key], opts.root);
  }
  return s ?? {};
}

function lengthOk(s: string, schema: Schema): boolean {
  const n = [...s].length; // JSON Schema counts code points
  return n >= (schema.minLength ?? 0) && (schema.maxLength === undefined || n <= schema.maxLength);
}

function stringOf(schema: Schema, opts: ArbitraryOptions): fc.Arbitrary<string> {
  const max = Math.min(schema.maxLength ?? Infinity, opts.maxString ?? 40);
  const min = Math.min(schema.minLength ?? 0, max);
  if (schema.format === 'uri') {
    const re = schema.pattern ? new RegExp(schema.pattern, 'u') : undefined;
    return fc.webUrl({ withQueryParameters: true }).filter((u) => (!re || re.test(u)) && lengthOk(u, schema));
  }
  if (schema.pattern) {
    const re = new RegExp(schema.pattern, 'u');
    // stringMatching makes short matches of any length; keep those that fit, else a fitting literal.
    return fc.stringMatching(re, { size: 'small' }).filter((s) => lengthOk(s, schema) && re.test(s));
  }
  return fc.array(textChar, { minLength: min, maxLength: Math.max(min, max) }).map((cs) => {
    let s = cs.join('');
    while ([...s].length > max) s = [...s].slice(0, max).join('');
    return s;
  }).filter((s) => lengthOk(s, schema));
}

function numberOf(schema: Schema, integer: boolean): fc.Arbitrary<number> {
  const lo = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + (integer ? 1 : Number.EPSILON * 4) : -1e6);
  const hi = schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - (integer ? 1 : Number.EPSILON * 4) : 1e6);
  if (integer) {
    const min = Math.max(Math.ceil(lo), Number.MIN_SAFE_INTEGER);
    const max = Math.min(Math.floor(hi), Number.MAX_SAFE_INTEGER);
    return fc.oneof(fc.integer({ min, max: Math.min(max, min + 1000) }), fc.constantFrom(min, max), fc.integer({ min, max }));
  }
  const ex = schema.exclusiveMinimum;
  return fc
    .oneof(fc.double({ min: lo, max: hi, noNaN: true, noDefaultInfinity: true }), fc.constantFrom(lo, hi), fc.integer({ min: Math.ceil(lo), max: Math.floor(Math.min(hi, lo + 100)) }))
    .filter((n) => Number.isFinite(n) && (ex === undefined || n > ex) && n >= lo && n <= hi);
}

/** A payload of unknown shape (`items: {}`): a little JSON, or an object with the usual block fields. */
function anyValue(): fc.Arbitrary<unknown> {
  const text = fc.array(textChar, { maxLength: 24 }).map((cs) => cs.join(''));
  return fc.oneof(
    fc.jsonValue({ maxDepth: 2 }),
    text,
    fc.record(
      {
        content: text,
        level: fc.integer({ min: 0, max: 7 }),
        items: fc.array(text, { maxLength: 3 }),
        html: text,
        language: text,
        src: fc.oneof(fc.webUrl(), text),
        rows: fc.array(fc.array(text, { maxLength: 3 }), { maxLength: 3 }),
        checked: fc.boolean(),
      },
      { requiredKeys: [] },
    ),
  );
}

/** `oneOf` branches that only name required properties ("exactly one of"), folded into the object. */
function exactlyOneBranches(schema: Schema): Schema[] | undefined {
  const branches: Schema[] | undefined = schema.oneOf;
  if (!branches || !schema.properties || !branches.every((b) => Object.keys(b).every((k) => k === 'required'))) return undefined;
  return branches.map((b) => {
    const others = branches.flatMap((o) => (o === b ? [] : o.required as string[])).filter((k) => !(b.required as string[]).includes(k));
    const properties = Object.fromEntries(Object.entries(schema.properties).filter(([k]) => !others.includes(k)));
    const { oneOf: _drop, ...rest } = schema;
    return { ...rest, properties, required: [...new Set([...(schema.required ?? []), ...b.required])] };
  });
}

function objectOf(schema: Schema, opts: ArbitraryOptions): fc.Arbitrary<Record<string, unknown>> {
  const props: Record<string, Schema> = schema.properties ?? {};
  const required: string[] = schema.required ?? [];
  const shape: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [k, s] of Object.entries(props)) shape[k] = validOf(s, opts, k);
  const record = fc.record(shape, { requiredKeys: required.filter((k) => k in props) });
  const extra = schema.additionalProperties;
  if (extra && typeof extra === 'object') {
    const key = schema.propertyNames ? stringOf(resolve(schema.propertyNames, opts), opts) : fc.string({ maxLength: 8 });
    return fc.tuple(record, fc.dictionary(key, validOf(extra, opts), { maxKeys: 4 })).map(([r, d]) => ({ ...d, ...r }));
  }
  return record as fc.Arbitrary<Record<string, unknown>>;
}

/** Values `schema` accepts (best effort: `allOf` and `not` are not read). */
export function validOf(schema: Schema, opts: ArbitraryOptions = {}, name?: string): fc.Arbitrary<unknown> {
  schema = resolve(schema, opts);
  const base = validOfResolved(schema, opts);
  const named = name !== undefined && schema.type === 'string' ? opts.named?.[name] : undefined;
  return named ? fc.oneof(named, base) : base;
}

function validOfResolved(schema: Schema, opts: ArbitraryOptions): fc.Arbitrary<unknown> {
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  const exactlyOne = exactlyOneBranches(schema);
  if (exactlyOne) return fc.oneof(...exactlyOne.map((b) => objectOf(b, opts)));
  const union: Schema[] | undefined = schema.oneOf ?? schema.anyOf;
  if (union) return fc.oneof(...union.map((b) => validOf(b, opts)));
  const type = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : undefined;
  if (!type) return anyValue();
  return fc.oneof(
    ...type.map((t: string): fc.Arbitrary<unknown> => {
      switch (t) {
        case 'string':
          return stringOf(schema, opts);
        case 'integer':
          return numberOf(schema, true);
        case 'number':
          return numberOf(schema, false);
        case 'boolean':
          return fc.boolean();
        case 'null':
          return fc.constant(null);
        case 'array':
          return fc.array(validOf(schema.items ?? {}, opts), { minLength: schema.minItems ?? 0, maxLength: Math.max(schema.minItems ?? 0, Math.min(schema.maxItems ?? 4, 4)) });
        case 'object':
          return objectOf(schema, opts);
        default:
          return anyValue();
      }
    }),
  );
}

/** Values that are not what a schema wants, or sit on its edges. */
const hostileLeaf: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom('', ' ', '\u0000', 'a\u0000b', '\u0001\u001f', '\ud800', 'x\udc00', '__proto__', 'constructor', '../../etc/passwd', '%00', '\u202e'),
  fc.constantFrom(-1, 0, -0, 1e308, -1e308, 2 ** 53, 0.5, 1e-300, Number.MAX_SAFE_INTEGER + 2),
  fc.constantFrom(null, true, false, [], {}, [[[[[[]]]]]], { __proto__: null }),
  fc.string({ minLength: 200, maxLength: 400 }),
);

/**
 * Valid values most of the time, otherwise a mutation: the whole value replaced by a hostile one,
 * or (objects) one property replaced, a required one dropped, or an unknown one added.
 */
export function hostileOf(schema: Schema, opts: ArbitraryOptions = {}): fc.Arbitrary<unknown> {
  const valid = validOf(schema, opts);
  const resolved = resolve(schema, opts);
  const mutated = valid.chain((v) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return hostileLeaf;
    const obj = v as Record<string, unknown>;
    const keys = [...new Set([...Object.keys(obj), ...Object.keys(resolved.properties ?? {})])];
    return fc.oneof(
      hostileLeaf,
      keys.length ? fc.tuple(fc.constantFrom(...keys), hostileLeaf).map(([k, h]) => ({ ...obj, [k]: h })) : hostileLeaf,
      keys.length ? fc.constantFrom(...keys).map((k) => Object.fromEntries(Object.entries(obj).filter(([key]) => key !== k))) : hostileLeaf,
      fc.tuple(fc.string({ minLength: 1, maxLength: 12 }), hostileLeaf).map(([k, h]) => ({ ...obj, [k]: h })),
    );
  });
  return fc.oneof({ weight: 3, arbitrary: valid }, { weight: 2, arbitrary: mutated });
}
