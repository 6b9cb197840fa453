import { type StepDetail, type ContextOutput, type TreeFile } from "@fixloop/contract";
import { languageOf } from "../../../localize/languages";
import { MAX_BLOB_BYTES, type RepoSnapshot } from "./repo-tree";

const VENDORED =
  /(^|\/)(node_modules|vendor|third_party|third-party|bower_components|\.yarn|\.pnpm-store|Pods|\.venv|venv|site-packages|dist|build|out|target|coverage|\.next|\.nuxt|__pycache__|\.git)\//;
const GENERATED =
  /(\.min\.(js|css)|\.map|\.pb\.go|_pb2\.py|_generated\.\w+|\.generated\.\w+|\.g\.dart|\.designer\.cs|(^|\/)(package-lock\.json|yarn\.lock|pnpm-lock\.yaml|cargo\.lock|poetry\.lock|go\.sum|composer\.lock|gemfile\.lock))$/i;
const BINARY =
  /\.(png|jpe?g|gif|bmp|ico|webp|svgz|tiff?|psd|pdf|zip|gz|tgz|bz2|xz|7z|rar|jar|war|class|so|dylib|dll|exe|bin|o|a|lib|obj|wasm|woff2?|ttf|otf|eot|mp[34]|mov|avi|webm|ogg|wav|flac|sqlite|db|pyc|pyo|dat|npy|pkl|parquet|h5)$/i;

export type ExclusionReason = "vendored" | "generated" | "binary" | "too large";

export function exclusionReason(f: TreeFile): ExclusionReason | null {
  if (VENDORED.test(f.path)) return "vendored";
  if (GENERATED.test(f.path)) return "generated";
  if (BINARY.test(f.path)) return "binary";
  if (f.size > MAX_BLOB_BYTES) return "too large";
  return null;
}

const MANIFESTS =
  /(^|\/)(package\.json|pyproject\.toml|setup\.py|go\.mod|cargo\.toml|pom\.xml|build\.gradle(\.kts)?|gemfile|composer\.json|\w+\.csproj|cmakelists\.txt|readme\.md)$/i;

/** Step 2: the repository's structure at the default branch head, minus files not worth reading. */
export function context(snapshot: RepoSnapshot & { cached?: boolean }): { output: ContextOutput; detail: StepDetail } {
  const counts: Record<ExclusionReason, number> = { vendored: 0, generated: 0, binary: 0, "too large": 0 };
  const kept: TreeFile[] = [];
  for (const f of snapshot.files) {
    const why = exclusionReason(f);
    if (why) counts[why]++;
    else kept.push(f);
  }
  const byLang = new Map<string, number>();
  for (const f of kept) {
    const lang = languageOf(f.path);
    if (lang) byLang.set(lang, (byLang.get(lang) ?? 0) + 1);
  }
  const codeFiles = [...byLang.values()].reduce((a, b) => a + b, 0);
  const languages = [...byLang.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([language, files]) => ({ language, files, percent: Math.round((files / Math.max(1, codeFiles)) * 100) }));
  const excluded = Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${n} ${k}`);
  const info = [
    `${snapshot.files.length} files at ${snapshot.defaultBranch}@${snapshot.commitSha.slice(0, 7)}${snapshot.cached ? " (tree from cache)" : ""}`,
    `${kept.length} files kept for analysis${excluded.length ? `; excluded ${excluded.join(", ")}` : ""}`,
    languages.length
      ? `Languages: ${languages
          .slice(0, 5)
          .map((l) => `${l.language} ${l.percent}%`)
          .join(", ")}`
      : "No source files in a supported language",
  ];
  const warnings: string[] = [];
  if (snapshot.truncated) warnings.push("GitHub truncated the recursive tree; it was listed directory by directory");
  if (!codeFiles) warnings.push("No source files in a supported language were found");
  const score = !kept.length ? 20 : !codeFiles ? 50 : snapshot.truncated ? 85 : 100;
  return {
    output: {
      owner: snapshot.owner,
      repo: snapshot.repo,
      defaultBranch: snapshot.defaultBranch,
      commitSha: snapshot.commitSha,
      treeSha: snapshot.treeSha,
      allPaths: snapshot.files.map((f) => f.path),
      links: snapshot.files.filter((f) => f.link).map((f) => f.path),
      files: kept,
      languages,
    },
    detail: {
      files: kept
        .filter((f) => MANIFESTS.test(f.path))
        .map((f) => f.path)
        .slice(0, 20),
      info,
      warnings,
      score,
    },
  };
}
