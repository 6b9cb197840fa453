/** An API failure carrying the server's `{error:{code,message}}`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** False when the body carried no `{error:{message}}` (a proxy page, an empty body). */
    readonly fromServer = true,
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
  const message = body?.error?.message;
  return new ApiError(
    res.status,
    body?.error?.code ?? `http.${res.status}`,
    message ?? `Request failed (${res.status})`,
    !!message,
  );
}

/** Resolves a typed-client response to its JSON body, or throws ApiError. */
export async function unwrap<R extends ResponseLike>(res: R | Promise<R>): Promise<Awaited<ReturnType<R["json"]>>> {
  const r = await res;
  if (!r.ok) throw await toError(r);
  return (await r.json()) as Awaited<ReturnType<R["json"]>>;
}

/** Spec §8: the server's error message when it sent one, otherwise the situation's own text (network failures included). */
export function errorMessage(err: unknown, fallback: string): string {
  return err instanceof ApiError && err.fromServer && err.message ? err.message : fallback;
}
