import type { ErrorObject, ValidateFunction } from 'ajv';
import type Ajv from 'ajv';
import { createAjv } from '../json-schema/ajv';
import type { JsonObjectSchema, ToolInput } from '../types';

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
 * Validates tool input against its inputSchema before anything runs. Ajv is loaded on the
 * first call (it costs ~100 ms to require, which start-up must not pay), and each distinct
 * schema is compiled once and kept: compiling is ~1 ms per schema, validating ~100 ns.
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

  /** Whether the validator of `schema` (or of a schema with the same text) is compiled. */
  isCompiled(schema: JsonObjectSchema): boolean {
    return this.bySchema.has(schema) || this.compiled.has(JSON.stringify(schema));
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
      compiled = { validate: this.getAjv().compile(schema), hasDefaults: key.includes('"default"') };
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
