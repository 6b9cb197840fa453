import { randomUUID } from "node:crypto";
import { execFile } from "node:child_process";
import {
  DEFAULT_TMP_BYTES,
  HOST_ENV,
  SANDBOX_ENV,
  SANDBOX_UID,
  type SandboxRunner,
  type SandboxRunSpec,
} from "./sandbox";
import { diskBudget } from "./sandbox.disk";
import { runProcessGroup } from "./sandbox.process";

/** Image per detected language; `default` for anything else. */
export type DockerImages = Record<string, string>;

export const DEFAULT_DOCKER_IMAGES: DockerImages = {
  node: "node:20-bookworm-slim",
  python: "python:3.12-slim",
  go: "golang:1.22-bookworm",
  rust: "rust:1-slim-bookworm",
  java: "maven:3-eclipse-temurin-21",
  default: "debian:bookworm-slim",
};

/** `node=node:20,python=python:3.12-slim` over the defaults. */
export function parseDockerImages(setting: string): DockerImages {
  const images = { ...DEFAULT_DOCKER_IMAGES };
  for (const pair of setting
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [lang, image] = pair.split("=").map((s) => s.trim());
    if (lang && image) images[lang] = image;
  }
  return images;
}

export function dockerArgv(spec: SandboxRunSpec, image: string, name: string): string[] {
  const l = spec.limits;
  return [
    "docker",
    "run",
    "--rm",
    "--init",
    "--name",
    name,
    // Never a bridge: this backend has no egress proxy, so a networked setup would reach the host and
    // the private ranges. Networked setup is refused before it gets here (`planForBackend`).
    "--network",
    "none",
    "--user",
    `${spec.uid ?? SANDBOX_UID}:${spec.uid ?? SANDBOX_UID}`,
    "--cap-drop",
    "ALL",
    "--security-opt",
    "no-new-privileges",
    "--read-only",
    "--tmpfs",
    `/tmp:exec,size=${l.tmpBytes ?? DEFAULT_TMP_BYTES}`,
    "--memory",
    String(l.totalMemoryBytes ?? l.memoryBytes),
    "--pids-limit",
    String(l.processes),
    "--ulimit",
    `fsize=${l.fileBytes}`,
    "-v",
    `${spec.workspace}:/workspace`,
    "-w",
    "/workspace",
    ...Object.entries({ ...SANDBOX_ENV, PATH: `${SANDBOX_ENV.PATH}:/usr/local/go/bin:/usr/local/cargo/bin` }).flatMap(
      ([k, v]) => ["-e", `${k}=${v}`],
    ),
    image,
    "/bin/sh",
    "-c",
    spec.command,
  ];
}

/** Docker (compose deployments): the container is removed by name when the run times out or is cancelled. */
export function dockerRunner(images: DockerImages): SandboxRunner {
  return {
    backend: "docker",
    async run(spec) {
      const name = `fixloop-tests-${randomUUID()}`;
      const image =
        images[spec.language ?? "default"] ?? images.default ?? DEFAULT_DOCKER_IMAGES.default ?? "debian:bookworm-slim";
      const bytes = spec.limits.diskBytes;
      const disk = bytes === undefined ? null : await diskBudget(spec.workspace, bytes);
      const run = await runProcessGroup(dockerArgv(spec, image, name), spec, HOST_ENV, { guard: disk?.guard });
      const full = !run.limitHit && (await disk?.reached());
      const r = { ...run, ...(full ? { limitHit: "disk" as const } : {}), ...(disk ? { disk: disk.wall } : {}) };
      if (r.timedOut || r.cancelled || r.limitHit)
        await new Promise((res) => execFile("docker", ["rm", "-f", name], () => res(null)));
      return r;
    },
  };
}
