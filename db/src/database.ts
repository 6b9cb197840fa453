import pg from "pg";

/** Creates database `name` on the cluster at `adminUrl` when missing (owned by `owner` if given); returns its URL. */
export async function ensureDatabase(
  adminUrl: string,
  name: string,
  template?: string,
  owner?: string,
): Promise<string> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query("select 1 from pg_database where datname = $1", [name]);
    if (found.rowCount === 0) {
      const tpl = template ? ` template ${client.escapeIdentifier(template)}` : "";
      const own = owner ? ` owner ${client.escapeIdentifier(owner)}` : "";
      await client
        .query(`create database ${client.escapeIdentifier(name)}${tpl}${own}`)
        .catch((e: { code?: string }) => {
          if (e.code !== "42P04") throw e; // created meanwhile by another process
        });
    }
  } finally {
    await client.end();
  }
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return u.toString();
}
