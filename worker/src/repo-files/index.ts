export { fetchRepoSnapshot, readBlob } from "../pipeline/steps/context/repo-tree";
export { fetchTreeInto } from "../tests-run/workspace.github";
export { repoFiles, type RepoFilesCache } from "./repo-files";
