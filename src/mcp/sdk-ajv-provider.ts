/**
 * The SDK's Ajv-based JSON Schema validator, loaded on first use. The SDK's server module imports
 * it at the top, and with it Ajv, its formats and fast-uri, which start-up then evaluated before
 * `initialize` (and its `Server` constructor built an Ajv instance) although the validator only
 * checks elicitation answers, which this server never asks for. esbuild.mjs points the SDK's
 * import here; this module loads the real one when a validator is first asked for.
 */
import type { AjvJsonSchemaValidator as SdkAjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';

/** Same constructor and `getValidator` as the SDK's class; the Ajv work waits for the first call. */
export class AjvJsonSchemaValidator implements jsonSchemaValidator {
  private real: SdkAjvJsonSchemaValidator | undefined;

  constructor(private readonly ajv?: ConstructorParameters<typeof SdkAjvJsonSchemaValidator>[0]) {}

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    if (this.real === undefined) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const sdk = require('@modelcontextprotocol/sdk/validation/ajv-provider.js') as { AjvJsonSchemaValidator: typeof SdkAjvJsonSchemaValidator };
      this.real = new sdk.AjvJsonSchemaValidator(this.ajv);
    }
    return this.real.getValidator<T>(schema);
  }
}
