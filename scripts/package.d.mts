export const REPO_ROOT: string;
export const PUBLISHED: readonly string[];
export const INSTALL_TIMEOUT_MS: number;
export interface PackedPackage {
  name: string;
  /** The workspace directory, relative to the repository root. */
  dir: string;
  /** Absolute path of the .tgz. */
  tarball: string;
}
export function build(): void;
export function packAll(outDir: string): Promise<PackedPackage[]>;
export function unpack(tarball: string): string;
export function tarballProblems(tarball: string): Promise<string[]>;
export function installTarballs(tarballs: readonly string[], prefix: string, opts?: { timeoutMs?: number }): void;
