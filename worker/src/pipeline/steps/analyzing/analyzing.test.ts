import { describe, expect, it } from "vitest";
import { analyzing } from "./analyzing";

const typeOf = async (title: string, body: string, labels: string[] = []) =>
  (await analyzing({ title, body, labels })).output.classification.type;

// Short quotes from real issues (SWE-bench Lite); each was fixed by a code change.
describe("analyzing classifies reports of wrong behaviour as bugs", () => {
  it("a wrong result whose report quotes the documentation is a bug, not docs", async () => {
    const body =
      "Using SymPy 1.5.1, evaluate `0**-oo` produces `0`.\n\n" +
      "The documentation for the Pow class states that it should return `ComplexInfinity`, aka `zoo`. " +
      "See the docstring of Pow: the docs list this case in the table.";
    expect(await typeOf("0**-oo produces 0, the documentation says it should produce zoo", body)).toBe("bug");
  });

  it("an autodoc bug whose example is full of docstrings is a bug (sphinx-doc__sphinx-8801)", async () => {
    const body =
      '**Describe the bug**\nautodoc: The annotation only member in superclass is treated as "undocumented".\n\n' +
      '```\n# example.py\nclass Foo:\n    """docstring"""\n    attr1: int  #: docstring\n\n\nclass Bar(Foo):\n' +
      '    """docstring"""\n    attr2: str  #: docstring\n```\n\n**Expected behavior**\n' +
      "It should be shown.\n\nThe documentation of autodoc lists annotation only members.";
    expect(await typeOf('autodoc: The annotation only member in superclass is treated as "undocumented"', body)).toBe(
      "bug",
    );
  });

  it("a traceback in a report that talks about tests is a bug (django__django-13448)", async () => {
    const body =
      'I\'m trying to upgrade a project from Django 3.0 to Django 3.1 and wanted to try out the new "TEST": ' +
      '{"MIGRATE": False} database setting.\nSadly I\'m running into an issue immediately when running ' +
      "./manage.py test.\n\nTraceback (most recent call last):\n" +
      '  File "django/db/backends/utils.py", line 84, in _execute\n' +
      'psycopg2.errors.UndefinedTable: relation "django_admin_log" does not exist';
    expect(await typeOf('Test runner setup_databases crashes with "TEST": {"MIGRATE": False}.', body)).toBe("bug");
  });

  it("sympy's simplify() is a function name, not a refactoring (sympy__sympy-20322)", async () => {
    const body =
      "In sympy v1.5.1:\n```python\nIn [16]: sympy.sympify('4*ceiling(x/4 - 3/4)', evaluate=False).simplify()\n" +
      "Out[16]: 4*ceiling(x/4 - 3/4)\n```\nIn sympy v.1.6.2 the result simplifies differently; " +
      "is there a way to ensure that the behavior is consistent, even though evaluate is equal to `False` when parsing?";
    expect(await typeOf("Inconsistent behavior for sympify/simplify with ceiling", body)).toBe("bug");
  });
});

describe("analyzing still recognises non-code work", () => {
  it("a documentation fix with no reported misbehaviour is docs", async () => {
    expect(
      await typeOf("Typo in the README", "The installation docs spell 'dependency' as 'dependancy'. The readme too."),
    ).toBe("docs");
  });

  it("a clean-up request is a refactor", async () => {
    expect(
      await typeOf(
        "Refactor the config loader",
        "Please refactor the loader: clean up the duplicated code in parse().",
      ),
    ).toBe("refactor");
  });

  it("a test-coverage request is a test task", async () => {
    expect(
      await typeOf("Add tests for the parser", "The parser has no unit test coverage; tests for empty input"),
    ).toBe("test");
  });
});
