import { toast } from "sonner";
import { ApiError } from "../api/errors";

/** The server's own message, when it sent one (not a proxy page or an empty body). */
export function serverMessage(err: unknown): string | undefined {
  return err instanceof ApiError && err.fromServer && err.message ? err.message : undefined;
}

/**
 * A failure toast that keeps the page's own title (the spec's text) and shows the server's reason
 * under it, so a refusal says why without losing what failed.
 */
export function failureToast(title: string, err: unknown) {
  toast.error(title, { description: serverMessage(err) });
}
