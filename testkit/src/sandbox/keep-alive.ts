/**
 * How long the stand-ins keep an idle connection open. Clients reuse one until shortly before the
 * server's hint runs out; with Node's 5 s default a client on a loaded machine could send on a
 * socket the server was closing and read ECONNRESET. (`server.close()` still closes idle
 * connections at once.)
 */
export const STAND_IN_KEEP_ALIVE_MS = 65_000;
