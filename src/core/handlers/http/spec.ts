/** `handler` of `type: "http"` as it is after schema validation: one request per call. */
export interface HttpHandlerSpec {
  readonly type: 'http';
  /** URL template; `{{x}}` values are percent-encoded. */
  readonly url: string;
  readonly method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD';
  /** Header values may use `${env:NAME}`. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Milliseconds (default 10000). */
  readonly timeout?: number;
  /** Cap on the response body in bytes. */
  readonly maxResponseBytes?: number;
}
