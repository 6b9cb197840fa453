import { sql, type Kysely } from "kysely";

/**
 * The whole domain of the product in one first migration, so later work adds columns, not tables.
 * Frozen: never edit after it has landed; add a new dated file instead.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const id = (col: any) => col.primaryKey().defaultTo(sql`gen_random_uuid()`);
  const now = sql`now()`;

  await db.schema
    .createTable("users")
    .addColumn("id", "uuid", id)
    .addColumn("github_id", "bigint", (c) => c.notNull().unique())
    .addColumn("username", "text", (c) => c.notNull())
    .addColumn("email", "text")
    .addColumn("avatar_url", "text")
    .addColumn("preferences", "jsonb", (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(now))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(now))
    .execute();

  await db.schema
    .createTable("sessions")
    .addColumn("id", "uuid", id)
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("user_agent", "text")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(now))
    .addColumn("last_seen_at", "timestamptz", (c) => c.notNull().defaultTo(now))
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .addColumn("revoked_at", "timestamptz")
    .execute();
  await db.schema.createIndex("sessions_user_idx").on("sessions").column("user_id").execute();

  await db.schema
    .createTable("login_codes")
    .addColumn("code_hash", "text", (c) => c.primaryKey())
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(now))
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .addColumn("used_at", "timestamptz")
    .execute();

  await db.schema
    .createTable("oauth_states")
    .addColumn("state_hash", "text", (c) => c.primaryKey())
    .addColumn("purpose", "text", (c) => c.notNull().check(sql`purpose in ('signin', 'repos')`))
    .addColumn("browser_binding_hash", "text", (c) => c.notNull())
    .addColumn("user_id", "uuid", (c) => c.references("users.id").onDelete("cascade"))
    .addColumn("scopes", sql`text[]`, (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(now))
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .addColumn("used_at", "timestamptz")
    .execute();

  await db.schema
    .createTable("api_tokens")
    .addColumn("id", "uuid", id)
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("prefix", "text", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(now))
    .addColumn("last_used_at", "timestamptz")
    .addColumn("revoked_at", "timestamptz")
    .execute();
  await db.schema.createIndex("api_tokens_user_idx").on("api_tokens").columns(["user_id", "created_at"]).execute();

  await db.schema
    .createTable("github_accounts")
    .addColumn("user_id", "uuid", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("github_id", "bigint", (c) => c.notNull().unique())
    .addColumn("login", "text", (c) => c.notNull())
    .addColumn("access_token_enc", "text", (c) => c.notNull())
    .addColumn("key_id", "text", (c) => c.notNull())
    .addColumn("scopes", sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'::text[]`))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(now))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(now))
    .execute();

  await db.schema
    .createTable("repositories")
    .addColumn("id", "uuid", id)
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("github_id", "bigint", (c) => c.notNull())
    .addColumn("owner", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("full_name", "text", (c) => c.notNull())
    .addColumn("description", "text")
    .addColumn("is_private", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("is_fork", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("language", "text")
    .addColumn("html_url", "text", (c) => c.notNull())
    .addColumn("default_branch", "text", (c) => c.notNull().defaultTo("main"))
    .addColumn("can_push", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("issues_etag", "text")
    .addColumn("synced_at", "timestamptz")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(now))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(now))
    .addUniqueConstraint("repositories_user_github_uq", ["user_id", "github_id"])
    .execute();
  await db.schema
    .createIndex("repositories_user_name_idx")
    .on("repositories")
    .columns(["user_id", "full_name"])
    .execute();

  await db.schema
    .createTable("issues")
    .addColumn("id", "uuid", id)
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("repository_id", "uuid", (c) => c.references("repositories.id").onDelete("set null"))
    .addColumn("repo_full_name", "text", (c) => c.notNull())
    .addColumn("github_id", "bigint")
    .addColumn("issue_number", "integer", (c) => c.notNull())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("body", "text")
    .addColumn("labels", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn("state", "text", (c) => c.notNull().defaultTo("open"))
    .addColumn("status", "text", (c) =>
      c
        .notNull()
        .defaultTo("open")
        .check(sql`status in ('pending','open','analyzing','solved','pr_created','failed','closed')`),
    )
    .addColumn("html_url", "text", (c) => c.notNull())
    .addColumn("author_login", "text")
    .addColumn("is_locked", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("assignees", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn("is_imported", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("upstream_full_name", "text")
    .addColumn("fork_full_name", "text")
    .addColumn("github_created_at", "timestamptz")
    .addColumn("github_updated_at", "timestamptz")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(now))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(now))
    .addUniqueConstraint("issues_user_repo_number_uq", ["user_id", "repo_full_name", "issue_number"])
    .execute();
  await db.schema.createIndex("issues_user_created_idx").on("issues").columns(["user_id", "created_at desc"]).execute();
  await db.schema.createIndex("issues_user_status_idx").on("issues").columns(["user_id", "status"]).execute();
  await db.schema.createIndex("issues_repository_idx").on("issues").column("repository_id").execute();

  await db.schema
    .createTable("solutions")
    .addColumn("id", "uuid", id)
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("issue_id", "uuid", (c) => c.notNull().references("issues.id").onDelete("cascade"))
    .addColumn("status", "text", (c) =>
      c
        .notNull()
        .defaultTo("pending")
        .check(sql`status in ('pending','approved','rejected','pr_created','deleted')`),
    )
    .addColumn("analysis", "text", (c) => c.notNull())
    .addColumn("proposed_solution", "text", (c) => c.notNull())
    .addColumn("ai_model", "text", (c) => c.notNull())
    .addColumn("confidence", "integer", (c) => c.notNull().defaultTo(85))
    .addColumn("files_changed", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn("metadata", "jsonb", (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn("refinement_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("revision", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("base_commit_sha", "text")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(now))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema
    .createIndex("solutions_user_status_idx")
    .on("solutions")
    .columns(["user_id", "status", "created_at desc"])
    .execute();
  await db.schema.createIndex("solutions_issue_idx").on("solutions").column("issue_id").execute();

  await db.schema
    .createTable("solution_revisions")
    .addColumn("id", "uuid", id)
    .addColumn("solution_id", "uuid", (c) => c.notNull().references("solutions.id").onDelete("cascade"))
    .addColumn("revision", "integer", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('generated','refinement','manual')`))
    .addColumn("files_changed", "jsonb", (c) => c.notNull())
    .addColumn("analysis", "text")
    .addColumn("proposed_solution", "text")
    .addColumn("reason", "text")
    .addColumn("feedback", "text")
    .addColumn("run_id", "uuid")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(now))
    .addUniqueConstraint("solution_revisions_uq", ["solution_id", "revision"])
    .execute();

  await db.schema
    .createTable("solve_runs")
    .addColumn("id", "uuid", id)
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("issue_id", "uuid", (c) => c.notNull().references("issues.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) =>
      c
        .notNull()
        .defaultTo("solve")
        .check(sql`kind in ('solve','refine')`),
    )
    .addColumn("solution_id", "uuid", (c) => c.references("solutions.id").onDelete("set null"))
    .addColumn("model_id", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) =>
      c
        .notNull()
        .defaultTo("queued")
        .check(sql`status in ('queued','running','completed','failed','cancelled')`),
    )
    .addColumn("current_step", "text")
    .addColumn("input", "jsonb", (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn("error_code", "text")
    .addColumn("error_message", "text")
    .addColumn("quota_period_start", "timestamptz")
    .addColumn("quota_state", "text", (c) =>
      c
        .notNull()
        .defaultTo("none")
        .check(sql`quota_state in ('none','reserved','charged','released')`),
    )
    .addColumn("tokens_in", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("tokens_out", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("cost_usd", "numeric(12, 6)", (c) => c.notNull().defaultTo(0))
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("cancel_requested_at", "timestamptz")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(now))
    .addColumn("started_at", "timestamptz")
    .addColumn("finished_at", "timestamptz")
    .execute();
  // One open run per issue.
  await sql`create unique index solve_runs_one_open_per_issue on solve_runs (issue_id) where status in ('queued','running')`.execute(
    db,
  );
  await db.schema
    .createIndex("solve_runs_user_created_idx")
    .on("solve_runs")
    .columns(["user_id", "created_at desc"])
    .execute();
  await sql`create index solve_runs_unfinished_idx on solve_runs (created_at) where status in ('queued','running')`.execute(
    db,
  );

  await db.schema
    .createTable("run_steps")
    .addColumn("run_id", "uuid", (c) => c.notNull().references("solve_runs.id").onDelete("cascade"))
    .addColumn("step", "text", (c) =>
      c.notNull().check(sql`step in ('analyzing','context','dependencies','generating','validating')`),
    )
    .addColumn("status", "text", (c) =>
      c.notNull().check(sql`status in ('pending','running','completed','failed','skipped')`),
    )
    .addColumn("detail", "jsonb", (c) => c.notNull().defaultTo(sql`'{"files":[],"info":[],"warnings":[]}'::jsonb`))
    .addColumn("output", "jsonb")
    .addColumn("tokens_in", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("tokens_out", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("cost_usd", "numeric(12, 6)", (c) => c.notNull().defaultTo(0))
    .addColumn("started_at", "timestamptz")
    .addColumn("finished_at", "timestamptz")
    .addColumn("duration_ms", "integer")
    .addPrimaryKeyConstraint("run_steps_pk", ["run_id", "step"])
    .execute();

  await sql`alter table solutions add column run_id uuid references solve_runs(id) on delete set null`.execute(db);

  await db.schema
    .createTable("validation_decisions")
    .addColumn("id", "uuid", id)
    .addColumn("solution_id", "uuid", (c) => c.notNull().references("solutions.id").onDelete("cascade"))
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("status", "text", (c) => c.notNull().check(sql`status in ('approved','rejected')`))
    .addColumn("comments", "text")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema
    .createIndex("validation_decisions_solution_idx")
    .on("validation_decisions")
    .column("solution_id")
    .execute();

  await db.schema
    .createTable("pull_requests")
    .addColumn("id", "uuid", id)
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("solution_id", "uuid", (c) => c.notNull().unique().references("solutions.id").onDelete("cascade"))
    .addColumn("issue_id", "uuid", (c) => c.notNull().references("issues.id").onDelete("cascade"))
    .addColumn("repo_full_name", "text", (c) => c.notNull())
    .addColumn("head_repo_full_name", "text", (c) => c.notNull())
    .addColumn("pr_number", "integer", (c) => c.notNull())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("body", "text")
    .addColumn("branch_name", "text", (c) => c.notNull())
    .addColumn("base_branch", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) =>
      c
        .notNull()
        .defaultTo("open")
        .check(sql`status in ('open','closed','merged')`),
    )
    .addColumn("html_url", "text", (c) => c.notNull())
    .addColumn("metadata", "jsonb", (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn("etag", "text")
    .addColumn("synced_at", "timestamptz")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(now))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(now))
    .addUniqueConstraint("pull_requests_repo_number_uq", ["repo_full_name", "pr_number"])
    .execute();
  await db.schema
    .createIndex("pull_requests_user_created_idx")
    .on("pull_requests")
    .columns(["user_id", "created_at desc"])
    .execute();

  await db.schema
    .createTable("subscriptions")
    .addColumn("user_id", "uuid", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("plan", "text", (c) =>
      c
        .notNull()
        .defaultTo("FREE")
        .check(sql`plan in ('FREE','PRO','ENTERPRISE')`),
    )
    .addColumn("status", "text", (c) => c.notNull().defaultTo("active"))
    .addColumn("current_period_start", "timestamptz", (c) => c.notNull().defaultTo(now))
    .addColumn("current_period_end", "timestamptz", (c) => c.notNull().defaultTo(sql`now() + interval '30 days'`))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(now))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(now))
    .execute();

  await db.schema
    .createTable("payments")
    .addColumn("id", "uuid", id)
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("provider", "text", (c) => c.notNull().defaultTo("razorpay"))
    .addColumn("provider_order_id", "text", (c) => c.notNull().unique())
    .addColumn("provider_payment_id", "text", (c) => c.unique())
    .addColumn("plan", "text", (c) => c.notNull())
    .addColumn("amount", "integer", (c) => c.notNull())
    .addColumn("currency", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) =>
      c
        .notNull()
        .defaultTo("created")
        .check(sql`status in ('created','paid','failed')`),
    )
    .addColumn("failure_reason", "text")
    .addColumn("activated_at", "timestamptz")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(now))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema
    .createIndex("payments_user_created_idx")
    .on("payments")
    .columns(["user_id", "created_at desc"])
    .execute();

  await db.schema
    .createTable("usage_counters")
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("period_start", "timestamptz", (c) => c.notNull())
    .addColumn("used", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("notified_80", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(now))
    .addPrimaryKeyConstraint("usage_counters_pk", ["user_id", "period_start"])
    .addCheckConstraint("usage_counters_used_nonneg", sql`used >= 0`)
    .execute();

  await db.schema
    .createTable("notifications")
    .addColumn("id", "uuid", id)
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("message", "text", (c) => c.notNull())
    .addColumn("link", "text")
    .addColumn("read_at", "timestamptz")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema
    .createIndex("notifications_user_created_idx")
    .on("notifications")
    .columns(["user_id", "created_at desc"])
    .execute();

  await db.schema
    .createTable("webhook_events")
    .addColumn("event_id", "text", (c) => c.primaryKey())
    .addColumn("provider", "text", (c) => c.notNull())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("payload", "jsonb", (c) => c.notNull())
    .addColumn("received_at", "timestamptz", (c) => c.notNull().defaultTo(now))
    .addColumn("processed_at", "timestamptz")
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    "webhook_events",
    "notifications",
    "usage_counters",
    "payments",
    "subscriptions",
    "pull_requests",
    "validation_decisions",
    "run_steps",
    "solution_revisions",
    "solutions",
    "solve_runs",
    "issues",
    "repositories",
    "github_accounts",
    "api_tokens",
    "oauth_states",
    "login_codes",
    "sessions",
    "users",
  ]) {
    await db.schema.dropTable(t).ifExists().cascade().execute();
  }
}
