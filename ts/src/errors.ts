// AgentwireError: the one error class of the package. Every throw and rejection of the public
// API is one (the wasm's own errors, those of Worker mode, argument checks of this layer).

/** Why a connection failed (`ConnectionInfo.code`; also the code `run()` rejects with). */
export type ConnectionErrorCode =
  | "interrupted"
  | "unauthorized"
  | "http-error"
  | "bad-content-type"
  | "gave-up"
  | "connect-failed"
  | "rpc-error"
  | "agent-card"
  | "unsupported-framing"
  | "session-lost"
  | "invalid-argument"
  | "internal";

/** Every code agentwire throws or rejects with. */
export type AgentwireErrorCode =
  | ConnectionErrorCode
  /** The object was closed (`close()`, the constructor's `signal`), or closed while a call waited. */
  | "closed"
  /** The call's `signal` was aborted before anything was sent (nothing was sent). */
  | "aborted"
  /** The call does not fit the state (no open socket, the dialect has no such message, ...). */
  | "invalid-state"
  /** The answer could not be delivered (network error, HTTP error, the responder threw). */
  | "send-failed"
  /** The request was already answered (from this client, or the server said 409). */
  | "already-answered"
  /** The request expired before it was answered. */
  | "expired"
  | "unknown-input"
  | "unknown-auth"
  | "unknown-task"
  /** The answer does not fit the request's schema/options (`path` says where). */
  | "invalid-answer"
  /** The auth URL is not https: (or http: on localhost). */
  | "unsafe-url"
  | "no-auth-url"
  /** An event iterator fell more than `maxBuffered` events behind. */
  | "overflow";

const CODES: ReadonlySet<string> = new Set<AgentwireErrorCode>([
  "interrupted", "unauthorized", "http-error", "bad-content-type", "gave-up", "connect-failed",
  "rpc-error", "agent-card", "unsupported-framing", "session-lost", "invalid-argument", "internal",
  "closed", "aborted", "invalid-state", "send-failed", "already-answered", "expired",
  "unknown-input", "unknown-auth", "unknown-task", "invalid-answer", "unsafe-url", "no-auth-url",
  "overflow",
]);

/** Extra facts an error carries when known. */
export interface AgentwireErrorDetails {
  /** The HTTP status that caused it. */
  status?: number;
  /** The JSON path of the invalid argument or answer. */
  path?: string;
  /** The input request concerned. */
  inputId?: string;
  /** The auth request concerned. */
  authId?: string;
  /** The JSON body of the HTTP error response that caused it. */
  payload?: unknown;
  /** The underlying error (a network error, what a responder threw). */
  cause?: unknown;
}

/**
 * What agentwire throws and rejects with. Narrow on `code`:
 * ```ts
 * try { await client.approve(id); } catch (e) {
 *   if (e instanceof AgentwireError && e.code === "already-answered") return;
 *   throw e;
 * }
 * ```
 */
export class AgentwireError extends Error {
  /** Stable code (see `AgentwireErrorCode`). */
  readonly code: AgentwireErrorCode;
  /** The HTTP status, when one caused it. */
  readonly status?: number;
  /** The JSON path of the invalid argument or answer, when known. */
  readonly path?: string;
  /** The input request concerned, when one is. */
  readonly inputId?: string;
  /** The auth request concerned, when one is. */
  readonly authId?: string;
  /** The JSON body of the HTTP error response that caused it, when it had one. */
  readonly payload?: unknown;

  constructor(code: AgentwireErrorCode, message: string, details: AgentwireErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = "AgentwireError";
    this.code = code;
    if (details.status !== undefined) this.status = details.status;
    if (details.path !== undefined) this.path = details.path;
    if (details.inputId !== undefined) this.inputId = details.inputId;
    if (details.authId !== undefined) this.authId = details.authId;
    if (details.payload !== undefined) this.payload = details.payload;
  }
}

type Loose = { code?: unknown; message?: unknown; status?: unknown; path?: unknown; inputId?: unknown; authId?: unknown; payload?: unknown; cause?: unknown };

/** `e` as an AgentwireError (the wasm's and the Worker's errors carry `code`; anything else
 * that escapes is `internal`). */
export function toError(e: unknown): AgentwireError {
  if (e instanceof AgentwireError) return e;
  const o: Loose = typeof e === "object" && e !== null ? (e as Loose) : {};
  const raw = typeof o.code === "string" ? o.code : "";
  const code = (CODES.has(raw) ? raw : "internal") as AgentwireErrorCode;
  const message = typeof o.message === "string" ? o.message : String(e);
  const err = new AgentwireError(code, message, {
    status: typeof o.status === "number" ? o.status : undefined,
    path: typeof o.path === "string" ? o.path : undefined,
    inputId: typeof o.inputId === "string" ? o.inputId : undefined,
    authId: typeof o.authId === "string" ? o.authId : undefined,
    payload: o.payload,
    cause: o.cause !== undefined ? o.cause : code === "internal" && !CODES.has(raw) ? e : undefined,
  });
  return err;
}

/** Runs `f`, turning what it throws into an AgentwireError. */
export function guard<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    throw toError(e);
  }
}

/** `p` with its rejection turned into an AgentwireError. */
export function guardAsync<T>(p: Promise<T>): Promise<T> {
  return p.then(undefined, (e: unknown) => {
    throw toError(e);
  });
}

/** An `invalid-argument` error. */
export function argError(message: string, path?: string): AgentwireError {
  return new AgentwireError("invalid-argument", message, { path });
}
