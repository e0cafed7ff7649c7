/**
 * Talking to the server: every call carries the bearer token (kept for this tab only), errors
 * come back as {@link ApiError} with the server's message, and a 401 asks for the token.
 */
import type { ErrorBody } from '../routes/api-types.ts';

const TOKEN_KEY = 'folio.token';

export class ApiError extends Error {
  readonly status: number;
  readonly type: string;

  constructor(status: number, type: string, message: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.type = type;
  }
}

let unauthorised: () => void = () => {};

/** Called when the server answers 401 (no token yet, or a wrong one). */
export function onUnauthorised(listener: () => void): void {
  unauthorised = listener;
}

export function setToken(token: string): void {
  if (token) sessionStorage.setItem(TOKEN_KEY, token);
  else sessionStorage.removeItem(TOKEN_KEY);
}

export async function request(path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  const token = sessionStorage.getItem(TOKEN_KEY);
  if (token) headers.set('authorization', `Bearer ${token}`);
  let response: Response;
  try {
    response = await fetch(path, { ...init, headers });
  } catch (error) {
    throw new ApiError(0, 'network', `the server did not answer (${error instanceof Error ? error.message : String(error)}); is folio serve still running?`);
  }
  if (response.ok) return response;
  let message = `HTTP ${response.status}`;
  let type = 'http';
  try {
    const body = (await response.json()) as ErrorBody;
    message = body.error.message;
    type = body.error.type;
  } catch {
    // not our JSON error shape: the status says enough
  }
  if (response.status === 401) unauthorised();
  throw new ApiError(response.status, type, message);
}

export async function getJson<T>(path: string): Promise<T> {
  return (await (await request(path)).json()) as T;
}

export async function postJson<T>(path: string, body: unknown): Promise<T> {
  return (await (await request(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json()) as T;
}

/** A fetched resource as a `blob:` URL: images and downloads need the token too, which `<img src>` cannot send. */
export async function blobUrl(path: string): Promise<string> {
  return URL.createObjectURL(await (await request(path)).blob());
}

/** The lines of a newline-delimited JSON answer, each as soon as it arrives. */
export async function* ndjson<T>(response: Response): AsyncGenerator<T> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffered += value;
    let newline: number;
    while ((newline = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, newline).trim();
      buffered = buffered.slice(newline + 1);
      if (line) yield JSON.parse(line) as T;
    }
  }
}
