import { sql, type Kysely } from "kysely";

/**
 * A paid order the payment provider gave back in full (a refund, or a dispute lost) is
 * `refunded`; the plan it bought ends then (payments.repository.ts, refundPaidOrder).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table payments drop constraint payments_status_check`.execute(db);
  await sql`alter table payments add constraint payments_status_check check (status in ('created', 'paid', 'failed', 'refunded'))`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`update payments set status = 'paid' where status = 'refunded'`.execute(db);
  await sql`alter table payments drop constraint payments_status_check`.execute(db);
  await sql`alter table payments add constraint payments_status_check check (status in ('created', 'paid', 'failed'))`.execute(
    db,
  );
}
