import type { ErrorObject, ValidateFunction } from 'ajv';
import type Ajv from 'ajv';
import { VALIDATORS_BY_SCHEMA_TEXT } from '../builtins/input-validators.generated';
import { createAjv } from '../json-schema/ajv';
import type { JsonObjectSchema, ToolInput } from '../types';

/**
 * The built-ins' validators, compiled when the project is built (scripts/build-builtin-validators.mjs,
 * the same Ajv and options), by their schema's JSON text: a session that calls only built-ins never
 * loads Ajv. A schema not found here (a plugin tool's, or a built-in's changed since) is compiled.
 */
const PRECOMPILED = VALIDATORS_BY_SCHEMA_TEXT as unknown as Readonly<Record<string, ValidateFunction | undefined>>;

/**
 * A compiled schema, and whether validating can write to the input: only `default` makes Ajv
 * (with `useDefaults`) change it. Decided once, on the schema's JSON text: a "default" string
 * anywhere (even a property named so) only costs a needless copy.
 */
interface CompiledSchema {
  readonly validate: ValidateFunction;
  readonly hasDefaults: boolean;
}

/** A validation outcome: the input with defaults applied, or what the model must fix (one problem a line). */
export type InputCheck =
  | { readonly ok: true; readonly input: ToolInput }
  | { readonly ok: false; readonly message: string };

/**
 * Validates tool input against its inputSchema before anything runs. The built-ins' validators
 * are precompiled (PRECOMPILED); for any other schema Ajv is loaded on the first call (~10 ms to
 * require, which start-up must not pay), and each distinct schema is compiled once and kept:
 * compiling is ~1 ms per schema, validating ~100 ns.
 * Validators are keyed by the schema's JSON text, so a reload that leaves a tool's schema
 * unchanged reuses its compiled validator.
 */
export class InputValidator {
  private ajv: Ajv | undefined;
  private readonly compiled = new Map<string, CompiledSchema>();
  /** By schema object: spares the JSON.stringify of the schema on every call after the first. */
  private readonly bySchema = new WeakMap<JsonObjectSchema, CompiledSchema>();

  /**
   * The one place defaults are applied (Ajv's useDefaults): handlers receive input with every
   * default filled in and apply none themselves. `root` names the whole value in the problems
   * ("arguments" for a call's input, "answer" for a user's answer to a form).
   */
  check(schema: JsonObjectSchema, input: unknown, root = 'arguments'): InputCheck {
    if (input === undefined || input === null) {
      input = {};
    }
    if (typeof input !== 'object' || Array.isArray(input)) {
      return { ok: false, message: `- ${root}: must be a JSON object` };
    }
    const { validate, hasDefaults } = this.validatorFor(schema);
    // Ajv applies defaults in place; the caller's object stays as it was sent. Without any
    // `default` in the schema nothing is written, so the input needs no copy.
    const checked = (hasDefaults ? structuredClone(input) : input) as ToolInput;
    if (validate(checked)) {
      return { ok: true, input: checked };
    }
    return { ok: false, message: describeErrors(validate.errors ?? [], root) };
  }

  /** Whether the validator of `schema` (or of a schema with the same text) is compiled, or precompiled. */
  isCompiled(schema: JsonObjectSchema): boolean {
    if (this.bySchema.has(schema)) {
      return true;
    }
    const key = JSON.stringify(schema);
    return this.compiled.has(key) || PRECOMPILED[key] !== undefined;
  }

  /** Whether checking input against `schema` needs Ajv (its validator is neither compiled nor precompiled). */
  needsAjv(schema: JsonObjectSchema): boolean {
    return this.ajv === undefined && !this.isCompiled(schema);
  }

  /** Loads Ajv now if one of `schemas` will need it (see needsAjv), so that no check pays for it. */
  loadAjvFor(schemas: Iterable<JsonObjectSchema>): void {
    for (const schema of schemas) {
      if (this.needsAjv(schema)) {
        this.getAjv();
        return;
      }
    }
  }

  /**
   * Compiles the validator of `schema` now, unless it is already, so that its first check finds
   * it ready (see ValidatorWarmUp). Throws what Ajv throws for a schema it cannot compile.
   */
  compile(schema: JsonObjectSchema): void {
    this.validatorFor(schema);
  }

  private validatorFor(schema: JsonObjectSchema): CompiledSchema {
    const known = this.bySchema.get(schema);
    if (known !== undefined) {
      return known;
    }
    const key = JSON.stringify(schema);
    let compiled = this.compiled.get(key);
    if (compiled === undefined) {
      compiled = { validate: PRECOMPILED[key] ?? this.getAjv().compile(schema), hasDefaults: key.includes('"default"') };
      this.compiled.set(key, compiled);
    }
    this.bySchema.set(schema, compiled);
    return compiled;
  }

  private getAjv(): Ajv {
    // Created on first use, not at construction, to keep ajv off the start-up path.
    this.ajv ??= createAjv();
    return this.ajv;
  }
}

/** Ajv errors as a list the model can act on, one problem per line. */
export function describeErrors(errors: readonly ErrorObject[], root = 'arguments'): string {
  return [...new Set(errors.map((error) => `- ${where(error, root)}: ${what(error)}`))].join('\n');
}

function where(error: ErrorObject, root: string): string {
  const pointer = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
  return pointer === '' ? root : `"${pointer}"`;
}

function what(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `missing required property "${String(params['missingProperty'])}"`;
    case 'additionalProperties':
      return `unknown property "${String(params['additionalProperty'])}" is not allowed`;
    case 'enum':
      return `must be one of ${JSON.stringify(params['allowedValues'])}`;
    default:
      return error.message ?? 'is invalid';
  }
}
