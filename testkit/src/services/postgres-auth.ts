import fs from "node:fs";
import path from "node:path";
import pg from "pg";

/** The superuser and password every embedded cluster had before passwords were generated. */
export const LEGACY_USER = "fixloop";
export const LEGACY_PASSWORD = "fixloop";

/** Password logins only (SCRAM), loopback only: no `trust`, no clear-text `password` method. */
const HBA = `# Written by Fixloop on start: SCRAM password logins only, loopback only.
local all all scram-sha-256
host  all all 127.0.0.1/32 scram-sha-256
host  all all ::1/128 scram-sha-256
`;

async function connect(port: number, user: string, password: string, database = "postgres"): Promise<pg.Client> {
  const client = new pg.Client({ host: "127.0.0.1", port, user, password, database });
  try {
    await client.connect();
    return client;
  } catch (err) {
    await client.end().catch(() => {});
    throw err;
  }
}

/**
 * Makes the superuser's login the generated password and nothing else. A cluster from an earlier
 * version (admin password `fixloop`, or `trust` in pg_hba.conf) is rotated to the generated one and
 * its pg_hba.conf rewritten to SCRAM; a cluster already in that state is left untouched.
 */
export async function secureAdminLogin(opts: {
  dataDir: string;
  port: number;
  user: string;
  password: string;
  log: (line: string) => void;
}): Promise<void> {
  const { dataDir, port, user, password } = opts;
  let client: pg.Client;
  let rotate = false;
  try {
    client = await connect(port, user, password);
  } catch (err) {
    if ((err as { code?: string }).code !== "28P01") throw err;
    try {
      client = await connect(port, user, LEGACY_PASSWORD);
    } catch {
      throw new Error(
        `The embedded Postgres in ${dataDir} refuses the generated admin password (secrets.json beside it) ` +
          "and the former default. Restore that secrets.json, or point DATABASE_URL at the database.",
      );
    }
    rotate = true;
  }
  try {
    const rules = await client.query<{ auth_method: string; error: string | null }>(
      "select auth_method, error from pg_hba_file_rules",
    );
    const weak = rules.rows.some((r) => r.error !== null || r.auth_method !== "scram-sha-256");
    if (rotate || weak) {
      // Stored as a SCRAM verifier (password_encryption's default), so the rewritten rules accept it.
      await client.query("set password_encryption = 'scram-sha-256'");
      await client.query(`alter role ${client.escapeIdentifier(user)} password ${client.escapeLiteral(password)}`);
      opts.log("embedded Postgres: admin password rotated to the generated one");
    }
    if (weak) {
      fs.writeFileSync(path.join(dataDir, "pg_hba.conf"), HBA, { mode: 0o600 });
      await client.query("select pg_reload_conf()");
      opts.log("embedded Postgres: pg_hba.conf now requires SCRAM passwords");
    }
  } finally {
    await client.end();
  }
}

/**
 * Creates (or updates) the app's login role, not a superuser and without CREATEDB/CREATEROLE,
 * and database `name` owned by it. Objects an earlier version created there as the superuser
 * are handed to the role, so its migrations can alter them. Returns the role's URL.
 */
export async function ensureAppDatabase(
  adminUrl: string,
  name: string,
  role: string,
  password: string,
): Promise<string> {
  if (decodeURIComponent(new URL(adminUrl).username) === role)
    throw new Error(`The app's database role must differ from the admin's ("${role}" is both)`);
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const r = admin.escapeIdentifier(role);
  const d = admin.escapeIdentifier(name);
  const attrs = "login nosuperuser nocreatedb nocreaterole noreplication nobypassrls";
  try {
    await admin.query("set password_encryption = 'scram-sha-256'");
    const exists = await admin.query("select 1 from pg_roles where rolname = $1", [role]);
    const verb = exists.rowCount ? "alter" : "create";
    await admin.query(`${verb} role ${r} ${attrs} password ${admin.escapeLiteral(password)}`);
    const db = await admin.query("select 1 from pg_database where datname = $1", [name]);
    if (!db.rowCount) {
      await admin.query(`create database ${d} owner ${r}`).catch((e: { code?: string }) => {
        if (e.code !== "42P04") throw e; // created meanwhile by another process
      });
    }
    await admin.query(`alter database ${d} owner to ${r}`);
    await admin.query(`revoke all on database ${d} from public`);
  } finally {
    await admin.end();
  }
  const adminOnDb = new URL(adminUrl);
  adminOnDb.pathname = `/${name}`;
  await handOverSchema(adminOnDb.toString(), role);
  const u = new URL(adminUrl);
  u.username = role;
  u.password = password;
  u.pathname = `/${name}`;
  return u.toString();
}

/** The public schema and everything in it owned by `role`; pgvector installed while we are superuser, when the server has it. */
async function handOverSchema(adminDbUrl: string, role: string): Promise<void> {
  const c = new pg.Client({ connectionString: adminDbUrl });
  await c.connect();
  try {
    const r = c.escapeIdentifier(role);
    await c.query(`alter schema public owner to ${r}`);
    // Creating an extension needs a superuser; the embedding cache falls back to real[] without it.
    const pgvector = await c.query("select 1 from pg_available_extensions where name = 'vector'");
    if (pgvector.rowCount) await c.query("create extension if not exists vector").catch(() => {});
    const owned = await c.query<{ kind: string; name: string }>(
      `select case when c.relkind in ('v') then 'view' when c.relkind = 'm' then 'materialized view'
                   when c.relkind = 'S' then 'sequence' else 'table' end as kind,
              format('%I.%I', n.nspname, c.relname) as name
         from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('r','p','v','m','S')
          and c.relowner <> (select oid from pg_roles where rolname = $1)
          and not exists (select 1 from pg_depend d where d.classid = 'pg_class'::regclass
                          and d.objid = c.oid and d.deptype in ('a','i'))
       union all
       select 'type', format('%I.%I', n.nspname, t.typname)
         from pg_type t join pg_namespace n on n.oid = t.typnamespace
        where n.nspname = 'public' and t.typtype in ('e','d')
          and t.typowner <> (select oid from pg_roles where rolname = $1)
       union all
       select 'routine', format('%I.%I(%s)', n.nspname, p.proname, pg_get_function_identity_arguments(p.oid))
         from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname = 'public' and p.proowner <> (select oid from pg_roles where rolname = $1)
          and not exists (select 1 from pg_depend d where d.classid = 'pg_proc'::regclass
                          and d.objid = p.oid and d.deptype = 'e')`,
      [role],
    );
    for (const o of owned.rows) await c.query(`alter ${o.kind} ${o.name} owner to ${r}`);
  } finally {
    await c.end();
  }
}
