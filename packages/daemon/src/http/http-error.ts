// The HTTP edge's error type (factories in errors.ts); the domain raises DaemonErrors instead, which the
// code table in error-statuses.ts turns into one of these.
// `onError` (on-error.ts) is the single place that turns any thrown value into a response.

export type ErrorBody = { error: string; code?: string } & Record<string, unknown>;

export class HttpError extends Error {
  override readonly name = "HttpError";
  readonly status: number;
  readonly body: ErrorBody;
  readonly headers: Readonly<Record<string, string>>;
  /** What the operator should know and the client must not see (logged by onError, never sent). */
  readonly logDetail: string | undefined;

  constructor(status: number, body: ErrorBody, headers: Record<string, string> = {}, logDetail?: string) {
    super(body.error);
    this.status = status;
    this.body = body;
    this.headers = headers;
    this.logDetail = logDetail;
  }

  getResponse(): Response {
    return new Response(JSON.stringify(this.body), {
      status: this.status,
      headers: { "content-type": "application/json", ...this.headers },
    });
  }
}

export function isHttpError(value: unknown): value is HttpError {
  return value instanceof HttpError;
}
