/** An error that becomes an HTTP answer in the OpenAI error shape. */
export class HttpError extends Error {
  readonly status: number;
  readonly type: string;
  readonly headers: Readonly<Record<string, string>>;

  constructor(status: number, type: string, message: string, headers: Readonly<Record<string, string>> = {}) {
    super(message);
    this.name = 'HttpError';
    this.status = status;
    this.type = type;
    this.headers = headers;
  }

  body(): string {
    return JSON.stringify({ error: { message: this.message, type: this.type, code: this.status } });
  }
}
