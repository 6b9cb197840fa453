/** An API failure carrying the server's `{error:{code,message}}`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

interface ResponseLike {
  ok: boolean;
  status: number;
  json(): Promise<unknown>;
}

async function toError(res: ResponseLike): Promise<ApiError> {
  const body = (await res.json().catch(() => null)) as { error?: { code?: string; message?: string } } | null;
  return new ApiError(res.status, body?.error?.code ?? `http.${res.status}`, body?.error?.message ?? `Request failed (${res.status})`);
}

/** Resolves a typed-client response to its JSON body, or throws ApiError. */
export async function unwrap<R extends ResponseLike>(res: R | Promise<R>): Promise<Awaited<ReturnType<R["json"]>>> {
  const r = await res;
  if (!r.ok) throw await toError(r);
  return (await r.json()) as Awaited<ReturnType<R["json"]>>;
}

export function errorMessage(err: unknown, fallback: string): string {
  return err instanceof ApiError || err instanceof Error ? err.message || fallback : fallback;
}
