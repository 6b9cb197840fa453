/** Where payload links point: `api` is the sandbox itself, `html` the web host (github.com by default). */
export interface Urls {
  api: string;
  html: string;
}

/** GitHub's classic global node id: base64 of `0<len>:<Kind><id>`. */
export const nodeId = (kind: string, id: number): string =>
  Buffer.from(`0${kind.length}:${kind}${id}`).toString("base64");

/** GitHub's avatar host; a stand-in whose html links point at itself serves the avatars too. */
export const avatarUrl = (urls: Urls, id: number): string =>
  urls.html === urls.api ? `${urls.api}/avatars/u/${id}?v=4` : `https://avatars.githubusercontent.com/u/${id}?v=4`;
