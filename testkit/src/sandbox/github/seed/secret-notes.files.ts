/** Files of the seeded private octocat/secret-notes repository. */
export const SECRET_NOTES_FILES: Record<string, string> = {
  "README.md": `# secret-notes

Private scratchpad for project ideas. Nothing here is public yet.

New ideas go in \`notes/ideas.md\`; once an idea is ready we recieve feedback in a
short design note under \`notes/\`.
`,
  "notes/ideas.md": `# Ideas

- A CLI that turns a GitHub issue into a branch name.
- Weather alerts for the url-shortener status page.
- Offline mode for todo-api.
`,
  ".fixloop.yml": `test: python3 -m unittest discover -s tests -t . -v
`,
  "tests/test_spelling.py": `"""Words these notes keep getting wrong."""
import pathlib
import unittest

MISSPELLINGS = {"recieve": "receive", "seperate": "separate", "occured": "occurred", "definately": "definitely"}
ROOT = pathlib.Path(__file__).resolve().parent.parent


class SpellingTest(unittest.TestCase):
    def test_no_common_misspellings(self):
        for path in sorted(ROOT.rglob("*.md")):
            text = path.read_text(encoding="utf-8").lower()
            for wrong, right in MISSPELLINGS.items():
                with self.subTest(file=path.name, word=wrong):
                    self.assertNotIn(wrong, text, f"{path.name}: '{wrong}' should be '{right}'")

    def test_every_note_has_a_title(self):
        for path in sorted((ROOT / "notes").glob("*.md")):
            with self.subTest(file=path.name):
                self.assertTrue(path.read_text(encoding="utf-8").startswith("# "))


if __name__ == "__main__":
    unittest.main()
`,
};
