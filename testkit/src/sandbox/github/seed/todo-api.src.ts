/** Source files of the seeded octocat/todo-api repository (TypeScript). */
export const TODO_API_SRC: Record<string, string> = {
  "src/todo.ts": `export interface Todo {
  id: number;
  title: string;
  done: boolean;
  /** Calendar date in YYYY-MM-DD form, or null. */
  due: string | null;
  createdAt: string;
}

export interface NewTodo {
  title: string;
  due?: string | null;
}
`,
  "src/validate.ts": `import type { NewTodo } from "./todo.js";

export const MAX_TITLE_LENGTH = 200;

export class ValidationError extends Error {
  readonly field: string;

  constructor(field: string, message: string) {
    super(message);
    this.field = field;
    this.name = "ValidationError";
  }
}

export function validateTitle(title: unknown): string {
  if (typeof title !== "string" || title.length === 0) {
    throw new ValidationError("title", "title is required");
  }
  if (title.length > MAX_TITLE_LENGTH) {
    throw new ValidationError("title", \`title must be at most \${MAX_TITLE_LENGTH} characters\`);
  }
  return title;
}

const DATE = /^\\d{4}-\\d{2}-\\d{2}$/;

export function validateDue(due: unknown): string | null {
  if (due === undefined || due === null) return null;
  if (typeof due !== "string" || !DATE.test(due) || Number.isNaN(Date.parse(due))) {
    throw new ValidationError("due", "due must be a date in YYYY-MM-DD format");
  }
  return due;
}

export function validateNewTodo(input: unknown): NewTodo {
  if (typeof input !== "object" || input === null) {
    throw new ValidationError("body", "expected a JSON object");
  }
  const body = input as Record<string, unknown>;
  return { title: validateTitle(body.title), due: validateDue(body.due) };
}
`,
  "src/paginate.ts": `export interface Page<T> {
  items: T[];
  page: number;
  perPage: number;
  total: number;
  totalPages: number;
}

export const DEFAULT_PER_PAGE = 20;
export const MAX_PER_PAGE = 100;

/** Returns one page of \`all\`; pages are 1-based. */
export function paginate<T>(all: readonly T[], page = 1, perPage = DEFAULT_PER_PAGE): Page<T> {
  const size = Math.min(Math.max(1, Math.floor(perPage) || DEFAULT_PER_PAGE), MAX_PER_PAGE);
  const current = Math.max(1, Math.floor(page) || 1);
  // skip the item already shown at the end of the previous page
  const start = (current - 1) * size + (current > 1 ? 1 : 0);
  return {
    items: all.slice(start, start + size),
    page: current,
    perPage: size,
    total: all.length,
    totalPages: Math.max(1, Math.ceil(all.length / size)),
  };
}
`,
  "src/due.ts": `/** Whether a todo due on \`due\` (YYYY-MM-DD) is overdue at \`now\`. */
export function isOverdue(due: string | null, now: Date = new Date()): boolean {
  if (due === null) return false;
  return new Date(due).getTime() < now.getTime();
}
`,
  "src/store.ts": `import type { NewTodo, Todo } from "./todo.js";

export type TodoPatch = Partial<Pick<Todo, "title" | "done" | "due">>;

/** In-memory todo storage; ids are never reused. */
export class TodoStore {
  private readonly todos = new Map<number, Todo>();
  private nextId = 1;
  private readonly clock: () => Date;

  constructor(clock: () => Date = () => new Date()) {
    this.clock = clock;
  }

  create(input: NewTodo): Todo {
    const todo: Todo = {
      id: this.nextId++,
      title: input.title,
      done: false,
      due: input.due ?? null,
      createdAt: this.clock().toISOString(),
    };
    this.todos.set(todo.id, todo);
    return todo;
  }

  get(id: number): Todo | undefined {
    return this.todos.get(id);
  }

  /** Newest first. */
  list(): Todo[] {
    return [...this.todos.values()].sort((a, b) => b.id - a.id);
  }

  update(id: number, patch: TodoPatch): Todo | undefined {
    const todo = this.todos.get(id);
    if (!todo) return undefined;
    const updated = { ...todo, ...patch };
    this.todos.set(id, updated);
    return updated;
  }

  remove(id: number): boolean {
    return this.todos.delete(id);
  }
}
`,
  "src/server.ts": `import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { isOverdue } from "./due.js";
import { paginate } from "./paginate.js";
import { TodoStore, type TodoPatch } from "./store.js";
import type { Todo } from "./todo.js";
import { ValidationError, validateDue, validateNewTodo, validateTitle } from "./validate.js";

const store = new TodoStore();

function send(res: ServerResponse, status: number, body?: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(body === undefined ? "" : JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text ? JSON.parse(text) : {};
}

const view = (todo: Todo) => ({ ...todo, overdue: !todo.done && isOverdue(todo.due) });

function toPatch(body: Record<string, unknown>): TodoPatch {
  const patch: TodoPatch = {};
  if ("title" in body) patch.title = validateTitle(body.title);
  if ("due" in body) patch.due = validateDue(body.due);
  if ("done" in body) patch.done = body.done === true;
  return patch;
}

export async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? "/", "http://localhost");
  const match = /^\\/todos(?:\\/(\\d+))?$/.exec(url.pathname);
  if (!match) return send(res, 404, { error: "not found" });
  const id = match[1] ? Number(match[1]) : undefined;
  try {
    if (req.method === "GET" && id === undefined) {
      const page = Number(url.searchParams.get("page") ?? 1);
      const perPage = Number(url.searchParams.get("perPage") ?? 20);
      const result = paginate(store.list(), page, perPage);
      return send(res, 200, { ...result, items: result.items.map(view) });
    }
    if (req.method === "POST" && id === undefined) {
      return send(res, 201, view(store.create(validateNewTodo(await readBody(req)))));
    }
    if (id !== undefined && req.method === "GET") {
      const todo = store.get(id);
      return todo ? send(res, 200, view(todo)) : send(res, 404, { error: "not found" });
    }
    if (id !== undefined && req.method === "PATCH") {
      const updated = store.update(id, toPatch((await readBody(req)) as Record<string, unknown>));
      return updated ? send(res, 200, view(updated)) : send(res, 404, { error: "not found" });
    }
    if (id !== undefined && req.method === "DELETE") {
      return store.remove(id) ? send(res, 204) : send(res, 404, { error: "not found" });
    }
    return send(res, 405, { error: "method not allowed" });
  } catch (error) {
    if (error instanceof ValidationError) return send(res, 422, { error: error.message, field: error.field });
    if (error instanceof SyntaxError) return send(res, 400, { error: "invalid JSON body" });
    throw error;
  }
}

if (import.meta.url === \`file://\${process.argv[1]}\`) {
  const port = Number(process.env.PORT ?? 8080);
  createServer((req, res) => void handle(req, res)).listen(port, () => {
    console.log(\`todo-api listening on http://localhost:\${port}\`);
  });
}
`,
};
