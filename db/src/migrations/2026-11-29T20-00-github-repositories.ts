import { sql, type Kysely } from "kysely";

/**
 * A GitHub repository is one row, known by its GitHub id: its name is display data, so a rename or
 * transfer is one update of that row. Users reach it through `repositories` (their access: whether
 * they may push, when it left their list, their settings), issues and pull requests name it by id.
 *
 * Names stored before ids were kept (an imported issue's upstream or fork, a pull request's head,
 * a row left under a former name) get a placeholder repository with a negative id; the first
 * import, sync or delivery that shows the real repository under that name gives it its real id.
 */
export async function up(db: Kysely<any>): Promise<void> {
  // The issue-list version triggers are deferred to commit: an ALTER TABLE of a table with such
  // events pending fails, so the rows moved below bump their lists as each statement ends.
  await sql`set constraints all immediate`.execute(db);
  await sql`create table github_repositories (
    github_id bigint primary key,
    owner text not null,
    name text not null,
    full_name text not null,
    html_url text not null,
    description text,
    is_private boolean not null default false,
    is_fork boolean not null default false,
    language text,
    default_branch text not null default 'main',
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
  )`.execute(db);
  await sql`create index github_repositories_full_name_lower on github_repositories (lower(full_name))`.execute(db);
  await sql`insert into github_repositories
      (github_id, owner, name, full_name, html_url, description, is_private, is_fork, language, default_branch)
    select distinct on (github_id) github_id, owner, name, full_name, html_url, description, is_private, is_fork,
      language, default_branch
    from repositories order by github_id, updated_at desc`.execute(db);

  // Every other name a row holds: a placeholder each (negative ids, one per name).
  await sql`with names as (
      select distinct lower(n) as key, min(n) as full_name from (
        select repo_full_name as n from issues
        union all select upstream_full_name from issues
        union all select fork_full_name from issues
        union all select repo_full_name from pull_requests
        union all select head_repo_full_name from pull_requests
      ) all_names
      where n is not null
        and not exists (select 1 from github_repositories g where lower(g.full_name) = lower(n))
      group by lower(n)
    )
    insert into github_repositories (github_id, owner, name, full_name, html_url)
    select -row_number() over (order by key), split_part(full_name, '/', 1), split_part(full_name, '/', 2),
      full_name, 'https://github.com/' || full_name
    from names`.execute(db);

  await sql`alter table repositories
    add column left_at timestamptz,
    add column permission text not null default 'pull'
      check (permission in ('admin', 'maintain', 'push', 'triage', 'pull')),
    add constraint repositories_github_repository_fk foreign key (github_id)
      references github_repositories (github_id) on update cascade`.execute(db);
  await sql`update repositories set permission = case when can_push then 'push' else 'pull' end`.execute(db);

  // An issue is known by its repository's id: the user's own row of that name first, else the name's.
  await sql`alter table issues
    add column repository_github_id bigint references github_repositories (github_id) on update cascade,
    add column fork_github_id bigint references github_repositories (github_id) on update cascade`.execute(db);
  await sql`update issues set repository_github_id = coalesce(
      (select r.github_id from repositories r
        where r.user_id = issues.user_id and lower(r.full_name) = lower(issues.repo_full_name)),
      (select g.github_id from github_repositories g
        where lower(g.full_name) = lower(issues.repo_full_name) order by g.updated_at desc limit 1)),
    fork_github_id = (select g.github_id from github_repositories g
        where lower(g.full_name) = lower(issues.fork_full_name) order by g.updated_at desc limit 1)`.execute(db);
  // Issues of repositories the sync removed keep that as their access row, left at the same time.
  await sql`insert into repositories (user_id, github_id, left_at, can_push,
      owner, name, full_name, html_url)
    select distinct on (i.user_id, i.repository_github_id) i.user_id, i.repository_github_id, i.repository_left_at, false,
      g.owner, g.name, g.full_name, g.html_url
    from issues i join github_repositories g on g.github_id = i.repository_github_id
    where i.repository_left_at is not null
      and not exists (select 1 from repositories r where r.user_id = i.user_id and r.github_id = i.repository_github_id)
    order by i.user_id, i.repository_github_id, i.repository_left_at`.execute(db);
  await sql`alter table issues alter column repository_github_id set not null`.execute(db);
  await sql`alter table issues drop constraint issues_user_repo_number_uq`.execute(db);
  await sql`alter table issues add constraint issues_user_repository_number_uq
    unique (user_id, repository_github_id, issue_number)`.execute(db);
  await sql`create index issues_repository_github_idx on issues (repository_github_id, issue_number)`.execute(db);
  // A delivery for a fork Fixloop pushes to is known by it (see `knowsRepository`).
  await sql`create index issues_fork_github_idx on issues (fork_github_id) where fork_github_id is not null`.execute(
    db,
  );

  await sql`alter table pull_requests
    add column base_github_id bigint references github_repositories (github_id) on update cascade,
    add column head_github_id bigint references github_repositories (github_id) on update cascade`.execute(db);
  await sql`update pull_requests set
    base_github_id = (select g.github_id from github_repositories g
      where lower(g.full_name) = lower(pull_requests.repo_full_name) order by g.updated_at desc limit 1),
    head_github_id = (select g.github_id from github_repositories g
      where lower(g.full_name) = lower(pull_requests.head_repo_full_name) order by g.updated_at desc limit 1)`.execute(
    db,
  );
  await sql`alter table pull_requests
    alter column base_github_id set not null,
    alter column head_github_id set not null,
    drop constraint pull_requests_repo_number_uq,
    add constraint pull_requests_base_number_uq unique (base_github_id, pr_number)`.execute(db);
  await sql`create index pull_requests_head_branch on pull_requests (head_github_id, branch_name)`.execute(db);

  await sql`alter table issues
    drop column repo_full_name, drop column upstream_full_name, drop column fork_full_name,
    drop column repository_left_at`.execute(db);
  await sql`alter table pull_requests drop column repo_full_name, drop column head_repo_full_name`.execute(db);
  await sql`alter table repositories
    drop column owner, drop column name, drop column full_name, drop column html_url, drop column description,
    drop column is_private, drop column is_fork, drop column language, drop column default_branch,
    drop column can_push`.execute(db);
  // Whether the user may push there follows from their permission: one column says it.
  await sql`alter table repositories add column can_push boolean
    generated always as (permission in ('admin', 'maintain', 'push')) stored`.execute(db);

  // An installation's repositories are named on their one row too.
  await sql`insert into github_repositories (github_id, owner, name, full_name, html_url)
    select distinct on (github_id) github_id, split_part(full_name, '/', 1), split_part(full_name, '/', 2), full_name,
      'https://github.com/' || full_name
    from github_installation_repositories
    where not exists (select 1 from github_repositories g where g.github_id = github_installation_repositories.github_id)
    order by github_id`.execute(db);
  await sql`alter table github_installation_repositories
    drop column full_name,
    add constraint github_installation_repositories_repository_fk foreign key (github_id)
      references github_repositories (github_id) on update cascade`.execute(db);
  await bumpListsOnRename(db);
}

/**
 * The issue list shows the names and whether the repository left the user's list: a rename (one
 * update of `github_repositories`) and a change of access move the version of every list it shows
 * in (see the issue-list-versions migration).
 */
async function bumpListsOnRename(db: Kysely<any>): Promise<void> {
  await sql`
    create function bump_issue_lists_of_repository() returns trigger language plpgsql as $$
    begin
      insert into issue_list_versions (user_id, version)
      select distinct user_id, 1 from issues
      where repository_github_id = new.github_id or fork_github_id = new.github_id
      union select distinct user_id, 1 from pull_requests
      where base_github_id = new.github_id or head_github_id = new.github_id
      on conflict (user_id) do update set version = issue_list_versions.version + 1;
      return null;
    end $$`.execute(db);
  await sql`
    create constraint trigger github_repositories_issue_list_version
    after update of owner, name, full_name, html_url on github_repositories
    deferrable initially deferred
    for each row execute function bump_issue_lists_of_repository()`.execute(db);
  await sql`
    create constraint trigger repositories_issue_list_version
    after update of left_at or delete on repositories
    deferrable initially deferred
    for each row execute function bump_issue_list_version()`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error("The GitHub-id keys cannot be undone: names were merged into one row per repository");
}
